package httpapi_test

import (
	"bytes"
	"encoding/json"
	"image"
	_ "image/png"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"testing"
)

func TestCustomEmojiOverHTTP(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	hamlet := "hamlet@zulip.com"
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, err := mw.CreateFormFile("file", "tick.png")
	if err != nil {
		t.Fatal(err)
	}
	png := []byte("\x89\x50\x4e\x47\x0d\x0a\x1a\x0a\x00\x00\x00\x0d\x49\x48\x44\x52\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89\x00\x00\x00\x0d\x49\x44\x41\x54\x78\x9c\x63\xf8\xcf\xc0\xf0\x1f\x00\x05\x00\x01\xff\x89\x99\x3d\x1d\x00\x00\x00\x00\x49\x45\x4e\x44\xae\x42\x60\x82")
	fw.Write(png)
	mw.Close()
	req, err := http.NewRequest(http.MethodPost, s.URL+"/api/v1/realm/emoji/green_tick", &body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.SetBasicAuth(hamlet, s.keys[hamlet])
	status, _, got := do(t, req)
	if status != 200 {
		t.Fatalf("upload: %d %v", status, got)
	}
	status, _, got = s.call(t, http.MethodGet, "/api/v1/realm/emoji", hamlet, nil)
	if status != 200 || got["emoji"].(map[string]any)["1"].(map[string]any)["name"] != "green_tick" {
		t.Fatalf("list: %d %v", status, got)
	}
	// The image is served at its source_url, without credentials, with its type.
	src, _ := got["emoji"].(map[string]any)["1"].(map[string]any)["source_url"].(string)
	resp, err := http.Get(s.URL + src)
	if err != nil {
		t.Fatal(err)
	}
	// It is stored resized to 64×64, as Zulip's emoji.
	served, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	cfg, format, err := image.DecodeConfig(bytes.NewReader(served))
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "image/png" || err != nil || format != "png" || cfg.Width != 64 || cfg.Height != 64 {
		t.Errorf("GET %s: %d %q %s %dx%d %v", src, resp.StatusCode, resp.Header.Get("Content-Type"), format, cfg.Width, cfg.Height, err)
	}
	for _, bad := range []string{"/user_avatars/1/emoji/images/0000000000000000000000ff.png", "/user_avatars/1/emoji/images/../../x.png", "/user_avatars/1/emoji/images/tick.exe"} {
		resp, err := http.Get(s.URL + bad)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 404 {
			t.Errorf("GET %s: %d, want 404", bad, resp.StatusCode)
		}
	}
	status, _, got = s.call(t, http.MethodPost, "/api/v1/realm/emoji/other", hamlet, url.Values{})
	wantErr(t, status, got, 400, "BAD_REQUEST", "You must upload exactly one file.")
	status, _, got = s.call(t, http.MethodDelete, "/api/v1/realm/emoji/green_tick", hamlet, nil)
	if status != 200 {
		t.Fatalf("deactivate: %d %v", status, got)
	}
	status, _, got = s.call(t, http.MethodDelete, "/api/v1/realm/emoji/green_tick", hamlet, nil)
	wantErr(t, status, got, 404, "BAD_REQUEST", "Emoji 'green_tick' does not exist")
}

func TestServerEmojiData(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	resp, err := http.Get(s.URL + "/static/generated/emoji/emoji_api.json")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var data struct {
		CodeToNames map[string][]string `json:"code_to_names"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&data); err != nil || resp.StatusCode != 200 {
		t.Fatalf("emoji data: %d %v", resp.StatusCode, err)
	}
	if names := data.CodeToNames["1f44d"]; len(names) == 0 || names[0] != "+1" {
		t.Errorf("code_to_names[1f44d] = %v", names)
	}
	etag := resp.Header.Get("ETag")
	req, _ := http.NewRequest(http.MethodGet, s.URL+"/static/generated/emoji/emoji_api.json", nil)
	req.Header.Set("If-None-Match", etag)
	again, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	again.Body.Close()
	if etag == "" || again.StatusCode != http.StatusNotModified {
		t.Errorf("revalidation with ETag %q: %d", etag, again.StatusCode)
	}
}
