package httpapi_test

import (
	"bytes"
	"encoding/json"
	"image"
	"image/png"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"strings"
	"testing"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/blobs"
	blobmemory "github.com/teamchat/chat/blobs/memory"
)

// part is one part of a multipart body: a file when filename is set.
type part struct{ field, filename, content string }

func (s *server) postMultipart(t *testing.T, path, as string, parts ...part) (int, map[string]any) {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for _, p := range parts {
		var w io.Writer
		var err error
		if p.filename != "" {
			w, err = mw.CreateFormFile(p.field, p.filename)
		} else {
			w, err = mw.CreateFormField(p.field)
		}
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(w, p.content)
	}
	mw.Close()
	req, _ := http.NewRequest(http.MethodPost, s.URL+path, &buf)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	if as != "" {
		req.SetBasicAuth(as, s.keys[as])
	}
	status, _, body := do(t, req)
	return status, body
}

// get fetches a non-API URL with optional credentials and headers.
func (s *server) get(t *testing.T, path, as string, header http.Header) *http.Response {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, s.URL+path, nil)
	for k, v := range header {
		req.Header[k] = v
	}
	if as != "" {
		req.SetBasicAuth(as, s.keys[as])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

func readAll(t *testing.T, r io.Reader) string {
	t.Helper()
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestUploadsHTTP(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	const hamlet, iago = "hamlet@zulip.com", "iago@zulip.com"
	status, body := s.postMultipart(t, "/api/v1/user_uploads", hamlet, part{"file", "zulip.txt", "zulip!"})
	url, _ := body["url"].(string)
	if status != 200 || body["uri"] != url || body["filename"] != "zulip.txt" || !strings.HasPrefix(url, "/user_uploads/2/") {
		t.Fatalf("upload: %d %v", status, body)
	}

	resp := s.get(t, url, hamlet, nil)
	if resp.StatusCode != 200 || readAll(t, resp.Body) != "zulip!" {
		t.Fatalf("download: %d", resp.StatusCode)
	}
	for k, want := range map[string]string{
		"Content-Type": "text/plain; charset=utf-8", "Content-Disposition": `inline; filename="zulip.txt"`,
		"X-Content-Type-Options": "nosniff", "Accept-Ranges": "bytes",
	} {
		if got := resp.Header.Get(k); got != want {
			t.Errorf("%s = %q, want %q", k, got, want)
		}
	}
	if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "sandbox") || !strings.Contains(csp, "default-src 'none'") {
		t.Errorf("Content-Security-Policy = %q", csp)
	}
	// A range request.
	resp = s.get(t, url, hamlet, http.Header{"Range": {"bytes=1-3"}})
	if resp.StatusCode != http.StatusPartialContent || readAll(t, resp.Body) != "uli" || resp.Header.Get("Content-Range") != "bytes 1-3/6" {
		t.Fatalf("range: %d %v", resp.StatusCode, resp.Header)
	}
	// Others may not read it; without credentials nobody may.
	resp = s.get(t, url, iago, nil)
	if resp.StatusCode != http.StatusForbidden {
		t.Fatalf("iago before any message: %d", resp.StatusCode)
	}
	resp = s.get(t, url, "", nil)
	if resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("without credentials: %d", resp.StatusCode)
	}
	resp = s.get(t, "/user_uploads/2/00/nothing/x.txt", hamlet, nil)
	if resp.StatusCode != http.StatusNotFound {
		t.Fatalf("unknown file: %d", resp.StatusCode)
	}

	// The temporary URL works without credentials.
	status, _, body = s.call(t, http.MethodGet, "/api/v1"+url, hamlet, nil)
	tmp, _ := body["url"].(string)
	if status != 200 || !strings.HasPrefix(tmp, "/user_uploads/temporary/") || !strings.HasSuffix(tmp, "/zulip.txt") {
		t.Fatalf("temporary URL: %d %v", status, body)
	}
	resp = s.get(t, tmp, "", nil)
	if resp.StatusCode != 200 || readAll(t, resp.Body) != "zulip!" {
		t.Fatalf("temporary URL download: %d", resp.StatusCode)
	}

	// Attachments list and delete.
	status, _, body = s.call(t, http.MethodGet, "/api/v1/attachments", hamlet, nil)
	list, _ := body["attachments"].([]any)
	if status != 200 || len(list) != 1 || body["upload_space_used"] != 6.0 {
		t.Fatalf("GET /attachments: %d %v", status, body)
	}
	id := list[0].(map[string]any)["id"].(float64)
	status, _, body = s.call(t, http.MethodDelete, "/api/v1/attachments/"+jsonNumber(id), iago, nil)
	wantErr(t, status, body, 400, "BAD_REQUEST", "Invalid attachment")
	status, _, body = s.call(t, http.MethodDelete, "/api/v1/attachments/"+jsonNumber(id), hamlet, nil)
	if status != 200 {
		t.Fatalf("DELETE: %d %v", status, body)
	}
	if resp = s.get(t, url, hamlet, nil); resp.StatusCode != http.StatusNotFound {
		t.Fatalf("after DELETE: %d", resp.StatusCode)
	}
}

func jsonNumber(f float64) string { b, _ := json.Marshal(f); return string(b) }

