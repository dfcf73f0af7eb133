package httpapi

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	chat "github.com/teamchat/chat"
)

// Parked long-polls. A GET /events that waits holds, in net/http, two goroutines (the
// handler's, with the stack its request grew, and the connection's background reader) and
// the connection's read and write buffers: about 25 KB for a client that only waits. With a
// LongPollListener (Options.LongPolls) the handler instead takes the connection over
// (hijacks it), drops net/http's buffers and request, and waits on one small goroutine; once
// the events (or the heartbeat) arrive it writes the response itself, with one write, and
// reads the client's next request: another GET /events it serves the same way
// (events_conn.go), anything else goes back to the HTTP server through the listener, which
// serves it as on a new connection (with pooled buffers). A client sees an ordinary
// keep-alive connection; a client that long-polls in a loop costs one read and one write
// per event, without net/http's request parsing, routing and response machinery.

// parkWriteTimeout bounds the write of a parked long-poll's response.
const parkWriteTimeout = 30 * time.Second

// parkIdleTimeout bounds how long a parked connection waits for the client's next request
// (as chatserver's http.Server.IdleTimeout does for the others).
const parkIdleTimeout = 2 * time.Minute

// LongPollListener wraps the HTTP server's listener: Accept returns the connections of the
// wrapped listener and those that parked long-polls hand back after their response. Give it
// to the http.Server (Serve) and to Options.LongPolls. Its Close (the server's Close or
// Shutdown) also closes the parked connections that wait for their client's next request;
// the others close once their response is written.
type LongPollListener struct {
	net.Listener
	accepted  chan accepted
	back      chan net.Conn
	done      chan struct{}
	closeOnce sync.Once
	closeErr  error

	mu     sync.Mutex
	parked map[*pollConn]struct{}

	// deliveries writes the responses of the long-polls that parked connections left waiting
	// on their queues (events_deliver.go).
	deliveries deliverer
}

type accepted struct {
	c   net.Conn
	err error
}

// NewLongPollListener wraps l.
func NewLongPollListener(l net.Listener) *LongPollListener {
	pl := &LongPollListener{
		Listener: l, accepted: make(chan accepted), back: make(chan net.Conn, 256), done: make(chan struct{}),
		parked: map[*pollConn]struct{}{},
	}
	go pl.acceptLoop()
	return pl
}

func (pl *LongPollListener) acceptLoop() {
	for {
		c, err := pl.Listener.Accept()
		select {
		case pl.accepted <- accepted{c, err}:
		case <-pl.done:
			if c != nil {
				c.Close()
			}
			return
		}
		if errors.Is(err, net.ErrClosed) {
			return
		}
	}
}

// Accept returns the next new or handed-back connection.
func (pl *LongPollListener) Accept() (net.Conn, error) {
	select {
	case c := <-pl.back:
		return c, nil
	case a := <-pl.accepted:
		return a.c, a.err
	case <-pl.done:
		return nil, net.ErrClosed
	}
}

// Close closes the wrapped listener and the connections waiting to be handed back; those
// handed back later are closed.
func (pl *LongPollListener) Close() error {
	pl.closeOnce.Do(func() {
		close(pl.done)
		pl.closeErr = pl.Listener.Close()
		pl.mu.Lock()
		for pc := range pl.parked {
			pc.wake()
		}
		pl.mu.Unlock()
		for {
			select {
			case c := <-pl.back:
				c.Close()
			default:
				return
			}
		}
	})
	return pl.closeErr
}

// closing reports whether Close was called.
func (pl *LongPollListener) closing() bool {
	select {
	case <-pl.done:
		return true
	default:
		return false
	}
}

// track and untrack keep the set of parked connections (for Close).
func (pl *LongPollListener) track(pc *pollConn) {
	pl.mu.Lock()
	pl.parked[pc] = struct{}{}
	pl.mu.Unlock()
}

func (pl *LongPollListener) untrack(pc *pollConn) {
	pl.mu.Lock()
	delete(pl.parked, pc)
	pl.mu.Unlock()
}

// handBack gives a connection to the HTTP server again (or closes it once the listener is
// closed).
func (pl *LongPollListener) handBack(c net.Conn) {
	select {
	case <-pl.done:
		c.Close()
	case pl.back <- c:
	}
}

// parkedPoll is a GET /events that a parked connection answers: what its response needs, and
// nothing of net/http's request.
type parkedPoll struct {
	keepAlive bool
	// header holds the response's headers when net/http parked the request; nil: the
	// connection read it, and its headers are Cache-Control and limit's.
	header  http.Header
	limit   chat.RateLimitStatus
	actor   chat.Actor
	params  chat.GetEventsParams
	ignored []string
	// err, when set, is the answer (the request was refused before waiting: rate limit).
	err error
	// start is when the request arrived; observe: report it to the Observer when answered
	// (net/http's path reports the request that parked).
	start   time.Time
	observe bool
}

