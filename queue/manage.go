package queue

import (
	"crypto/rand"
	"fmt"
	"slices"
	"time"
)

// Stats are a Manager's figures at one moment.
type Stats struct {
	// Queues is how many queues exist; Waiting how many long-polls wait on them.
	Queues, Waiting int
}

// Stats reports how many queues exist and how many long-polls wait.
func (m *Manager) Stats() Stats {
	m.mu.Lock()
	defer m.mu.Unlock()
	st := Stats{Queues: len(m.queues)}
	for _, q := range m.queues {
		st.Waiting += q.waiters
	}
	return st
}

// Len reports how many queues exist.
func (m *Manager) Len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.queues)
}

func (m *Manager) runJanitor() {
	defer m.janitor.Done()
	tick := time.NewTicker(m.opts.GCInterval)
	defer tick.Stop()
	for {
		select {
		case <-m.done:
			return
		case <-tick.C:
			m.collect()
		}
	}
}

// collect discards every queue idle for longer than its timeout.
func (m *Manager) collect() {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.opts.Now()
	for _, q := range m.queues {
		if q.waiters == 0 && now.Sub(q.lastActive) >= q.IdleTimeout {
			m.discard(q)
		}
	}
}

// newQueueID returns a random UUID (version 4), the form of Zulip's queue ids.
func newQueueID() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("queue: random id: %w", err)
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16]), nil
}

// DeleteOwner removes every queue of owner at once (a deactivated user's); their waiting
// long-polls return ErrBadQueueID.
func (m *Manager) DeleteOwner(owner int64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, q := range m.byOwner[owner] {
		m.discard(q)
	}
}

// DeleteAll removes every queue at once (events may have been missed: their clients must
// register again); waiting long-polls return ErrBadQueueID.
func (m *Manager) DeleteAll() {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, q := range m.queues {
		m.discard(q)
	}
}

// HasOwner reports whether owner has an event queue in this process (a client connected).
func (m *Manager) HasOwner(owner int64) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.byOwner[owner]) > 0
}

// Owners returns the owners of the queues that exist, ascending.
func (m *Manager) Owners() []int64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]int64, 0, len(m.byOwner))
	for o, qs := range m.byOwner {
		if len(qs) > 0 {
			out = append(out, o)
		}
	}
	slices.Sort(out)
	return out
}
