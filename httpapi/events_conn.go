package httpapi

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	chat "github.com/teamchat/chat"
)

// noStore is the Cache-Control of every API response.
const noStore = "no-store, no-cache, must-revalidate, max-age=0"

// pollRoute is the route reported to the Observer for GET /api/v1/events.
const pollRoute = apiPrefix + "events"

// deadlineSlack is how stale a parked connection's deadline may get before it is set again:
// a client polling every second would otherwise move two timers per request. A deadline
// thus falls between its timeout less the slack and its timeout.
const deadlineSlack = 5 * time.Second

// pollConn is a connection that a GET /events took over from net/http (park.go). It answers
// the long-poll, then reads the client's next request itself: a plain GET /api/v1/events
// (events_request.go) it serves the same way; anything else, with the bytes read of it, goes
// back to the HTTP server through the LongPollListener.
type pollConn struct {
	h      *Handler
	pl     *LongPollListener
	conn   net.Conn
	remote string // the client's address, for rate limits
	// pending holds the bytes read and not yet served (the next request, or part of it); it
	// is buf's content when buf is set.
	pending []byte
	buf     *[]byte // from readBuffers
	// reading is set while the connection waits for its client's next request (the
	// listener's Close wakes those).
	reading                     atomic.Bool
	readDeadline, writeDeadline time.Time
	// poll is the request being answered, when the connection read it itself, and
	// lastEventID its last_event_id (when plainPollQuery decoded it).
	poll        parkedPoll
	lastEventID int64
	// auth is the last Authorization header read and email, key what it says (a client
	// sends the same one with every request; AuthenticateAPIKey still checks them each time).
	auth, email, key string
	// out is the response that a deliverer writes (events_deliver.go), and rc the socket it
	// writes it to.
	out outstanding
	rc  syscall.RawConn
}

// credentials returns the email and the API key of an Authorization header; ok is false
// when it is empty or malformed.
func (pc *pollConn) credentials(header string) (email, key string, ok bool) {
	if header != pc.auth || header == "" {
		email, key, err := basicCredentials(header)
		if header == "" || err != nil {
			return "", "", false
		}
		pc.auth, pc.email, pc.key = header, email, key
	}
	return pc.email, pc.key, true
}

// readBuffers hold the bytes of requests being read (maxPollHead each); responseBuffers the
// responses being written.
var (
	readBuffers     = sync.Pool{New: func() any { b := make([]byte, 0, maxPollHead); return &b }}
	responseBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 2<<10); return &b }}
)

// run answers p, then the client's next requests, until the connection closes or goes back
// to net/http.
func (pc *pollConn) run(p *parkedPoll) {
	pc.pl.track(pc)
	defer pc.pl.untrack(pc)
	if !pc.answer(p) {
		pc.close()
		return
	}
	if pc.serveRaw() {
		return
	}
	for p = pc.next(); p != nil; p = pc.next() {
		if !pc.answer(p) {
			pc.close()
			return
		}
	}
}

// wake ends a wait for the client's next request (the listener is closing).
func (pc *pollConn) wake() {
	if pc.reading.Load() {
		_ = pc.conn.SetReadDeadline(time.Unix(1, 0))
	}
}

// close closes the connection and releases its buffer.
func (pc *pollConn) close() {
	pc.conn.Close()
	pc.release()
}

// release returns the read buffer to the pool, dropping what it holds.
func (pc *pollConn) release() {
	if pc.buf != nil {
		*pc.buf = (*pc.buf)[:0]
		readBuffers.Put(pc.buf)
		pc.buf, pc.pending = nil, nil
	}
}

// answer waits for p's events and writes the response; it reports whether the connection
// stays open for another request.
func (pc *pollConn) answer(p *parkedPoll) bool {
	var res chat.GetEventsResult
	err := p.err
	if err == nil {
		res, err = pc.h.svc.GetEvents(context.Background(), p.actor, p.params)
	}
	return pc.respond(p, res, err)
}

// respond writes the response to p for GetEvents' answer res, err; it reports whether the
// connection stays open for another request.
func (pc *pollConn) respond(p *parkedPoll, res chat.GetEventsResult, err error) bool {
	bp, b := pc.response(p, res, err)
	return pc.keeps(p, pc.writeResponse(bp, b))
}

// keeps reports whether the connection stays open after the response to p was written with
// err: the client asked for it and the listener is not closing.
func (pc *pollConn) keeps(p *parkedPoll, err error) bool {
	return err == nil && p.keepAlive && !pc.pl.closing()
}

