//go:build unix

package httpapi

import (
	"errors"
	"syscall"
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
	out := pc.servePending()
	if out == rawWait {
		out = pc.waitOrClose()
	}
	if out == rawWait {
		err = rc.Read(func(fd uintptr) bool {
			pc.reading.Store(false)
			out = pc.readAndServe(int(fd))
			if out == rawWait {
				out = pc.waitOrClose()
			}
			return out != rawWait
		})
		if err != nil { // a deadline (idle, or the listener's Close) or a closed socket
			out = rawClose
		}
	}
	pc.reading.Store(false)
	if out == rawHandBack {
		pc.handBack()
	} else {
		pc.close()
	}
	return true
}

// waitOrClose prepares to wait for the client's next request: rawClose when the listener is
// closing (its Close wakes the connections that wait from the moment reading is set).
func (pc *pollConn) waitOrClose() rawOutcome {
	refreshDeadline(&pc.readDeadline, parkIdleTimeout, pc.conn.SetReadDeadline)
	pc.reading.Store(true)
	if pc.pl.closing() {
		return rawClose
	}
	return rawWait
}

// readAndServe reads what the socket holds into pending and serves the complete requests in
// it.
func (pc *pollConn) readAndServe(fd int) rawOutcome {
	if pc.buf == nil {
		pc.buf = readBuffers.Get().(*[]byte)
		*pc.buf = append((*pc.buf)[:0], pc.pending...)
	}
	b := *pc.buf
	n, err := readRetry(fd, b[len(b):cap(b)])
	switch {
	case errors.Is(err, syscall.EAGAIN):
		return rawWait // nothing yet (a readiness already consumed)
	case err != nil || n <= 0:
		return rawClose // an error, or the client closed its side (n == 0)
	}
	*pc.buf = b[:len(b)+n]
	pc.pending = *pc.buf
	return pc.servePending()
}

// readRetry is syscall.Read, retried when a signal interrupts it.
func readRetry(fd int, b []byte) (int, error) {
	for {
		n, err := syscall.Read(fd, b)
		if !errors.Is(err, syscall.EINTR) {
			return n, err
		}
	}
}

// servePending serves the complete requests that pending holds: rawWait once it holds none
// (or only the start of one).
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
		if !pc.answer(p) {
			return rawClose
		}
	}
}
