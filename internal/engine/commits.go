package engine

import (
	"context"
	"errors"
	"runtime"
	"slices"
	"sync"

	"github.com/teamchat/chat/storage"
)

// Group commit: see the package documentation, "Group commit".

// maxGroup bounds how many mutations share one commit (and how long one group holds
// writeMu).
const maxGroup = 64

// maxYields bounds how many times a leader yields for mutations still joining its group.
const maxYields = 4

// lineLength is how many mutations wait for the next group.
func (g *commitGroups) lineLength() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.waiting)
}

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
	fn       func(tx storage.Tx, ev *Events) error
	ev       Events
	err      error
	panicked any
	slot     int           // the index of its closure in its group (groupRun)
	done     chan struct{} // closed once the mutation has committed (or failed) and published
	lead     chan struct{} // closed when this mutation is to lead the next group
}

// grouped returns the store's group updater when it groups commits (nil otherwise).
func (e *Engine) grouped() storage.GroupUpdater {
	if g, ok := e.store.(storage.GroupUpdater); ok && g.GroupsCommits() {
		return g
	}
	return nil
}

// updateGrouped runs fn as one mutation of a group (see above) and returns its outcome.
// waiting, when not nil, runs on the caller's goroutine once the mutation has joined the
// line, before the caller waits for (or leads) its group: work that fn will use when it is
// finished in time (a send's early rendering, messages_prerender.go), taken off the group's
// serial path. fn must not depend on it having run.
func (e *Engine) updateGrouped(ctx context.Context, gu storage.GroupUpdater, waiting func(), fn func(tx storage.Tx, ev *Events) error) error {
	w := &groupedWrite{ctx: ctx, fn: fn, done: make(chan struct{}), lead: make(chan struct{})}
	g := &e.commits
	g.mu.Lock()
	g.waiting = append(g.waiting, w)
	lead := !g.leading
	g.leading = true
	g.mu.Unlock()
	if waiting != nil {
		if !lead {
			// Let the leader, and those woken with this mutation, join the line first: the
			// group starts once the line stops growing (leadGroup), and this work overlaps
			// the group's bodies instead of delaying them.
			runtime.Gosched()
		}
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
		e.leadGroup(gu)
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
func (e *Engine) leadGroup(gu storage.GroupUpdater) {
	g := &e.commits
	// Yield once before taking the group: the leader was handed the lead, or found none, just
	// as the last group's mutations were woken, and those that send again (8 concurrent
	// senders) then join this group instead of the next one: 7.5 sends per commit instead
	// of 4.5 with 8 senders on two cores. With nothing else runnable it returns at once.
	// Yield again while the line grew during the last yield (those woken are still arriving),
	// at most maxYields times.
	for i, before := 0, g.lineLength(); i < maxYields; i++ {
		runtime.Gosched()
		after := g.lineLength()
		if after == before || after >= maxGroup {
			break
		}
		before = after
	}
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
	e.runGroup(gu, group)
}

// runGroup runs the bodies of group in one transaction, with those of the mutations that
// join the line while they run (see groupRun), publishes the events of those that committed,
// in order, and wakes each.
func (e *Engine) runGroup(gu storage.GroupUpdater, group []*groupedWrite) {
	e.writeMu.Lock()
	defer e.writeMu.Unlock()
	r := &groupRun{e: e, taken: group}
	defer func() {
		for _, w := range r.members() {
			close(w.done)
		}
	}()
	if e.closed || e.stopping.Load() {
		for _, w := range group {
			w.err = ErrShuttingDown()
		}
		return
	}
	errs, err := gu.UpdateGroup(context.WithoutCancel(group[0].ctx), r.fns())
	members := r.members()
	if len(members) > 1 {
		e.commits.mu.Lock()
		e.commits.shared++
		e.commits.sharing += uint64(len(members))
		e.commits.mu.Unlock()
	}
	for _, w := range members {
		werr := errs[w.slot]
		if err != nil {
			werr = err
		}
		var p *storage.Panic
		if errors.As(werr, &p) {
			w.panicked = p.Value
			continue
		}
		if werr != nil {
			w.err = e.storageError(werr)
			continue
		}
		e.publish(&w.ev)
	}
}

// joinSlots is how many mutations may join a group while its bodies run.
const joinSlots = 16

// errNoJoiner is the outcome of a group's join slot that found the line empty: it wrote
// nothing and stands for no mutation.
var errNoJoiner = errors.New("engine: no mutation joined the group")

// groupRun is one group's mutations: those taken from the line at its start, then those that
// joined while its bodies ran. The group's closures are one per mutation taken and then
// joinSlots join slots, each of which runs the body of the first mutation waiting in the line
// when it runs (and of that same mutation when the store runs the transaction again), or
// nothing. So the senders woken by the last group that come back while this one runs share
// its commit, instead of waiting for the next, and the leader need not wait for them before
// it starts. The group's order is the order its bodies ran.
type groupRun struct {
	e      *Engine
	taken  []*groupedWrite
	joined []*groupedWrite // by join slot; nil while the slot found the line empty
}

// fns returns the group's closures.
func (r *groupRun) fns() []func(storage.Tx) error {
	total := max(len(r.taken), min(maxGroup, len(r.taken)+joinSlots))
	r.joined = make([]*groupedWrite, total-len(r.taken))
	fns := make([]func(storage.Tx) error, total)
	for i := range total {
		fns[i] = func(tx storage.Tx) error {
			w := r.member(i)
			if w == nil {
				return errNoJoiner
			}
			w.ev = Events{}
			if err := w.ctx.Err(); err != nil {
				return err
			}
			if err := w.fn(tx, &w.ev); err != nil {
				return err
			}
			return r.e.publishEventsInTx(tx, &w.ev)
		}
	}
	return fns
}

// member returns the mutation of the group's closure i (nil for a join slot that finds the
// line empty).
func (r *groupRun) member(i int) *groupedWrite {
	if i < len(r.taken) {
		r.taken[i].slot = i
		return r.taken[i]
	}
	j := i - len(r.taken)
	if r.joined[j] == nil {
		g := &r.e.commits
		g.mu.Lock()
		if len(g.waiting) > 0 {
			r.joined[j], g.waiting = g.waiting[0], g.waiting[1:]
			r.joined[j].slot = i
		}
		g.mu.Unlock()
	}
	return r.joined[j]
}

// members lists the group's mutations: those taken, then those that joined.
func (r *groupRun) members() []*groupedWrite {
	out := slices.Clip(r.taken)
	for _, w := range r.joined {
		if w != nil {
			out = append(out, w)
		}
	}
	return out
}