// park takes a blocking GET /events over from net/http when the Handler has a
// LongPollListener, and reports whether it did (the response is then written by the parked
// connection, events_conn.go, which also serves the client's next GET /events itself). It
// refuses requests it cannot take over (HEAD, not HTTP/1, TLS, no queue, dont_block, bad
// parameters: the ordinary path answers those).
func (h *Handler) park(w http.ResponseWriter, r *http.Request, req *request) bool {
	if h.opts.LongPolls == nil || r.Method != http.MethodGet || r.ProtoMajor != 1 || r.TLS != nil {
		return false
	}
	gp, err := eventsParams(req.params)
	if err != nil || gp.QueueID == "" || gp.DontBlock {
		return false
	}
	start := time.Now()
	if h.opts.ParkAfter > 0 && h.waitBeforeParking(w, r, req, gp) {
		return true
	}
	conn, brw, err := http.NewResponseController(w).Hijack()
	if err != nil {
		return false
	}
	gp.Waited = time.Since(start)
	p := &parkedPoll{
		keepAlive: r.ProtoAtLeast(1, 1) && !r.Close, header: w.Header().Clone(),
		actor: req.actor, params: gp, ignored: req.params.ignored(),
	}
	pc := &pollConn{h: h, pl: h.opts.LongPolls, conn: conn, remote: clientAddress(r)}
	if n := brw.Reader.Buffered(); n > 0 { // a pipelined request: keep its bytes
		pending, _ := brw.Reader.Peek(n)
		pc.pending = bytes.Clone(pending)
	}
	go pc.run(p)
	return true
}

// waitBeforeParking waits ParkAfter in net/http, and reports whether the request was answered
// meanwhile (events, a heartbeat, an error, or the client gone); false: it is to park.
func (h *Handler) waitBeforeParking(w http.ResponseWriter, r *http.Request, req *request, gp chat.GetEventsParams) bool {
	ctx, cancel := context.WithTimeout(r.Context(), h.opts.ParkAfter)
	res, err := h.svc.GetEvents(ctx, req.actor, gp)
	expired := ctx.Err() != nil
	cancel()
	switch {
	case err == nil:
		writeSuccess(w, res, req.params.ignored())
	case !expired || r.Context().Err() != nil:
		h.writeError(w, r, err)
	default:
		return false // still waiting: park (the events that came meanwhile stay queued)
	}
	return true
}

// prefixedConn is a connection whose first bytes were already read into a buffer.
type prefixedConn struct {
	net.Conn
	r io.Reader
}

func (c *prefixedConn) Read(b []byte) (int, error) { return c.r.Read(b) }

// bufferedResponse is a response held in memory, written to a connection as HTTP/1.1.
type bufferedResponse struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (b *bufferedResponse) Header() http.Header         { return b.header }
func (b *bufferedResponse) WriteHeader(status int)      { b.status = status }
func (b *bufferedResponse) Write(p []byte) (int, error) { return b.body.Write(p) }

// appendTo appends the status line, the headers and the body to dst; with close, the
// headers say Connection: close.
func (b *bufferedResponse) appendTo(dst []byte, close bool) []byte {
	dst = append(dst, "HTTP/1.1 "...)
	dst = strconv.AppendInt(dst, int64(b.status), 10)
	dst = append(dst, ' ')
	dst = append(dst, http.StatusText(b.status)...)
	dst = append(dst, "\r\n"...)
	for _, h := range []string{"Connection", "Content-Length", "Date"} {
		b.header.Del(h) // written below
	}
	buf := bytes.NewBuffer(dst)
	_ = b.header.Write(buf)
	dst = appendLengthAndDate(buf.Bytes(), b.body.Len(), close)
	return append(dst, b.body.Bytes()...)
}

// appendLengthAndDate ends a response's head: Connection: close (with close), the
// Content-Length, the Date and the blank line.
func appendLengthAndDate(dst []byte, length int, close bool) []byte {
	if close {
		dst = append(dst, "Connection: close\r\n"...)
	}
	dst = append(dst, "Content-Length: "...)
	dst = strconv.AppendInt(dst, int64(length), 10)
	dst = append(dst, "\r\nDate: "...)
	dst = time.Now().UTC().AppendFormat(dst, http.TimeFormat)
	return append(dst, "\r\n\r\n"...)
}
