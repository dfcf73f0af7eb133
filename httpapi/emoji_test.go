package httpapi_test

import (
	"bytes"
	"encoding/json"
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
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
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
	image, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "image/png" || !bytes.Equal(image, png) {
		t.Errorf("GET %s: %d %q %q", src, resp.StatusCode, resp.Header.Get("Content-Type"), image)
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
