package queue

// Waits without a goroutine. A long-poll served by a parked connection need not block a
// goroutine on its queue: GetAsync registers the wait as Get does and returns at once, the
// Manager calls the caller's ready function when the wait ends, and Result then returns what
// Get would have. One publication to many queues thus hands each ready long-poll to its
// caller (which may batch them) instead of waking a goroutine per long-poll.

// Wait is a long-poll registered by GetAsync; the zero Wait is none.
type Wait struct{ w *waiter }

// Waiting reports whether GetAsync registered a wait (rather than answering at once).
func (w Wait) Waiting() bool { return w.w != nil }

// GetAsync is Get without blocking: when Get would return at once, it returns the same (and
// a zero Wait); when Get would wait, it attaches the long-poll to its queue as Get does
// (superseding the previous one) and returns its Wait. ready is called once the wait ends
// (events, the heartbeat, a newer long-poll, the queue deleted, the Manager closed), under
// the Manager's lock: it must not block or call the Manager. Call Result after it.
func (m *Manager) GetAsync(p GetParams, ready func()) ([]Event, Wait, error) {
	out, w, err := m.begin(p, ready)
	return out, Wait{w}, err
}

// Result returns what the Get of a wait that ended returns: the events handed to it, or, when
// it was superseded, what its queue holds; ErrBadQueueID when the queue is gone, ErrClosed
// when the Manager closed. Call it once per Wait, after its ready.
func (m *Manager) Result(w Wait) ([]Event, error) {
	return m.finish(w.w)
}