// response encodes the response to p (head and body, in a buffer of responseBuffers: bp)
// and reports it to the Observer.
func (pc *pollConn) response(p *parkedPoll, res chat.GetEventsResult, err error) (bp *[]byte, b []byte) {
	h := pc.h
	bp = responseBuffers.Get().(*[]byte)
	status := http.StatusOK
	if err == nil && p.header == nil {
		// The common case: a success to a request this connection read itself, written
		// without a Header map or an intermediate buffer.
		b, err = h.appendPollSuccess((*bp)[:0], res, p)
	}
	if b == nil {
		out := &bufferedResponse{header: p.header, status: http.StatusOK}
		if out.header == nil {
			out.header = http.Header{"Cache-Control": {noStore}}
			setRateLimitHeaders(out, p.limit)
		}
		if err != nil {
			req := (&http.Request{Method: http.MethodGet, URL: &url.URL{Path: pollPath}}).WithContext(context.Background())
			h.writeError(out, req, err)
		} else {
			writeSuccess(out, res, p.ignored)
		}
		status = out.status
		b = out.appendTo((*bp)[:0], !p.keepAlive)
	}
	if p.observe {
		h.observePoll(status, p.start)
	}
	return bp, b
}

// writeResponse writes b (a response, in bp) and puts the buffer back.
func (pc *pollConn) writeResponse(bp *[]byte, b []byte) error {
	refreshDeadline(&pc.writeDeadline, parkWriteTimeout, pc.conn.SetWriteDeadline)
	_, err := pc.conn.Write(b)
	putResponseBuffer(bp, b)
	return err
}

// putResponseBuffer puts a response's buffer back into responseBuffers (b: what it holds).
func putResponseBuffer(bp *[]byte, b []byte) {
	if cap(b) <= 64<<10 { // keep the pool's buffers small
		*bp = b[:0]
		responseBuffers.Put(bp)
	}
}

// appendPollSuccess appends to dst the whole response (head and body) of a successful GET
// /events read off the connection: the headers bufferedResponse.appendTo writes for the
// same request (Cache-Control, Content-Type, the rate limit's, then Connection, length and
// date), in the same order. nil: the body could not be encoded (the caller answers 500).
func (h *Handler) appendPollSuccess(dst []byte, res chat.GetEventsResult, p *parkedPoll) ([]byte, error) {
	bp := h.buffers.Get().(*[]byte)
	body, err := appendEventsSuccess((*bp)[:0], res, p.ignored)
	if err == nil {
		dst = append(dst, "HTTP/1.1 200 OK\r\nCache-Control: "+noStore+"\r\nContent-Type: application/json\r\n"...)
		if l := p.limit; l.Limit != 0 {
			dst = append(dst, "X-Ratelimit-Limit: "...)
			dst = strconv.AppendInt(dst, int64(l.Limit), 10)
			dst = append(dst, "\r\nX-Ratelimit-Remaining: "...)
			dst = strconv.AppendInt(dst, int64(l.Remaining), 10)
			dst = append(dst, "\r\nX-Ratelimit-Reset: "...)
			dst = strconv.AppendInt(dst, l.Reset.Unix(), 10)
			dst = append(dst, "\r\n"...)
		}
		dst = appendLengthAndDate(dst, len(body), !p.keepAlive)
		dst = append(dst, body...)
	} else {
		dst = nil
	}
	if cap(body) <= maxPooledBuffer {
		*bp = body[:0]
		h.buffers.Put(bp)
	}
	return dst, err
}

// refreshDeadline sets a deadline timeout from now, unless the one set (*at) is less than
// deadlineSlack older.
func refreshDeadline(at *time.Time, timeout time.Duration, set func(time.Time) error) {
	now := time.Now()
	if at.Sub(now) > timeout-deadlineSlack {
		return
	}
	*at = now.Add(timeout)
	if set(*at) != nil {
		*at = time.Time{}
	}
}

// observePoll reports a GET /events served by a parked connection as ServeHTTP reports the
// others.
func (h *Handler) observePoll(status int, start time.Time) {
	if h.log.Enabled(context.Background(), slog.LevelDebug) {
		h.log.Debug("request", "method", http.MethodGet, "path", pollPath, "status", status)
	}
	if h.opts.Observer != nil {
		h.opts.Observer.ObserveRequest(http.MethodGet, pollRoute, status, time.Since(start))
	}
}

// next reads the client's next request and returns it when it is a GET /events to serve
// here; nil when the connection went back to net/http or closed.
func (pc *pollConn) next() *parkedPoll {
	for {
		req, st := parsePollRequest(pc.pending)
		switch st {
		case parseOK:
			p, ok := pc.h.pollJob(req, pc)
			if !ok {
				pc.handBack()
				return nil
			}
			pc.consume(req.size)
			return p
		case parseOther:
			pc.handBack()
			return nil
		}
		if !pc.read() {
			pc.close()
			return nil
		}
	}
}

// read reads more of the client's next request into pending; false: the client closed the
// connection, was idle too long, or the listener is closing.
func (pc *pollConn) read() bool {
	if pc.buf == nil {
		pc.buf = readBuffers.Get().(*[]byte)
		*pc.buf = append((*pc.buf)[:0], pc.pending...)
	}
	refreshDeadline(&pc.readDeadline, parkIdleTimeout, pc.conn.SetReadDeadline)
	pc.reading.Store(true)
	if pc.pl.closing() {
		pc.reading.Store(false)
		return false
	}
	b := *pc.buf
	n, err := pc.conn.Read(b[len(b):cap(b)])
	pc.reading.Store(false)
	*pc.buf = b[:len(b)+n]
	pc.pending = *pc.buf
	return n > 0 || err == nil
}

