package queue

import (
	"slices"
	"time"
)

// Heartbeats. A long-poll that waits HeartbeatWait without an event gets a heartbeat event.
// Rather than a timer per wait (set and stopped by every long-poll: 1,000 of each per message
// delivered to 1,000 clients), the Manager keeps its waiting long-polls in one list ordered by
// their heartbeat's due time, under one timer set for the earliest. A wait is added at the
// list's end (they mostly come in due order: each is due HeartbeatWait after it began) and
// removed from wherever it is when it ends, both in constant time under Manager.mu. The timer
// is not moved when the first wait leaves: it fires for nothing, and is set again for the
// list's new first.

// heartbeats is the list of waiting long-polls by due time. Manager.mu guards it.
type heartbeats struct {
	head, tail *waiter
	timer      *time.Timer
	// armed is when the timer fires (zero: it is stopped).
	armed time.Time
}

// add puts w in due order (searching from the end) and sets the timer when w is first.
func (h *heartbeats) add(w *waiter) {
	at := h.tail
	for at != nil && at.due.After(w.due) {
		at = at.prev
	}
	// w goes after at (first when at is nil).
	w.prev = at
	if at == nil {
		w.next, h.head = h.head, w
	} else {
		w.next, at.next = at.next, w
	}
	if w.next == nil {
		h.tail = w
	} else {
		w.next.prev = w
	}
	if h.head == w && (h.armed.IsZero() || w.due.Before(h.armed)) {
		h.arm(w.due)
	}
}

// remove takes w out of the list (it may not be in it: nothing happens then).
func (h *heartbeats) remove(w *waiter) {
	if w.prev == nil && h.head != w {
		return
	}
	if w.prev == nil {
		h.head = w.next
	} else {
		w.prev.next = w.next
	}
	if w.next == nil {
		h.tail = w.prev
	} else {
		w.next.prev = w.prev
	}
	w.prev, w.next = nil, nil
}

// arm sets the timer to fire at due.
func (h *heartbeats) arm(due time.Time) {
	h.armed = due
	h.timer.Reset(time.Until(due))
}

// heartbeat runs when the timer fires: every long-poll due gets its heartbeat (handed over
// as push hands events), and the timer is set for the next one due.
func (m *Manager) heartbeat() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.beats.armed = time.Time{}
	if m.closed {
		return
	}
	now := time.Now()
	for w := m.beats.head; w != nil && !w.due.After(now); w = m.beats.head {
		m.beats.remove(w)
		q := w.q
		if len(q.events) == 0 {
			m.push(q, HeartbeatType, nil) // hands it to w, q's waiter
			continue
		}
		// Not reached (a queue with events has no waiter); hand them over all the same.
		q.waiter = nil
		q.waiters--
		q.lastActive = m.opts.Now()
		w.out = slices.Clone(q.events)
		w.handed = true
		w.fire()
	}
	if first := m.beats.head; first != nil {
		m.beats.arm(first.due)
	}
}
