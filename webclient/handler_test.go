package webclient_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/teamchat/chat/webclient"
)

// apiStub stands for the API behind the client: it names the path it was given.
var apiStub = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("X-API", r.URL.Path)
	w.WriteHeader(http.StatusTeapot)
})

func get(t *testing.T, h http.Handler, path string, header ...string) *http.Response {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, path, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Result()
}

// assets are the asset URLs the page links to.
func assets(t *testing.T, h http.Handler) []string {
	t.Helper()
	body, _ := io.ReadAll(get(t, h, "/").Body)
	urls := regexp.MustCompile(`(?:href|src)="(/static/webclient/[^"]+)"`).FindAllStringSubmatch(string(body), -1)
	if len(urls) != 2 {
		t.Fatalf("the page links %d assets, want the script and the stylesheet:\n%s", len(urls), body)
	}
	return []string{urls[0][1], urls[1][1]}
}

func TestPageHasStrictCSP(t *testing.T) {
	h := webclient.New(apiStub, webclient.Options{})
	res := get(t, h, "/")
	if res.StatusCode != http.StatusOK || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("GET /: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
	csp := res.Header.Get("Content-Security-Policy")
	for _, want := range []string{"default-src 'none'", "script-src 'self'", "style-src 'self'", "frame-ancestors 'none'", "base-uri 'none'", "object-src 'none'"} {
		if !strings.Contains(csp, want) {
			t.Errorf("CSP %q lacks %q", csp, want)
		}
	}
	if strings.Contains(csp, "unsafe") {
		t.Errorf("CSP %q allows something unsafe", csp)
	}
	body, _ := io.ReadAll(res.Body)
	if regexp.MustCompile(`<script>|<script [^>]*>[^<]|<style|\sstyle=|\son[a-z]+=`).Match(body) {
		t.Errorf("the page holds inline script or style:\n%s", body)
	}
	if res.Header.Get("Cache-Control") != "no-cache" {
		t.Errorf("page Cache-Control %q, want no-cache (the page names the current assets)", res.Header.Get("Cache-Control"))
	}
}

func TestAssetsAreHashedCachedAndCompressed(t *testing.T) {
	h := webclient.New(apiStub, webclient.Options{})
	for _, u := range assets(t, h) {
		if !regexp.MustCompile(`/app\.[0-9a-f]{12}\.(js|css)$`).MatchString(u) {
			t.Errorf("asset %s has no content hash in its name", u)
		}
		plain := get(t, h, u)
		raw, _ := io.ReadAll(plain.Body)
		if plain.StatusCode != http.StatusOK || len(raw) == 0 {
			t.Fatalf("GET %s: %d, %d bytes", u, plain.StatusCode, len(raw))
		}
		if cc := plain.Header.Get("Cache-Control"); cc != "public, max-age=31536000, immutable" {
			t.Errorf("%s: Cache-Control %q", u, cc)
		}
		gz := get(t, h, u, "Accept-Encoding", "br, gzip;q=0.8")
		if gz.Header.Get("Content-Encoding") != "gzip" {
			t.Fatalf("%s: no gzip for a client accepting it", u)
		}
		zr, err := gzip.NewReader(gz.Body)
		if err != nil {
			t.Fatal(err)
		}
		unzipped, _ := io.ReadAll(zr)
		if !bytes.Equal(unzipped, raw) {
			t.Errorf("%s: the gzip form differs from the file", u)
		}
		if refused := get(t, h, u, "Accept-Encoding", "gzip;q=0"); refused.Header.Get("Content-Encoding") != "" {
			t.Errorf("%s: gzip sent to a client refusing it", u)
		}
		if again := get(t, h, u, "If-None-Match", plain.Header.Get("ETag")); again.StatusCode != http.StatusNotModified {
			t.Errorf("%s with its ETag: %d, want 304", u, again.StatusCode)
		}
	}
}

func TestOtherRequestsGoToTheAPI(t *testing.T) {
	h := webclient.New(apiStub, webclient.Options{})
	for _, p := range []string{"/json/register", "/api/v1/messages", "/login/", "/user_uploads/2/ab/x.png", "/static/generated/emoji/emoji_api.json", "/nothing"} {
		res := get(t, h, p)
		if res.StatusCode != http.StatusTeapot || res.Header.Get("X-API") != p {
			t.Errorf("GET %s: %d, API saw %q", p, res.StatusCode, res.Header.Get("X-API"))
		}
	}
	if res := get(t, h, "/static/webclient/app.000000000000.js"); res.StatusCode != http.StatusNotFound {
		t.Errorf("an unknown asset: %d, want 404", res.StatusCode)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/", nil))
	if rec.Code != http.StatusMethodNotAllowed {
		t.Errorf("POST /: %d, want 405", rec.Code)
	}
}

// FuzzServeHTTP sends the handler arbitrary paths and Accept-Encoding and If-None-Match
// headers: it never panics, and answers every path it owns with 200, 304, 404 or 405.
func FuzzServeHTTP(f *testing.F) {
	h := webclient.New(apiStub, webclient.Options{})
	for _, seed := range [][3]string{
		{"/", "gzip", ""}, {"/static/webclient/app.js", "gzip;q=0", `"x"`}, {"/static/webclient/", "*", "*"},
		{"/json/x", "", ""}, {"/static/webclient/../app.css", "GZIP; q=1.0", `W/"1", "2"`},
	} {
		f.Add(seed[0], seed[1], seed[2])
	}
	f.Fuzz(func(t *testing.T, path, encoding, match string) {
		req := httptest.NewRequest(http.MethodGet, "/", nil)
		req.URL.Path = path
		req.Header.Set("Accept-Encoding", encoding)
		req.Header.Set("If-None-Match", match)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		switch rec.Code {
		case http.StatusOK, http.StatusNotModified, http.StatusNotFound, http.StatusMethodNotAllowed, http.StatusTeapot:
		default:
			t.Fatalf("GET %q: status %d", path, rec.Code)
		}
		if rec.Header().Get("Content-Encoding") == "gzip" && !strings.Contains(strings.ToLower(encoding), "gzip") && !strings.Contains(encoding, "*") {
			t.Fatalf("gzip sent for Accept-Encoding %q", encoding)
		}
	})
}
