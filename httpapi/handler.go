package httpapi

import (
	"context"
	"encoding/base64"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/integrations"
)

// DefaultTransferTimeout bounds the transfer of one uploaded or downloaded file.
const DefaultTransferTimeout = time.Hour

// DefaultMaxBodyBytes bounds request bodies when Options.MaxBodyBytes is zero.
const DefaultMaxBodyBytes = 4 << 20

// DefaultMaxQueryBytes bounds query strings when Options.MaxQueryBytes is zero. Big narrows
// travel in GET /messages's query string, so it is generous; the HTTP server's header limit
// (http.Server.MaxHeaderBytes) must be larger, or Go answers longer URLs with a plain-text 431
// before this handler sees them.
const DefaultMaxQueryBytes = 256 << 10

// Options configure a Handler.
type Options struct {
	// MaxBodyBytes bounds a request body (default DefaultMaxBodyBytes).
	MaxBodyBytes int64
	// MaxQueryBytes bounds a query string (default DefaultMaxQueryBytes).
	MaxQueryBytes int
	// Logger receives request failures; nil means slog.Default().
	Logger *slog.Logger
	// TransferTimeout is how long an upload or a download of a file may take (default
	// DefaultTransferTimeout); it replaces the server's read and write deadlines for them.
	TransferTimeout time.Duration
	// Queues, when several processes share events, forwards GET and DELETE /events for a
	// queue of another process to it (see QueueRouter); nil: every queue is local.
	Queues QueueRouter
	// Observer, when set, is told of every request once it is answered (for monitoring).
	Observer RequestObserver
	// LongPolls, when set, is the HTTP server's listener wrapped by NewLongPollListener: a
	// waiting GET /events then gives its connection up to a small goroutine while it waits,
	// which also serves the client's next GET /events itself; any other request returns the
	// connection to the server through the listener (park.go, events_conn.go). Nil:
	// long-polls wait in net/http's handler.
	LongPolls *LongPollListener
	// ParkAfter is how long a GET /events waits in net/http before it parks (with
	// LongPolls). 0: at once (the cheapest for clients woken often, since a parked connection
	// serves their next long-polls without net/http).
	ParkAfter time.Duration
	// SecureCookies gives the session and CSRF cookies the Secure attribute even on requests
	// that arrive without TLS (behind a TLS-terminating proxy); over TLS they always have it.
	SecureCookies bool
}

// RequestObserver receives every answered request: its method, its route (the routing
// table's pattern under /api/v1/, such as "/api/v1/messages/{message_id}", or "unmatched"),
// the status written and how long it took.
type RequestObserver interface {
	ObserveRequest(method, route string, status int, elapsed time.Duration)
}

// unmatchedRoute is the route of requests that match no endpoint.
const unmatchedRoute = "unmatched"

// Handler serves the API of one Service.
type Handler struct {
	svc    *chat.Service
	opts   Options
	log    *slog.Logger
	routes []route
	// routeParts is each route's pattern split at its slashes (splitPatterns).
	routeParts [][]string
	// routesByFirst lists the routes that may match a path, by its first segment.
	routesByFirst map[string][]int
	// emojiData is the server emoji data file, encoded on first use.
	emojiData emojiData
	// buffers holds the response buffers of writeSuccess (*[]byte).
	buffers sync.Pool
	// notices limits the notices to bots' owners about misconfigured integrations.
	notices integrations.NoticeLimiter
	// drain counts the requests in flight and refuses new ones once Drain has begun.
	drain requestDrain
}

// New returns the HTTP handler of svc.
func New(svc *chat.Service, opts Options) *Handler {
	if opts.MaxBodyBytes <= 0 {
		opts.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if opts.MaxQueryBytes <= 0 {
		opts.MaxQueryBytes = DefaultMaxQueryBytes
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.TransferTimeout <= 0 {
		opts.TransferTimeout = DefaultTransferTimeout
	}
	h := &Handler{svc: svc, opts: opts, log: opts.Logger}
	h.buffers.New = func() any { b := make([]byte, 0, 4096); return &b }
	h.routes = h.table()
	h.routeParts = splitPatterns(h.routes)
	h.routesByFirst = routesByFirst(h.routeParts)
	return h
}

// request is what a handler works with: the decoded parameters, the path values, the
// authenticated actor and the original request.
type request struct {
	ctx    context.Context
	http   *http.Request
	params *params
	path   map[string]string
	actor  chat.Actor
	// header is the response's header, for the handlers that set cookies (logins).
	header http.Header
}

// ServeHTTP routes the request, authenticates it and writes the envelope.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !isLongPoll(r) {
		if !h.drain.enter() {
			h.writeShuttingDown(w, r)
			return
		}
		defer h.drain.leave()
	}
	debug := h.log.Enabled(r.Context(), slog.LevelDebug)
	if !debug && h.opts.Observer == nil {
		h.serve(w, r)
		return
	}
	start := time.Now()
	rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
	route := h.serve(rec, r)
	if debug {
		// Method, path and status only: never the query, the body or the credentials.
		h.log.Debug("request", "method", r.Method, "path", r.URL.Path, "status", rec.status)
	}
	if h.opts.Observer != nil {
		h.opts.Observer.ObserveRequest(r.Method, route, rec.status, time.Since(start))
	}
}

