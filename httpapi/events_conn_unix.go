//go:build unix

package httpapi

import (
	"errors"
	"os"
	"syscall"
	"time"

	chat "github.com/teamchat/chat"
)

// A parked connection's loop over its raw socket. Reading the client's next request with
// conn.Read after each response costs a read that finds nothing (the client has not had
// the response yet) before the goroutine waits in the poller: net's Read resets the
// socket's readiness, then has to try the system call first. A syscall.RawConn's Read
// resets it once, when it starts; its callback is called again each time the socket
// becomes readable after that, and every edge since the reset is remembered. So the whole
// connection runs in one RawConn.Read: the callback reads what arrived, serves the
// complete GET /events requests in it (waiting for their events and writing the
// responses), and returns false to wait for the next one, without the read that would
// find nothing. Bytes that arrive at any point after the reset (a pipelined request, the
// next request racing the response) leave the socket readable, so the wait after them
// returns at once: no wake-up is lost.

// rawOutcome is what the raw loop ends with.
type rawOutcome int

const (
	// rawWait: keep waiting for the client's next request (the loop goes on).
	rawWait rawOutcome = iota
	// rawClose: close the connection (the client closed it, it failed, was idle too long,
	// asked for Connection: close, or the listener is closing).
	rawClose
	// rawHandBack: the next request is not one to serve here: net/http takes it.
	rawHandBack
)

// serveRaw serves the client's requests from what pending holds and then from the socket,
// until the connection closes or goes back to net/http. ok is false, and nothing done, when
// the connection has no syscall.RawConn (not a TCP connection).
func (pc *pollConn) serveRaw() (ok bool) {
	sc, ok := pc.conn.(syscall.Conn)
	if !ok {
		return false
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return false
	}
	pc.rc = rc
	out := pc.servePending()
	for out == rawWait {
		if out = pc.waitOrClose(); out != rawWait {
			break
		}
		err := rc.Read(func(fd uintptr) bool {
			pc.reading.Store(false)
			out = pc.readAndServe(int(fd))
			if out == rawWait {
				out = pc.waitOrClose()
			}
			return out != rawWait
		})
		if err != nil { // a deadline (idle, the listener's Close, a response that ended the connection) or a closed socket
			out = pc.afterReadError(err)
		}
	}
	pc.reading.Store(false)
	if pc.settle() && out == rawHandBack {
		pc.handBack()
	} else {
		pc.close()
	}
	return true
}

// afterReadError is what follows the socket's wait ending with err: rawWait (wait again) when
// the idle deadline passed while a response was outstanding (the idle time counts from the
// response), rawClose otherwise.
func (pc *pollConn) afterReadError(err error) rawOutcome {
	if !pc.answering() || !errors.Is(err, os.ErrDeadlineExceeded) {
		return rawClose
	}
	if !pc.settle() || pc.pl.closing() {
		return rawClose
	}
	pc.readDeadline = time.Time{} // passed: set it again
	return rawWait
}

// waitOrClose prepares to wait for the client's next request: rawClose when the listener is
// closing (its Close wakes the connections that wait from the moment reading is set) or the
// last response ended the connection.
func (pc *pollConn) waitOrClose() rawOutcome {
	refreshDeadline(&pc.readDeadline, parkIdleTimeout, pc.conn.SetReadDeadline)
	pc.reading.Store(true)
	if pc.pl.closing() || pc.ended() {
		return rawClose
	}
	return rawWait
}

// readAndServe reads what the socket holds into pending and serves the complete requests in
// it (once the outstanding response, if any, is written). A read that fills the buffer may
// leave bytes in the socket, and no readiness edge will come for bytes that have already
// arrived: so it reads again, once the requests read are served, until a read leaves room
// (or finds nothing).
func (pc *pollConn) readAndServe(fd int) rawOutcome {
	for {
		if pc.buf == nil {
			pc.buf = readBuffers.Get().(*[]byte)
			*pc.buf = append((*pc.buf)[:0], pc.pending...)
		}
		b := *pc.buf
		room := b[len(b):cap(b)]
		n, err := readRetry(fd, room)
		switch {
		case errors.Is(err, syscall.EAGAIN):
			return rawWait // nothing yet (a readiness already consumed)
		case err != nil || n <= 0:
			return rawClose // an error, or the client closed its side (n == 0)
		}
		*pc.buf = b[:len(b)+n]
		pc.pending = *pc.buf
		if !pc.settle() {
			return rawClose
		}
		if out := pc.servePending(); out != rawWait || n < len(room) {
			return out
		}
	}
}

// readRetry is syscall.Read, retried when a signal interrupts it.
func readRetry(fd int, b []byte) (int, error) {
	for {
		n, err := sockRead(fd, b)
		if !errors.Is(err, syscall.EINTR) {
			return n, err
		}
	}
}

// tryWrite writes what it can of b without waiting: n < len(b) with a nil error when the
// socket's buffer is full.
func (pc *pollConn) tryWrite(b []byte) (n int, err error) {
	w := &pc.out.write
	if w.fn == nil {
		w.fn = w.attempt // one function value per connection (a closure would be one per call)
	}
	w.b, w.n, w.err = b, 0, nil
	if err := pc.rc.Write(w.fn); err != nil {
		w.err = err
	}
	n, err = w.n, w.err
	w.b, w.err = nil, nil
	return n, err
}

// rawWrite is tryWrite's state: its RawConn.Write callback writes b, counting n.
type rawWrite struct {
	fn  func(fd uintptr) bool
	b   []byte
	n   int
	err error
}

// attempt writes what it can of b[n:] to fd without waiting.
func (w *rawWrite) attempt(fd uintptr) bool {
	for w.n < len(w.b) {
		m, err := sockWrite(int(fd), w.b[w.n:])
		switch {
		case errors.Is(err, syscall.EINTR):
			continue
		case errors.Is(err, syscall.EAGAIN):
			return true
		case err != nil:
			w.err = err
			return true
		}
		w.n += m
	}
	return true
}

// servePending serves the complete requests that pending holds: rawWait once it holds none
// (or only the start of one), the last of them possibly a long-poll waiting on its queue
// (the deliverer writes its response).
func (pc *pollConn) servePending() rawOutcome {
	for {
		req, st := parsePollRequest(pc.pending)
		switch st {
		case parseMore:
			return rawWait
		case parseOther:
			return rawHandBack
		}
		p, ok := pc.h.pollJob(req, pc)
		if !ok {
			return rawHandBack
		}
		pc.consume(req.size)
		res, err := chat.GetEventsResult{}, p.err
		if err == nil {
			var waiting bool
			if res, waiting, err = pc.startPoll(p); waiting {
				if len(pc.pending) == 0 {
					return rawWait
				}
				// A request pipelined behind it: serve it once the response is written
				// (nothing more may come to wake the socket's wait).
				if !pc.settle() {
					return rawClose
				}
				continue
			}
		}
		if !pc.respond(p, res, err) {
			return rawClose
		}
	}
}