// consume drops the first n bytes of pending (a request served); the buffer goes back to
// the pool once nothing is left in it.
func (pc *pollConn) consume(n int) {
	rest := pc.pending[n:]
	if len(rest) == 0 {
		pc.release()
		pc.pending = nil
		return
	}
	if pc.buf == nil {
		pc.pending = rest
		return
	}
	*pc.buf = (*pc.buf)[:copy(*pc.buf, rest)]
	pc.pending = *pc.buf
}

// handBack gives the connection, and the bytes read of its next request, to net/http.
func (pc *pollConn) handBack() {
	c := pc.conn
	if len(pc.pending) > 0 {
		c = &prefixedConn{Conn: c, r: io.MultiReader(bytes.NewReader(bytes.Clone(pc.pending)), c)}
	}
	pc.release()
	pc.pending = nil
	_ = c.SetDeadline(time.Time{})
	pc.pl.handBack(c)
}

// pollJob prepares a GET /events read off a parked connection as serve does: its parameters,
// its credentials, the queue's process and the caller's API budget. ok is false when net/http
// is to answer it instead (any refusal but the rate limit's): nothing was counted then.
func (h *Handler) pollJob(req pollRequest, pc *pollConn) (p *parkedPoll, ok bool) {
	if len(req.rawQuery) > h.opts.MaxQueryBytes {
		return nil, false
	}
	gp, ignored, ok := pc.pollParams(req.rawQuery)
	if !ok {
		return nil, false
	}
	email, key, ok := pc.credentials(req.authorization)
	if !ok {
		return nil, false
	}
	ctx := context.Background()
	actor, ok := h.svc.CachedAPIKey(email, key) // unchecked credentials go the slow path, which counts failures
	if !ok {
		return nil, false
	}
	if h.opts.Queues != nil {
		if local, _, _, err := h.opts.Queues.RouteQueue(ctx, gp.QueueID); err != nil || !local {
			return nil, false
		}
	}
	p = &pc.poll
	*p = parkedPoll{keepAlive: !req.close, actor: actor, params: gp, ignored: ignored, start: time.Now(), observe: true}
	p.limit, p.err = h.svc.CountAPIRequest(actor, pc.remote)
	return p, true
}

// pollParams decodes the parameters of a GET /events read off the connection as
// eventsParams does; ok is false when it has no queue_id or any error (net/http answers it).
func (pc *pollConn) pollParams(rawQuery string) (gp chat.GetEventsParams, ignored []string, ok bool) {
	if gp, ok := plainPollQuery(rawQuery, &pc.lastEventID); ok {
		return gp, nil, true
	}
	prm := pollParams.Get().(*params)
	defer func() {
		clear(prm.values)
		clear(prm.read)
		pollParams.Put(prm)
	}()
	if parseURLEncoded(rawQuery, prm.values) != nil || prm.checkText() != nil {
		return gp, nil, false
	}
	gp, err := eventsParams(prm)
	if err != nil || gp.QueueID == "" {
		return gp, nil, false
	}
	return gp, prm.ignored(), true
}

// plainPollQuery decodes the query every long-polling client sends, queue_id=ID and
// last_event_id=N in either order and nothing else, with nothing to unescape, as
// eventsParams does, without its maps; the id is stored in *last. ok is false for any other
// query (eventsParams decodes those). The caller has checked that the query is printable
// ASCII (requestTarget), hence valid UTF-8 without null bytes.
func plainPollQuery(q string, last *int64) (gp chat.GetEventsParams, ok bool) {
	var haveLast bool
	for q != "" {
		var pair string
		pair, q, _ = strings.Cut(q, "&")
		name, value, found := strings.Cut(pair, "=")
		if !found || value == "" || strings.ContainsAny(value, "%+") {
			return gp, false
		}
		switch {
		case name == "queue_id" && gp.QueueID == "":
			gp.QueueID = value
		case name == "last_event_id" && !haveLast && plainJSONInt(value):
			n, err := strconv.ParseInt(value, 10, 64)
			if err != nil {
				return gp, false
			}
			*last, haveLast = n, true
		default:
			return gp, false
		}
	}
	if gp.QueueID == "" || !haveLast {
		return gp, false
	}
	gp.LastEventID = last
	return gp, true
}

// plainJSONInt reports whether s is a JSON integer: an optional minus, then 0 or digits not
// starting with 0.
func plainJSONInt(s string) bool {
	s = strings.TrimPrefix(s, "-")
	if s == "" || (s[0] == '0' && len(s) > 1) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// pollParams are the params of the requests that parked connections read (their maps are
// cleared and reused).
var pollParams = sync.Pool{New: func() any {
	return &params{values: make(map[string]string, 2), read: make(map[string]struct{}, 2)}
}}
