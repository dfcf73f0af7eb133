package engine

import (
	"context"
	"errors"
	"sync"

	"github.com/teamchat/chat/storage"
)

// overlap orders the events of overlapping sends: see the package documentation,
// "Overlapping sends".
type overlap struct {
	mu       sync.Mutex
	changed  *sync.Cond // broadcast on every change below
	writers  int        // sends inside: from before their transaction until their events are out
	regs     int        // registrations reading their state
	regsWait int        // registrations waiting for the sends inside to finish
	next     uint64     // the next ticket
	head     uint64     // the next ticket to publish
	finished map[uint64]*Events
}

func newOverlap() *overlap {
	o := &overlap{finished: map[uint64]*Events{}}
	o.changed = sync.NewCond(&o.mu)
	return o
}

// overlapping reports whether sends may overlap on this Service.
func (e *Engine) overlapping() bool {
	c, ok := e.store.(storage.ConcurrentUpdater)
	return ok && c.UpdatesConcurrently() && e.publishInTx == nil
}

// enterRegistration waits until no send is inside and keeps new ones out until release runs.
func (o *overlap) enterRegistration() (release func()) {
	o.mu.Lock()
	o.regsWait++
	for o.writers > 0 {
		o.changed.Wait()
	}
	o.regsWait--
	o.regs++
	o.mu.Unlock()
	return func() {
		o.mu.Lock()
		o.regs--
		o.changed.Broadcast()
		o.mu.Unlock()
	}
}

// enterWriter waits until no registration is reading or waiting.
func (o *overlap) enterWriter() {
	o.mu.Lock()
	for o.regs > 0 || o.regsWait > 0 {
		o.changed.Wait()
	}
	o.writers++
	o.mu.Unlock()
}

// take hands out the next ticket.
func (o *overlap) take() uint64 {
	o.mu.Lock()
	defer o.mu.Unlock()
	t := o.next
	o.next++
	return t
}

// finish records ticket's outcome (nil: nothing to publish), publishes every finished ticket
// whose turn has come, in order, and, when wait is set, waits for ticket's own turn. The
// caller's send leaves (writers--) when leave is set.
func (o *overlap) finish(ticket uint64, ev *Events, publish func(*Events), wait, leave bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.finished[ticket] = ev
	for {
		e, ok := o.finished[o.head]
		if !ok {
			break
		}
		delete(o.finished, o.head)
		o.head++
		if e != nil {
			publish(e)
		}
	}
	o.changed.Broadcast()
	for wait && o.head <= ticket {
		o.changed.Wait()
	}
	if leave {
		o.writers--
		o.changed.Broadcast()
	}
}

// leave records that a send without a committed ticket is done.
func (o *overlap) leave() {
	o.mu.Lock()
	o.writers--
	o.changed.Broadcast()
	o.mu.Unlock()
}

// updateOverlapping is update for a send: overlapping other sends where the store allows
// (see above), else update (with waiting run while it waits for its group, when the store
// groups commits).
func (e *Engine) updateOverlapping(ctx context.Context, waiting func(), fn func(tx storage.Tx, ev *Events) error) error {
	if !e.overlapping() {
		if gu := e.grouped(); gu != nil {
			return e.updateGrouped(ctx, gu, waiting, fn)
		}
		return e.write(ctx, nil, fn)
	}
	e.writeMu.RLock()
	unlocked := false
	defer func() {
		if !unlocked {
			e.writeMu.RUnlock()
		}
	}()
	if e.closed || e.stopping.Load() {
		return ErrShuttingDown()
	}
	o := e.overlap
	o.enterWriter()
	var (
		ev     Events
		ticket uint64
		held   bool
	)
	err := storage.UpdateReadCommitted(ctx, e.store, func(tx storage.Tx) error {
		if held {
			// The store runs the transaction again: the last run did not commit.
			o.finish(ticket, nil, e.publish, false, false)
			held = false
		}
		ev = Events{Overlapping: true}
		if err := fn(tx, &ev); err != nil {
			return err
		}
		ticket, held = o.take(), true
		return nil
	})
	if err != nil {
		if held {
			o.finish(ticket, nil, e.publish, false, true)
		} else {
			o.leave()
		}
		e.writeMu.RUnlock()
		unlocked = true
		if errors.Is(err, ErrDecideAlone) {
			return e.write(ctx, nil, fn)
		}
		return e.storageError(err)
	}
	o.finish(ticket, &ev, e.publish, true, true)
	return nil
}

// ErrDecideAlone stops an overlapping send that must run as an exclusive mutation.
var ErrDecideAlone = errors.New("engine: a decision that no other send may overlap")

// MutateOverlapping is Mutate through updateOverlapping (SendMessage). ahead, when set,
// announces the transaction's reads before its first statement (storage.PrefetchSend);
// waiting, when set, runs on the caller's goroutine while the mutation waits for its group
// where the store groups commits (updateGrouped), and not at all otherwise.
func (e *Engine) MutateOverlapping(ctx context.Context, actor Actor, g Gate, ahead func(storage.Tx), waiting func(), body func(o *WriteOp) error) error {
	if !e.enter() {
		return ErrShuttingDown()
	}
	defer e.leave()
	mutate := e.mutateBody(actor, g, body)
	if ahead == nil {
		return e.updateOverlapping(ctx, waiting, mutate)
	}
	return e.updateOverlapping(ctx, waiting, func(tx storage.Tx, ev *Events) error {
		ahead(tx)
		return mutate(tx, ev)
	})
}
