package chat

import (
	"context"
	"errors"
	"net/http"
	"runtime"
	"sync"

	"github.com/teamchat/chat/storage"
)

// Group commit. On a store whose commits are costly and taken one at a time (SQLite: one
// writer, one fsync per commit; storage.GroupUpdater), the mutations that arrive while a
// commit is under way wait for it and then share the next one: the first of them leads a
// group, which runs every waiting mutation's body in one transaction, each as if in a
// savepoint (one body's failure undoes its own writes only; storage.GroupUpdater), commits once and publishes the events of
// each mutation that succeeded, in the group's order. Eight concurrent senders then pay for
// one fsync per group instead of one per message.
//
// Ordering is unchanged from one mutation per transaction: the leader holds writeMu
// exclusively from the start of the group's transaction until its events are published, so
// the group is, for the queues and for registrations (which hold writeMu shared), one
// transaction whose bodies ran in the group's order. Each body sees the writes of those before
// it, so the group's order is its serial order, and the events reach every queue in that
// order, after the commit and before any later transaction's. A body whose savepoint was
// rolled back publishes nothing; when the store runs the transaction again (a lost race)
// every body runs again from an empty event list. So nothing is lost or doubled, and a
// registration sees either all of a group's writes (and none of its events) or none of them
// (and all of its events).

// maxGroup bounds how many mutations share one commit (and how long one group holds
// writeMu).
const maxGroup = 64

// commitGroups gathers the mutations waiting for the next group.
type commitGroups struct {
	mu      sync.Mutex
	waiting []*groupedWrite
	leading bool // a leader is running groups; the waiting wait for it
	// shared counts the groups of more than one mutation, and sharing the mutations in them.
	shared, sharing uint64
}

// groupedWrite is one mutation in a group.
type groupedWrite struct {
	ctx      context.Context
	fn       func(tx storage.Tx, ev *events) error
	ev       events
	err      error
	panicked any
	done     chan struct{} // closed once the mutation has committed (or failed) and published
	lead     chan struct{} // closed when this mutation is to lead the next group
}

// grouped returns the store's group updater when it groups commits (nil otherwise).
func (s *Service) grouped() storage.GroupUpdater {
	if g, ok := s.store.(storage.GroupUpdater); ok && g.GroupsCommits() {
		return g
	}
	return nil
}

// updateGrouped runs fn as one mutation of a group (see above) and returns its outcome.
// waiting, when not nil, runs on the caller's goroutine once the mutation has joined the
// line, before the caller waits for (or leads) its group: work that fn will use when it is
// finished in time (a send's early rendering, messages_prerender.go), taken off the group's
// serial path. fn must not depend on it having run.
func (s *Service) updateGrouped(ctx context.Context, gu storage.GroupUpdater, waiting func(), fn func(tx storage.Tx, ev *events) error) error {
	w := &groupedWrite{ctx: ctx, fn: fn, done: make(chan struct{}), lead: make(chan struct{})}
	g := &s.commits
	g.mu.Lock()
	g.waiting = append(g.waiting, w)
	lead := !g.leading
	g.leading = true
	g.mu.Unlock()
	if waiting != nil {
		waiting()
	}
	if !lead {
		select {
		case <-w.done:
		case <-w.lead:
			lead = true
		}
	}
	if lead {
		s.leadGroup(gu)
	}
	<-w.done
	if w.panicked != nil {
		panic(w.panicked)
	}
	return w.err
}

// leadGroup runs the next group (the leader is first in line: waiting was empty, or it was
// handed the lead as the first of the waiting, so its own mutation is in the group) and then
// hands the lead to the first mutation still waiting. The hand-over is deferred: a lone
// mutation's panic leaves runGroup through the store's Update, and a lead kept by a goroutine
// that has left would stop every later write.
func (s *Service) leadGroup(gu storage.GroupUpdater) {
	g := &s.commits
	// Yield once before taking the group: the leader was handed the lead, or found none, just
	// as the last group's mutations were woken, and those that send again (8 concurrent
	// senders) then join this group instead of the next one: 7.5 sends per commit instead
	// of 4.5 with 8 senders on two cores. With nothing else runnable it returns at once.
	runtime.Gosched()
	g.mu.Lock()
	n := min(len(g.waiting), maxGroup)
	group := g.waiting[:n:n]
	g.waiting = g.waiting[n:]
	g.mu.Unlock()
	defer func() {
		g.mu.Lock()
		if len(g.waiting) > 0 {
			close(g.waiting[0].lead)
		} else {
			g.leading = false
		}
		g.mu.Unlock()
	}()
	s.runGroup(gu, group)
}

// runGroup runs the bodies of group in one transaction, publishes the events of those that
// committed, in order, and wakes each.
func (s *Service) runGroup(gu storage.GroupUpdater, group []*groupedWrite) {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	defer func() {
		for _, w := range group {
			close(w.done)
		}
	}()
	if s.closed {
		for _, w := range group {
			w.err = errShuttingDown()
		}
		return
	}
	fns := make([]func(storage.Tx) error, len(group))
	for i, w := range group {
		fns[i] = func(tx storage.Tx) error {
			w.ev = events{}
			if err := w.ctx.Err(); err != nil {
				return err
			}
			if err := w.fn(tx, &w.ev); err != nil {
				return err
			}
			return s.publishInTx(tx, &w.ev)
		}
	}
	var (
		errs []error
		err  error
	)
	if len(group) > 1 {
		s.commits.mu.Lock()
		s.commits.shared++
		s.commits.sharing += uint64(len(group))
		s.commits.mu.Unlock()
	}
	if len(group) == 1 {
		// Alone: a plain transaction, bound to the mutation's context, without savepoint.
		errs = []error{s.store.Update(group[0].ctx, fns[0])}
	} else {
		errs, err = gu.UpdateGroup(context.WithoutCancel(group[0].ctx), fns)
	}
	for i, w := range group {
		e := errs[i]
		if err != nil {
			e = err
		}
		var p *storage.Panic
		if errors.As(e, &p) {
			w.panicked = p.Value
			continue
		}
		if e != nil {
			w.err = s.storageError(e)
			continue
		}
		s.publish(&w.ev)
	}
}

// errShuttingDown refuses mutations once Close has saved the queues.
func errShuttingDown() *Error {
	return &Error{Code: CodeInternal, Status: http.StatusServiceUnavailable, Msg: "The server is shutting down"}
}
