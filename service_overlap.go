package chat

import (
	"context"
	"errors"
	"sync"

	"github.com/teamchat/chat/storage"
)

// Overlapping sends. On a store whose write transactions run side by side (PostgreSQL;
// storage.ConcurrentUpdater) and without a Bus, SendMessage does not hold writeMu
// exclusively: sends run their transactions at the same time, and their events are ordered by
// a ticket each takes as the last step of its transaction, just before the commit.
//
// The argument that queues still get events in an order consistent with register's state:
//
//   - Overlapping sends hold writeMu shared, so no exclusive mutation, bus delivery or Close
//     runs beside them: they overlap only each other.
//   - Tickets respect dependencies. If a send read what another wrote, the other had committed
//     before the reader's snapshot, and so had taken its ticket (before its commit) before the
//     reader took its own (after its reads). Events are published in ticket order, a send's
//     after those of every send it depends on; a send waits for its own events to be published
//     before it returns, as it did under the exclusive lock.
//   - Sends that do not read each other's writes commute in what clients keep: each adds its
//     own message and rows. Overlapping sends run at READ COMMITTED (storage.ClaimUpdate), so
//     that sends to one channel do not fail to serialize against each other (SERIALIZABLE
//     would abort most of them: each reads the channel's newest message, which the other's
//     insert changes). What a send reads that another send could change only grows (messages
//     are added, never removed, while only sends run), so the one decision that depends on
//     it, whether the message changes the channel (its first message, or its first in a
//     while: first_message_id, is_recently_active), is taken alone: such a send returns
//     errDecideAlone and runs again as an exclusive mutation. (Message ids come from a
//     sequence, so a queue may get message 101 before 100, as Zulip's own events, which also
//     follow commits, may.)
//   - Registration waits until no overlapping send is inside (from before its transaction
//     until its events are published) and keeps new ones out while it reads the state and
//     creates its queue, so every send's commit is either in the state, with its events
//     published before the queue exists, or after the state, with its events delivered to the
//     queue. Nothing is lost or doubled; a run of the transaction that the store repeats gives
//     up its ticket, and only the committed run's events are published.
//
// Registrations share with each other and sends share with each other; a waiting
// registration keeps new sends out, so neither starves the other.
type overlap struct {
	mu       sync.Mutex
	changed  *sync.Cond // broadcast on every change below
	writers  int        // sends inside: from before their transaction until their events are out
	regs     int        // registrations reading their state
	regsWait int        // registrations waiting for the sends inside to finish
	next     uint64     // the next ticket
	head     uint64     // the next ticket to publish
	finished map[uint64]*events
}

func newOverlap() *overlap {
	o := &overlap{finished: map[uint64]*events{}}
	o.changed = sync.NewCond(&o.mu)
	return o
}

// overlapping reports whether sends may overlap on this Service.
func (s *Service) overlapping() bool {
	c, ok := s.store.(storage.ConcurrentUpdater)
	return ok && c.UpdatesConcurrently() && s.bus == nil
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
func (o *overlap) finish(ticket uint64, ev *events, publish func(*events), wait, leave bool) {
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
func (s *Service) updateOverlapping(ctx context.Context, waiting func(), fn func(tx storage.Tx, ev *events) error) error {
	if !s.overlapping() {
		if gu := s.grouped(); gu != nil {
			return s.updateGrouped(ctx, gu, waiting, fn)
		}
		return s.write(ctx, nil, fn)
	}
	s.writeMu.RLock()
	unlocked := false
	defer func() {
		if !unlocked {
			s.writeMu.RUnlock()
		}
	}()
	if s.closed {
		return errShuttingDown()
	}
	o := s.overlap
	o.enterWriter()
	var (
		ev     events
		ticket uint64
		held   bool
	)
	err := storage.ClaimUpdate(ctx, s.store, func(tx storage.Tx) error {
		if held {
			// The store runs the transaction again: the last run did not commit.
			o.finish(ticket, nil, s.publish, false, false)
			held = false
		}
		ev = events{overlapping: true}
		if err := fn(tx, &ev); err != nil {
			return err
		}
		ticket, held = o.take(), true
		return nil
	})
	if err != nil {
		if held {
			o.finish(ticket, nil, s.publish, false, true)
		} else {
			o.leave()
		}
		s.writeMu.RUnlock()
		unlocked = true
		if errors.Is(err, errDecideAlone) {
			return s.write(ctx, nil, fn)
		}
		return s.storageError(err)
	}
	o.finish(ticket, &ev, s.publish, true, true)
	return nil
}

// errDecideAlone stops an overlapping send that must run as an exclusive mutation.
var errDecideAlone = errors.New("chat: a decision that no other send may overlap")

// mutateOverlapping is mutate through updateOverlapping (SendMessage). ahead, when set,
// announces the transaction's reads before its first statement (storage.PrefetchSend);
// waiting, when set, runs on the caller's goroutine while the mutation waits for its group
// where the store groups commits (updateGrouped), and not at all otherwise.
func (s *Service) mutateOverlapping(ctx context.Context, actor Actor, g gate, ahead func(storage.Tx), waiting func(), body func(o *writeOp) error) error {
	mutate := s.mutateBody(actor, g, body)
	if ahead == nil {
		return s.updateOverlapping(ctx, waiting, mutate)
	}
	return s.updateOverlapping(ctx, waiting, func(tx storage.Tx, ev *events) error {
		ahead(tx)
		return mutate(tx, ev)
	})
}
