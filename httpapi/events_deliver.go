package httpapi

import (
	"context"
	"sync"
	"time"

	chat "github.com/teamchat/chat"
)

// Responses written by the publication's side. A GET /events that a parked connection reads
// itself (events_conn_unix.go) does not block the connection's goroutine on its queue: the
// goroutine registers the long-poll (Service.GetEventsAsync) and goes back to waiting for
// its client's next bytes in the poller. When the wait ends (an event, the heartbeat, a newer
// long-poll, the queue deleted, the Service closing) the queue calls the connection's ready,
// which hands it to the listener's deliverer; the deliverer's goroutine encodes and writes
// the responses of every connection readied, one after another. So a message delivered to
// 1,000 long-polls wakes one goroutine, not 1,000, and each connection's goroutine wakes once
// per delivery (for the client's next request) instead of twice.
//
// Ordering. The connection's goroutine serves nothing while a response is outstanding: bytes
// that arrive meanwhile (a pipelined request, the client closing) wait, and so does closing
// the connection, until the deliverer has written the response (settle). The deliverer never
// closes the connection: when the response ends it (Connection: close, a failed write, the
// listener closing) it moves the read deadline into the past, which wakes the goroutine to
// close it. A write that cannot complete at once (the client's buffer is full) goes on in a
// goroutine of its own, so one slow client never holds the others' responses.

// outstanding is a connection's response that a deliverer writes; mu guards it.
type outstanding struct {
	mu sync.Mutex
	// waiting: a long-poll waits on its queue, or its response is being written.
	waiting bool
	// ended: the last response ended the connection.
	ended bool
	// settled, when set, is closed once the response is written (made by the connection's
	// goroutine when it has to wait for that).
	settled chan struct{}
	wait    chat.EventsWait
	// ready is the connection's ready method (one function value per connection).
	ready func()
	// write is the deliverer's write to the socket (events_conn_unix.go).
	write rawWrite
}

// deliverer writes the responses of the long-polls whose waits ended, on one goroutine
// started when the first is handed over and ending once none is left.
type deliverer struct {
	mu      sync.Mutex
	ready   []*pollConn
	running bool
}

// add hands pc's long-poll over (called under the queues' lock: it only appends).
func (d *deliverer) add(pc *pollConn) {
	d.mu.Lock()
	d.ready = append(d.ready, pc)
	start := !d.running
	d.running = true
	d.mu.Unlock()
	if start {
		go d.run()
	}
}

// run writes the responses handed over until none is left.
func (d *deliverer) run() {
	var batch []*pollConn
	for {
		d.mu.Lock()
		if len(d.ready) == 0 {
			d.running = false
			d.mu.Unlock()
			return
		}
		batch, d.ready = d.ready, batch[:0]
		d.mu.Unlock()
		for i, pc := range batch {
			pc.deliver()
			batch[i] = nil
		}
	}
}

// startPoll starts p's long-poll without blocking: waiting reports that it waits on its queue
// (the deliverer writes its response); otherwise res, err is GetEvents' answer.
func (pc *pollConn) startPoll(p *parkedPoll) (res chat.GetEventsResult, waiting bool, err error) {
	o := &pc.out
	if o.ready == nil {
		o.ready = pc.ready
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	res, w, err := pc.h.svc.GetEventsAsync(context.Background(), p.actor, p.params, o.ready)
	if w.Waiting() {
		o.waiting, o.wait = true, w
	}
	return res, w.Waiting(), err
}

// ready hands the connection to the deliverer (its long-poll's wait ended).
func (pc *pollConn) ready() { pc.pl.deliveries.add(pc) }

// deliver writes the response of the connection's long-poll, whose wait ended.
func (pc *pollConn) deliver() {
	o := &pc.out
	o.mu.Lock() // the long-poll's goroutine may still be in startPoll
	w := o.wait
	o.wait = chat.EventsWait{}
	o.mu.Unlock()
	p := &pc.poll
	res, err := pc.h.svc.EventsResult(w, p.params.QueueID)
	bp, b := pc.response(p, res, err)
	// The write does not wait, but the socket refuses it once the deadline that earlier
	// writes set has passed.
	refreshDeadline(&pc.writeDeadline, parkWriteTimeout, pc.conn.SetWriteDeadline)
	n, err := pc.tryWrite(b)
	if n < len(b) && err == nil { // the client's buffer is full: finish on another goroutine
		go func() {
			_, err := pc.conn.Write(b[n:])
			putResponseBuffer(bp, b)
			pc.written(pc.keeps(p, err))
		}()
		return
	}
	putResponseBuffer(bp, b)
	pc.written(pc.keeps(p, err))
}

// written ends the outstanding response; without keep the connection is to close, and its
// goroutine is woken to close it.
func (pc *pollConn) written(keep bool) {
	o := &pc.out
	o.mu.Lock()
	o.waiting, o.ended = false, !keep
	settled := o.settled
	o.settled = nil
	o.mu.Unlock()
	if settled != nil {
		close(settled)
	}
	if !keep {
		_ = pc.conn.SetReadDeadline(time.Unix(1, 0))
	}
}

// settle waits until no response is outstanding; false: the last one ended the connection.
func (pc *pollConn) settle() bool {
	o := &pc.out
	o.mu.Lock()
	if o.waiting {
		if o.settled == nil {
			o.settled = make(chan struct{})
		}
		settled := o.settled
		o.mu.Unlock()
		<-settled
		o.mu.Lock()
	}
	ended := o.ended
	o.mu.Unlock()
	return !ended
}

// ended reports whether the last response ended the connection.
func (pc *pollConn) ended() bool {
	o := &pc.out
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.ended
}

// answering reports whether a response is outstanding.
func (pc *pollConn) answering() bool {
	o := &pc.out
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.waiting
}
