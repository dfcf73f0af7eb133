// Package webclient is the browser client of the chat server: a single-page application,
// embedded in the binary (go:embed), that people open at the organization's URL to read and
// write. It talks to the server only through the public Zulip API a browser may use: the
// /json/ routes authenticated by the web session and its CSRF token, POST /json/register and
// the long-poll of GET /json/events, as any Zulip client does, so it proves that API as much as
// it uses it.
//
// New wraps the API's handler (httpapi.New): the client's page at "/" and its assets under
// /static/webclient/ are served here, every other request goes to the API unchanged. An
// embedder mounts the result at the root of the organization's URL:
//
//	api := httpapi.New(svc, httpapi.Options{})
//	http.ListenAndServe(addr, webclient.New(api, webclient.Options{}))
//
// Files: handler.go routes and serves the page and the assets (content-hashed names cached
// for a year, gzip-compressed once at start, a strict Content-Security-Policy: no inline
// script or style); ui/ holds the TypeScript sources (Preact, bundled by esbuild; see
// ui/README.md) and assets/ the bundle built from them, committed so that go build needs no
// Node (.ci/run rebuilds it from the lockfile and fails when it differs).
//
// It imports no package of the project: it knows the server only through HTTP. A Handler is
// safe for concurrent use.
package webclient
