package queue

import (
	"slices"
	"time"
)

// Saved is the whole state of one queue, for persisting queues across a restart. Payloads and
// Data stay opaque: the caller serialises them.
type Saved struct {
	ID           string
	Owner        int64
	EventTypes   []string // nil: all
	IdleTimeout  time.Duration
	Data         any
	Events       []Event
	NextID       int64
	NewestPruned int64
	LastActive   time.Time
}

// Snapshot returns the state of every queue, ordered by id.
func (m *Manager) Snapshot() []Saved {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]Saved, 0, len(m.queues))
	for _, q := range m.queues {
		s := Saved{
			ID: q.ID, Owner: q.Owner, IdleTimeout: q.IdleTimeout, Data: q.data,
			Events: slices.Clone(q.events), NextID: q.nextID, NewestPruned: q.newestPruned,
			LastActive: q.lastActive,
		}
		if q.types != nil {
			s.EventTypes = make([]string, 0, len(q.types))
			for t := range q.types {
				s.EventTypes = append(s.EventTypes, t)
			}
			slices.Sort(s.EventTypes)
		}
		out = append(out, s)
	}
	slices.SortFunc(out, func(a, b Saved) int {
		switch {
		case a.ID < b.ID:
			return -1
		case a.ID > b.ID:
			return 1
		}
		return 0
	})
	return out
}

// Restore recreates saved queues (replacing any queue with the same id) and appends to each an
// event of type typ with payload (nil typ: none), so that its client learns of the restart.
// Queues beyond an owner's limit or with more than MaxEventsPerQueue events are dropped; their
// clients get ErrBadQueueID and register again.
func (m *Manager) Restore(saved []Saved, typ string, payload any) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return
	}
	for _, s := range saved {
		if s.ID == "" || len(s.Events) >= m.opts.MaxEventsPerQueue ||
			len(m.byOwner[s.Owner]) >= m.opts.MaxQueuesPerOwner {
			continue
		}
		if old, ok := m.queues[s.ID]; ok {
			m.discard(old)
		}
		q := &eventQueue{
			Info:         Info{ID: s.ID, Owner: s.Owner, IdleTimeout: s.IdleTimeout},
			data:         s.Data,
			events:       slices.Clone(s.Events),
			nextID:       s.NextID,
			newestPruned: s.NewestPruned,
			lastActive:   s.LastActive,
		}
		if q.IdleTimeout <= 0 {
			q.IdleTimeout = m.opts.DefaultIdleTimeout
		}
		if s.EventTypes != nil {
			q.types = make(map[string]bool, len(s.EventTypes))
			for _, t := range s.EventTypes {
				q.types[t] = true
			}
		}
		m.add(q)
		if typ != "" && (q.types == nil || q.types[typ]) {
			m.push(q, typ, payload)
		}
	}
}