// TestUploadRefusalsHTTP: Zulip's errors, and nothing stored.
func TestUploadRefusalsHTTP(t *testing.T) {
	t.Parallel()
	bs := blobmemory.New()
	s := newServer(t, func(o *chat.Options) { o.Blobs = bs; o.MaxFileUploadSizeMiB = 1 })
	const hamlet = "hamlet@zulip.com"
	for _, c := range []struct {
		name  string
		parts []part
		msg   string
	}{
		{"no file", []part{{"other", "", "field"}}, "You must specify a file to upload"},
		{"a file part without a file", []part{{"file", "", ""}}, "You must specify a file to upload"},
		{"two files", []part{{"a", "a.txt", "aaa"}, {"b", "b.txt", "bbb"}}, "You may only upload one file at a time"},
		{"empty", []part{{"file", "empty.txt", ""}}, "Uploaded file is empty"},
		{"too large", []part{{"file", "big.bin", strings.Repeat("x", 1<<20+1)}}, "File is larger than this server's configured maximum upload size (1 MiB)."},
	} {
		status, body := s.postMultipart(t, "/api/v1/user_uploads", hamlet, c.parts...)
		wantErr(t, status, body, 400, "BAD_REQUEST", c.msg)
	}
	// A urlencoded body holds no file.
	status, _, body := s.call(t, http.MethodPost, "/api/v1/user_uploads", hamlet, url.Values{"file": {"x"}})
	wantErr(t, status, body, 400, "BAD_REQUEST", "You must specify a file to upload")
	n := 0
	_ = bs.List(t.Context(), "", func(blobs.Info) error { n++; return nil })
	if n != 0 {
		t.Errorf("%d objects stored by refused uploads", n)
	}
}

func TestContentDispositionOfOddNames(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	const hamlet = "hamlet@zulip.com"
	for name, want := range map[string]string{
		"résumé.pdf":         `inline; filename*=utf-8''r%C3%A9sum%C3%A9.pdf`,
		`page.html`:          `attachment; filename="page.html"`,
		"image.svg":          `attachment; filename="image.svg"`,
		"quote\"d name.txt":  `inline; filename="quoted-name.txt"`,
		"..\\..\\secret.txt": `inline; filename="secret.txt"`,
	} {
		status, body := s.postMultipart(t, "/api/v1/user_uploads", hamlet, part{"file", name, "<script>alert(1)</script>"})
		if status != 200 {
			t.Fatalf("%q: %d %v", name, status, body)
		}
		resp := s.get(t, body["url"].(string), hamlet, nil)
		if got := resp.Header.Get("Content-Disposition"); resp.StatusCode != 200 || got != want {
			t.Errorf("%q: %d Content-Disposition %q, want %q", name, resp.StatusCode, got, want)
		}
	}
}

func TestAvatarHTTP(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	const hamlet, iago = "hamlet@zulip.com", "iago@zulip.com"
	img := image.NewRGBA(image.Rect(0, 0, 50, 80))
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	status, body := s.postMultipart(t, "/api/v1/users/me/avatar", hamlet, part{"file", "me.png", buf.String()})
	url, _ := body["avatar_url"].(string)
	if status != 200 || !strings.HasPrefix(url, "/user_avatars/2/") {
		t.Fatalf("POST avatar: %d %v", status, body)
	}
	resp := s.get(t, url, "", nil) // public, as Zulip's
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "image/png" {
		t.Fatalf("GET %s: %d %v", url, resp.StatusCode, resp.Header)
	}
	// /avatar/{id} redirects signed-in callers to the avatar.
	status, _, me := s.call(t, http.MethodGet, "/api/v1/users/me", hamlet, nil)
	if status != 200 {
		t.Fatalf("GET /users/me: %d %v", status, me)
	}
	id := jsonNumber(me["user_id"].(float64))
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for path, want := range map[string]string{"/avatar/" + id: url, "/avatar/hamlet@zulip.com/medium": strings.Replace(url, ".png", "-medium.png", 1)} {
		req, _ := http.NewRequest(http.MethodGet, s.URL+path, nil)
		req.SetBasicAuth(iago, s.keys[iago])
		r, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		r.Body.Close()
		if r.StatusCode != http.StatusFound || r.Header.Get("Location") != want {
			t.Errorf("%s: %d %q, want %q", path, r.StatusCode, r.Header.Get("Location"), want)
		}
	}
	// Refusals.
	status, body = s.postMultipart(t, "/api/v1/users/me/avatar", hamlet, part{"a", "a.png", buf.String()}, part{"b", "b.png", buf.String()})
	wantErr(t, status, body, 400, "BAD_REQUEST", "You must upload exactly one avatar.")
	status, body = s.postMultipart(t, "/api/v1/users/me/avatar", hamlet)
	wantErr(t, status, body, 400, "BAD_REQUEST", "You must upload exactly one avatar.")
	status, body = s.postMultipart(t, "/api/v1/users/me/avatar", hamlet, part{"file", "x.png", "not an image"})
	wantErr(t, status, body, 400, "BAD_IMAGE", "Could not decode image; did you upload an image file?")
	// Back to Gravatar.
	status, _, body = s.call(t, http.MethodDelete, "/api/v1/users/me/avatar", hamlet, nil)
	if g, _ := body["avatar_url"].(string); status != 200 || !strings.HasPrefix(g, "https://secure.gravatar.com/") {
		t.Fatalf("DELETE avatar: %d %v", status, body)
	}
	if resp := s.get(t, url, "", nil); resp.StatusCode != http.StatusNotFound {
		t.Errorf("old avatar after DELETE: %d", resp.StatusCode)
	}
}