// statusRecorder remembers the status a handler wrote, for the request log.
type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (s *statusRecorder) WriteHeader(code int) {
	s.status = code
	s.ResponseWriter.WriteHeader(code)
}

// Unwrap gives http.ResponseController the underlying writer.
func (s *statusRecorder) Unwrap() http.ResponseWriter { return s.ResponseWriter }

// Flush passes through so that streaming keeps working behind the recorder.
func (s *statusRecorder) Flush() {
	if f, ok := s.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// serve routes the request, authenticates it and writes the envelope. It returns the route
// it matched (see RequestObserver).
func (h *Handler) serve(w http.ResponseWriter, r *http.Request) string {
	path := cleanPath(r.URL.Path)
	prefix, rest, isAPI := apiPath(path)
	if !isAPI {
		// The API's paths are checked segment by segment once matched (checkPath).
		if err := checkPath(map[string]string{"path": path}); err != nil {
			h.writeError(w, r, err)
			return unmatchedRoute
		}
	}
	if strings.HasPrefix(path, "/user_avatars/") || strings.HasPrefix(path, "/avatar/") {
		h.serveAvatar(w, r, path)
		return "/avatar/"
	}
	if path == chat.ServerEmojiDataPath {
		h.serveEmojiData(w, r)
		return chat.ServerEmojiDataPath
	}
	if rest, ok := strings.CutPrefix(path, "/user_uploads/"); ok {
		h.extendDeadlines(w)
		h.serveUpload(w, r, rest)
		return "/user_uploads/"
	}
	w.Header().Set("Cache-Control", noStore)
	if !isAPI {
		return h.servePage(w, r, path)
	}
	method := r.Method
	if method == http.MethodHead {
		method = http.MethodGet
	}
	rt, values, allowed := h.match(method, rest)
	if rt == nil {
		if len(allowed) == 0 {
			writeNotFound(w)
			return unmatchedRoute
		}
		if r.Method == http.MethodOptions {
			w.Header().Set("Allow", strings.Join(allowed, ", "))
			w.WriteHeader(http.StatusNoContent)
			return unmatchedRoute
		}
		writeMethodNotAllowed(w, allowed)
		return unmatchedRoute
	}
	route := prefix + rt.pattern
	if len(r.URL.RawQuery) > h.opts.MaxQueryBytes {
		writeJSON(w, http.StatusRequestURITooLong, map[string]any{"result": "error", "code": string(chat.CodeBadRequest),
			"msg": fmt.Sprintf("Request URL too long: the query string has %d bytes (limit: %d)", len(r.URL.RawQuery), h.opts.MaxQueryBytes)})
		return route
	}
	p, err := h.requestText(w, r, method, rt.pattern, values)
	if err != nil {
		h.writeError(w, r, err)
		return route
	}
	req := &request{ctx: r.Context(), http: r, params: p, path: values, header: w.Header()}
	if rt.auth != authNone {
		actor, err := h.authenticator(prefix, rt.auth)(r, rt.auth == authOptional)
		if err != nil {
			h.writeError(w, r, err)
			return route
		}
		req.actor = actor
	}
	if rt.pattern == "events" && method != http.MethodPost && h.routeQueue(w, r, p) {
		return route
	}
	if !hasOwnRateLimit(rt.pattern) {
		limit, err := h.svc.CountAPIRequest(req.actor, clientAddress(r))
		setRateLimitHeaders(w, limit)
		if err != nil {
			h.writeError(w, r, err)
			return route
		}
	}
	if rt.pattern == "events" && h.park(w, r, req) {
		return route
	}
	result, err := rt.handle(req)
	if err != nil {
		h.writeError(w, r, err)
		return route
	}
	h.writeSuccess(w, result, p.ignored())
	return route
}

// requestText checks the text of the path's values (values, from match) and decodes and
// checks the request's parameters (text.go), before anything else reads them: the query
// alone for the routes that stream their body, which the handler reads itself.
func (h *Handler) requestText(w http.ResponseWriter, r *http.Request, method, pattern string, values map[string]string) (*params, error) {
	if err := checkPath(values); err != nil {
		return nil, err
	}
	decode := decodeParams
	if streamsBody(method, pattern) {
		decode = decodeQuery
		h.extendDeadlines(w)
	}
	p, err := decode(r, h.opts.MaxBodyBytes)
	if err != nil {
		return nil, err
	}
	return p, p.checkText()
}

// extendDeadlines gives a file transfer TransferTimeout, whatever the server's own read and
// write timeouts (servers without deadlines, such as httptest's recorder, ignore it).
func (h *Handler) extendDeadlines(w http.ResponseWriter) {
	rc := http.NewResponseController(w)
	until := time.Now().Add(h.opts.TransferTimeout)
	_ = rc.SetReadDeadline(until)
	_ = rc.SetWriteDeadline(until)
}

// authenticate reads HTTP Basic credentials. With optional set, a request without an
// Authorization header runs as the anonymous actor.
func (h *Handler) authenticate(r *http.Request, optional bool) (chat.Actor, error) {
	return h.basicActor(r.Context(), r.Header.Get("Authorization"), clientAddress(r), optional)
}

// authenticator picks how a route of the tree prefix authenticates: a web session under
// /json/, HTTP Basic credentials otherwise (open to incoming webhook bots on their routes).
func (h *Handler) authenticator(prefix string, kind authKind) func(*http.Request, bool) (chat.Actor, error) {
	switch {
	case prefix == webPrefix:
		return h.authenticateWeb
	case kind == authWebhookBots:
		return h.authenticateWebhookBots
	}
	return h.authenticate
}

// authenticateWebhookBots is authenticate for the routes open to incoming webhook bots.
func (h *Handler) authenticateWebhookBots(r *http.Request, _ bool) (chat.Actor, error) {
	header := r.Header.Get("Authorization")
	if header == "" {
		return chat.Actor{}, chat.ErrNotLoggedIn()
	}
	email, key, err := basicCredentials(header)
	if err != nil {
		return chat.Actor{}, err
	}
	return h.svc.AuthenticateWebhookAPIKeyFrom(r.Context(), email, key, clientAddress(r))
}

// basicActor authenticates the value of an Authorization header (see authenticate).
func (h *Handler) basicActor(ctx context.Context, header, addr string, optional bool) (chat.Actor, error) {
	if header == "" {
		if optional {
			return chat.Actor{}, nil
		}
		return chat.Actor{}, chat.ErrNotLoggedIn()
	}
	email, key, err := basicCredentials(header)
	if err != nil {
		return chat.Actor{}, err
	}
	return h.svc.AuthenticateAPIKeyFrom(ctx, email, key, addr)
}

// basicCredentials reads the email and the API key of a non-empty Authorization header.
func basicCredentials(header string) (email, key string, err error) {
	fields := basicFields(header)
	if len(fields) > 0 && !strings.EqualFold(fields[0], "basic") {
		return "", "", chat.Errorf(chat.CodeBadRequest, "This endpoint requires HTTP basic authentication.")
	}
	malformed := func() error { return chat.Errorf(chat.CodeUnauthorized, "Invalid authorization header for basic auth") }
	if len(fields) != 2 {
		return "", "", malformed()
	}
	raw, err := base64.StdEncoding.DecodeString(fields[1])
	if err != nil {
		return "", "", malformed()
	}
	pair := string(raw)
	email, key, ok := strings.Cut(pair, ":")
	if !ok || strings.Contains(key, ":") {
		return "", "", malformed()
	}
	return strings.TrimSpace(email), strings.TrimSpace(key), nil
}

// basicFields is strings.Fields(header), without its work for the usual "Basic <token>" (a
// token of printable ASCII).
func basicFields(header string) []string {
	if token, ok := strings.CutPrefix(header, "Basic "); ok && token != "" && plainToken(token) {
		return []string{"Basic", token}
	}
	return strings.Fields(header)
}

// plainToken reports whether s is printable ASCII without spaces (so strings.Fields would
// keep it whole).
func plainToken(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] <= ' ' || s[i] >= 0x7f {
			return false
		}
	}
	return true
}

// setRateLimitHeaders reports the caller's API budget on every rate-limited response.
func setRateLimitHeaders(w http.ResponseWriter, l chat.RateLimitStatus) {
	if l.Limit == 0 {
		return
	}
	w.Header().Set("X-RateLimit-Limit", strconv.Itoa(l.Limit))
	w.Header().Set("X-RateLimit-Remaining", strconv.Itoa(l.Remaining))
	w.Header().Set("X-RateLimit-Reset", strconv.FormatInt(l.Reset.Unix(), 10))
}

// clientAddress is the caller's IP address, for rate limiting.
func clientAddress(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// cleanPath collapses repeated slashes ("//api/v1/x" from clients whose site URL ends in "/").
func cleanPath(p string) string {
	if !strings.Contains(p, "//") {
		return p
	}
	var b strings.Builder
	prevSlash := false
	for i := 0; i < len(p); i++ {
		if p[i] == '/' {
			if prevSlash {
				continue
			}
			prevSlash = true
		} else {
			prevSlash = false
		}
		b.WriteByte(p[i])
	}
	return b.String()
}
