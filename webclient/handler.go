package webclient

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"html/template"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strings"
)

//go:embed assets
var embedded embed.FS

// StaticPrefix is where the client's assets are served, under content-hashed names.
const StaticPrefix = "/static/webclient/"

// CSP is the Content-Security-Policy of the client's page: scripts and styles from this
// origin only (no inline script, no inline style element, no eval), images also from data:
// and blob: URLs (previews of files being uploaded), no plugins, no framing, no other base.
const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; " +
	"connect-src 'self'; font-src 'self'; media-src 'self'; manifest-src 'self'; form-action 'self'; " +
	"base-uri 'none'; frame-ancestors 'none'; object-src 'none'"

// Options configure a Handler.
type Options struct {
	// Title is the page's title before the client knows the organization's name (default
	// "teamchat").
	Title string
}

// asset is one embedded file, served under its hashed name.
type asset struct {
	name        string // hashed name under StaticPrefix
	contentType string
	raw, gz     []byte
	etag        string
}

// Handler serves the client's page and assets and passes every other request to the API.
type Handler struct {
	api    http.Handler
	assets map[string]*asset // by hashed name
	page   *asset
}

// New returns the handler serving the web client in front of api (the organization's API:
// /api/v1/, /json/, the login pages, /user_uploads/, ...).
func New(api http.Handler, opts Options) *Handler {
	if opts.Title == "" {
		opts.Title = "teamchat"
	}
	h := &Handler{api: api, assets: map[string]*asset{}}
	byOriginal := map[string]string{}
	err := fs.WalkDir(embedded, "assets", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		raw, err := embedded.ReadFile(p)
		if err != nil {
			return err
		}
		a := newAsset(hashedName(path.Base(p), raw), raw)
		h.assets[a.name] = a
		byOriginal[path.Base(p)] = a.name
		return nil
	})
	if err != nil || byOriginal["app.js"] == "" || byOriginal["app.css"] == "" {
		// The assets are compiled in: their absence is a broken build, not a runtime condition.
		panic(fmt.Sprintf("webclient: embedded assets incomplete (%v)", err))
	}
	var page bytes.Buffer
	if err := pageTemplate.Execute(&page, pageData{
		Title: opts.Title, Script: StaticPrefix + byOriginal["app.js"], Style: StaticPrefix + byOriginal["app.css"],
	}); err != nil {
		panic(fmt.Sprintf("webclient: page template: %v", err))
	}
	h.page = newAsset("index.html", page.Bytes())
	return h
}

// hashedName inserts the first 12 hex digits of the content's SHA-256 before the extension:
// app.js becomes app.0123456789ab.js.
func hashedName(name string, content []byte) string {
	sum := sha256.Sum256(content)
	ext := path.Ext(name)
	return strings.TrimSuffix(name, ext) + "." + hex.EncodeToString(sum[:6]) + ext
}

// newAsset prepares a file for serving: its type, its gzip form (kept only when smaller) and
// its ETag.
func newAsset(name string, raw []byte) *asset {
	a := &asset{name: name, raw: raw, contentType: mime.TypeByExtension(path.Ext(name))}
	if a.contentType == "" {
		a.contentType = "application/octet-stream"
	}
	var b bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
	_, _ = zw.Write(raw)
	_ = zw.Close()
	if b.Len() < len(raw) {
		a.gz = b.Bytes()
	}
	sum := sha256.Sum256(raw)
	a.etag = `"` + hex.EncodeToString(sum[:8]) + `"`
	return a
}

// Paths of the client's page: the organization's URL itself (Zulip's web app keeps its place
// in the fragment, /#narrow/...).
func isPage(p string) bool { return p == "/" }

// ServeHTTP serves the page and the assets; anything else goes to the API.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p := r.URL.Path
	switch {
	case isPage(p):
		if !getOrHead(w, r) {
			return
		}
		hd := w.Header()
		hd.Set("Content-Security-Policy", CSP)
		hd.Set("X-Content-Type-Options", "nosniff")
		hd.Set("Referrer-Policy", "same-origin")
		hd.Set("Cache-Control", "no-cache")
		h.write(w, r, h.page)
	case strings.HasPrefix(p, StaticPrefix):
		if !getOrHead(w, r) {
			return
		}
		a := h.assets[strings.TrimPrefix(p, StaticPrefix)]
		if a == nil {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		h.write(w, r, a)
	default:
		h.api.ServeHTTP(w, r)
	}
}

// getOrHead answers any other method with 405 and reports whether the request may go on.
func getOrHead(w http.ResponseWriter, r *http.Request) bool {
	if r.Method == http.MethodGet || r.Method == http.MethodHead {
		return true
	}
	w.Header().Set("Allow", "GET, HEAD")
	http.Error(w, "Method Not Allowed", http.StatusMethodNotAllowed)
	return false
}

// write sends a, compressed when the client accepts gzip, answering a matching
// If-None-Match with 304.
func (h *Handler) write(w http.ResponseWriter, r *http.Request, a *asset) {
	hd := w.Header()
	hd.Set("Content-Type", a.contentType)
	hd.Set("ETag", a.etag)
	hd.Add("Vary", "Accept-Encoding")
	if match := r.Header.Get("If-None-Match"); match != "" && strings.Contains(match, a.etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	body := a.raw
	if a.gz != nil && acceptsGzip(r.Header.Get("Accept-Encoding")) {
		body = a.gz
		hd.Set("Content-Encoding", "gzip")
	}
	hd.Set("Content-Length", fmt.Sprint(len(body)))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = w.Write(body)
	}
}

// acceptsGzip reports whether an Accept-Encoding header allows gzip (a q of 0 refuses it).
func acceptsGzip(header string) bool {
	for _, part := range strings.Split(header, ",") {
		coding, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if !strings.EqualFold(strings.TrimSpace(coding), "gzip") && strings.TrimSpace(coding) != "*" {
			continue
		}
		q := strings.ReplaceAll(strings.TrimSpace(params), " ", "")
		return q != "q=0" && q != "q=0.0" && q != "q=0.00" && q != "q=0.000"
	}
	return false
}

type pageData struct{ Title, Script, Style string }

// pageTemplate is the client's page: its stylesheet and its module script, nothing inline.
var pageTemplate = template.Must(template.New("page").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="{{.Style}}">
<script type="module" src="{{.Script}}"></script>
</head>
<body>
<div id="app"><p class="loading" role="status">Loading…</p></div>
<noscript><p>This chat needs JavaScript. Zulip's mobile and terminal apps also work with this server.</p></noscript>
</body>
</html>
`))
