package httpapi

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
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
// the events (or the heartbeat) arrive it writes the response itself and hands the connection
// back to the HTTP server through the listener, which serves the client's next request on it
// as on a new connection (with pooled buffers). A client sees an ordinary keep-alive
// connection.

// parkWriteTimeout bounds the write of a parked long-poll's response.
const parkWriteTimeout = 30 * time.Second

// LongPollListener wraps the HTTP server's listener: Accept returns the connections of the
// wrapped listener and those that parked long-polls hand back after their response. Give it
// to the http.Server (Serve) and to Options.LongPolls.
type LongPollListener struct {
	net.Listener
	accepted  chan accepted
	back      chan net.Conn
	done      chan struct{}
	closeOnce sync.Once
	closeErr  error
}

type accepted struct {
	c   net.Conn
	err error
}

// NewLongPollListener wraps l.
func NewLongPollListener(l net.Listener) *LongPollListener {
	pl := &LongPollListener{Listener: l, accepted: make(chan accepted), back: make(chan net.Conn, 256), done: make(chan struct{})}
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

// handBack gives a connection to the HTTP server again (or closes it once the listener is
// closed).
func (pl *LongPollListener) handBack(c net.Conn) {
	select {
	case <-pl.done:
		c.Close()
	case pl.back <- c:
	}
}

// parkedPoll is what a parked long-poll keeps: the connection, what its response needs, and
// nothing of net/http's request.
type parkedPoll struct {
	conn      net.Conn
	keepAlive bool
	header    http.Header
	method    string
	path      string
	actor     chat.Actor
	params    chat.GetEventsParams
	ignored   []string
}

// park takes a blocking GET /events over from net/http when the Handler has a
// LongPollListener, and reports whether it did (the response is then written by the parked
// long-poll). It refuses requests it cannot take over (HEAD, not HTTP/1, no queue, dont_block,
// bad parameters: the ordinary path answers those).
func (h *Handler) park(w http.ResponseWriter, r *http.Request, req *request) bool {
	if h.opts.LongPolls == nil || r.Method != http.MethodGet || r.ProtoMajor != 1 {
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
		conn: conn, keepAlive: r.ProtoAtLeast(1, 1) && !r.Close, header: w.Header().Clone(),
		method: r.Method, path: r.URL.Path, actor: req.actor, params: gp, ignored: req.params.ignored(),
	}
	if n := brw.Reader.Buffered(); n > 0 { // a pipelined request: keep its bytes
		pending, _ := brw.Reader.Peek(n)
		p.conn = &prefixedConn{Conn: conn, r: io.MultiReader(bytes.NewReader(bytes.Clone(pending)), conn)}
	}
	go h.waitParked(p)
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

// waitParked waits for the queue's events and answers the parked long-poll.
func (h *Handler) waitParked(p *parkedPoll) {
	res, err := h.svc.GetEvents(context.Background(), p.actor, p.params)
	out := &bufferedResponse{header: p.header, status: http.StatusOK}
	if err != nil {
		req := (&http.Request{Method: p.method, URL: &url.URL{Path: p.path}}).WithContext(context.Background())
		h.writeError(out, req, err)
	} else {
		writeSuccess(out, res, p.ignored)
	}
	if !p.keepAlive {
		out.header.Set("Connection", "close")
	}
	_ = p.conn.SetWriteDeadline(time.Now().Add(parkWriteTimeout))
	if err := out.writeTo(p.conn); err != nil || !p.keepAlive {
		p.conn.Close()
		return
	}
	_ = p.conn.SetDeadline(time.Time{})
	h.opts.LongPolls.handBack(p.conn)
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

// writeTo writes the status line, the headers and the body.
func (b *bufferedResponse) writeTo(c net.Conn) error {
	w := bufio.NewWriterSize(c, 512+b.body.Len())
	_, _ = w.WriteString("HTTP/1.1 " + strconv.Itoa(b.status) + " " + http.StatusText(b.status) + "\r\n")
	b.header.Set("Content-Length", strconv.Itoa(b.body.Len()))
	b.header.Set("Date", time.Now().UTC().Format(http.TimeFormat))
	_ = b.header.Write(w)
	_, _ = w.WriteString("\r\n")
	_, _ = w.Write(b.body.Bytes())
	return w.Flush()
}
