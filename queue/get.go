package queue

import (
	"context"
	"slices"
	"time"
)

// Get returns the form kept under key.
func (f *Forms) Get(key any) (any, bool) {
	v, ok := f.m[key]
	return v, ok
}

// Get acknowledges the events up to p.LastEventID and returns the rest. With nothing pending and
// DontBlock false it waits for an event, or appends a heartbeat after the heartbeat wait.
func (m *Manager) Get(ctx context.Context, p GetParams) ([]Event, error) {
	out, w, err := m.begin(p, nil)
	if w == nil {
		return out, err
	}
	if done := ctx.Done(); done == nil {
		<-w.wake // a plain receive costs less than a select
	} else {
		select {
		case <-w.wake:
		case <-done:
			return m.cancelWait(ctx, w.q, w)
		}
	}
	return m.finish(w)
}

// begin is Get up to its wait: the events and error to return at once, or (w non-nil) the
// long-poll attached to its queue. Its wait ends with ready called when ready is set (under
// m.mu), with w.wake closed otherwise.
func (m *Manager) begin(p GetParams, ready func()) (out []Event, w *waiter, err error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	q, err := m.lookup(p.QueueID, p.Owner)
	if err != nil {
		return nil, nil, err
	}
	if err := q.acknowledge(p.LastEventID); err != nil {
		return nil, nil, err
	}
	if !p.DontBlock {
		// A blocking fetch counts as activity; as in Zulip, a dont_block fetch does not.
		q.lastActive = m.opts.Now()
	}
	if len(q.events) > 0 || p.DontBlock {
		return slices.Clone(q.events), nil, nil
	}
	q.waiters++
	if old := q.waiter; old != nil {
		q.waiter = nil
		m.beats.remove(old)
		old.fire() // superseded
	}
	w = &waiter{ready: ready, q: q, due: time.Now().Add(max(m.opts.HeartbeatWait-p.Waited, 0))}
	if ready == nil {
		w.wake = make(chan struct{})
	}
	q.waiter = w
	m.beats.add(w)
	return nil, w, nil
}

// finish returns what a wait ended with (begin's w, once woken).
func (m *Manager) finish(w *waiter) ([]Event, error) {
	if w.handed { // written before the wait ended (events, or the heartbeat)
		return w.out, nil
	}
	// Superseded by a newer long-poll, the queue is gone or the Manager closed.
	m.mu.Lock()
	defer m.mu.Unlock()
	q := w.q
	q.waiters--
	q.lastActive = m.opts.Now()
	if m.closed {
		return nil, ErrClosed
	}
	if q.gone {
		return nil, ErrBadQueueID
	}
	return slices.Clone(q.events), nil
}

// cancelWait ends a wait whose context ended: the long-poll leaves q, unless events were
// handed to it meanwhile (they stay queued for the next Get).
func (m *Manager) cancelWait(ctx context.Context, q *eventQueue, w *waiter) ([]Event, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if w.handed {
		return nil, ctx.Err()
	}
	q.waiters--
	q.lastActive = m.opts.Now()
	if q.waiter == w {
		q.waiter = nil
		m.beats.remove(w)
	}
	return nil, ctx.Err()
}

// waiter is one waiting long-poll. push sets out and handed, under Manager.mu, before
// ending the wait (fire: for events and for the heartbeat); a superseding Get, discard and
// Close end it without them. Whoever detaches a waiter from its queue also takes it out of
// Manager.beats.
type waiter struct {
	// The wait ends with ready called (GetAsync's) or, without it, wake closed (Get's).
	ready  func()
	wake   chan struct{}
	out    []Event
	handed bool
	// q is the queue waited on; due when its heartbeat is; prev and next its neighbours in
	// Manager.beats.
	q          *eventQueue
	due        time.Time
	prev, next *waiter
}

// fire ends w's wait. m.mu must be held.
func (w *waiter) fire() {
	if w.ready != nil {
		w.ready()
		return
	}
	close(w.wake)
}

// lookup finds owner's queue. m.mu must be held.
func (m *Manager) lookup(id string, owner int64) (*eventQueue, error) {
	if m.closed {
		return nil, ErrClosed
	}
	q, ok := m.queues[id]
	if !ok || q.Owner != owner {
		return nil, ErrBadQueueID
	}
	return q, nil
}

// acknowledge drops the events up to last, as Zulip's prune does.
func (q *eventQueue) acknowledge(last int64) error {
	if last < q.newestPruned {
		return &PrunedError{NewestPruned: q.newestPruned}
	}
	n := 0
	for n < len(q.events) && q.events[n].ID <= last {
		n++
	}
	if n > 0 {
		q.newestPruned = q.events[n-1].ID
		q.events = slices.Delete(q.events, 0, n)
	}
	if last != -1 && q.newestPruned != last {
		return &NotInQueueError{LastEventID: last}
	}
	return nil
}
