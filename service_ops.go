package chat

import (
	"context"
	"errors"
	"time"

	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// readOp is what the body of a reading operation works with (see read): its transaction, the
// acting user who passed the operation's gate, the operation's time and, read on first use,
// the world.
type readOp struct {
	tx  storage.ReadTx
	me  users.User // the zero User for a spectator or an operation without actor
	now time.Time  // read once per run of the transaction
	w   *world
}

// writeOp is what the body of a mutation works with (see mutate): a readOp over the writable
// transaction, which it also holds as tx, and the events to publish after commit.
type writeOp struct {
	readOp
	tx storage.Tx
	ev *events
}

// world returns the operation's world, reading it on first use. A failed read is the world's
// sticky error, which read and mutate return once the body returns.
func (o *readOp) world() *world {
	if o.w == nil {
		o.w = loadWorld(o.tx, o.now.Unix())
	}
	return o.w
}

// sharedWorld is world read over the store's shared channel list (loadWorldShared): for a
// body that changes channels only through the world's setChannel, which copies the list
// first (SendMessage: no copy of every channel per send).
func (o *readOp) sharedWorld() *world {
	if o.w == nil {
		o.w = loadWorldShared(o.tx, o.now.Unix())
	}
	return o.w
}

// done is the outcome of a body that returned err: a failed read of the world comes first (the
// body decided on missing data), then the body's own error.
func (o *readOp) done(err error) error {
	if o.w != nil && o.w.err != nil {
		return o.w.err
	}
	return err
}

// read runs body in one read-only transaction for actor, who must pass g first. It reads the
// clock once per run, and returns the first failed read of the world, else body's error.
func (s *Service) read(ctx context.Context, actor Actor, g gate, body func(o *readOp) error) error {
	err := s.store.View(ctx, func(tx storage.ReadTx) error {
		o := &readOp{tx: tx, now: s.now()}
		me, err := g(tx, actor)
		if err != nil {
			return err
		}
		o.me = me
		return o.done(body(o))
	})
	if err != nil {
		return s.storageError(err)
	}
	return nil
}

// mutate runs body in one write transaction for actor, who must pass g first, and publishes
// the events body collected (o.ev) after the commit. The store may run body more than once
// (each run starts afresh): body does nothing but reads, writes and collecting events; any
// other side effect goes into o.ev.afterCommit or after mutate returns.
func (s *Service) mutate(ctx context.Context, actor Actor, g gate, body func(o *writeOp) error) error {
	return s.mutateWith(ctx, nil, actor, g, body)
}

// mutateWith is mutate with the store's transaction method run: nil for Update (where the
// store groups commits, shared with concurrent mutations: service_commits.go), or
// storage.ClaimUpdate for the scheduler's claims. Mutations run one at a time (writeMu), so
// that events are published in commit order: after the commit (with a Bus: handed to the bus
// inside the transaction, which delivers them on commit). Nothing is published when the gate,
// the body or the commit fails; each run of the transaction starts with no events.
func (s *Service) mutateWith(ctx context.Context, run func(context.Context, func(storage.Tx) error) error, actor Actor, g gate, body func(o *writeOp) error) error {
	return s.write(ctx, run, s.mutateBody(actor, g, body))
}

// write runs fn, a mutation's transaction closure, as mutateWith says, and publishes its
// events after the commit.
func (s *Service) write(ctx context.Context, run func(context.Context, func(storage.Tx) error) error, fn func(tx storage.Tx, ev *events) error) error {
	if run == nil {
		if gu := s.grouped(); gu != nil {
			return s.updateGrouped(ctx, gu, nil, fn)
		}
		run = s.store.Update
	}
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	if s.closed {
		return errShuttingDown()
	}
	var ev events
	err := run(ctx, func(tx storage.Tx) error {
		ev = events{}
		if err := fn(tx, &ev); err != nil {
			return err
		}
		return s.publishInTx(tx, &ev)
	})
	if err != nil {
		return s.storageError(err)
	}
	s.publish(&ev)
	return nil
}

// mutateBody is the transaction closure of a mutation: the gate, then body, with ev the
// events it collects.
func (s *Service) mutateBody(actor Actor, g gate, body func(o *writeOp) error) func(tx storage.Tx, ev *events) error {
	return func(tx storage.Tx, ev *events) error {
		r := storage.ReadsOf(tx)
		o := &writeOp{readOp: readOp{tx: r, now: s.now()}, tx: tx, ev: ev}
		me, err := g(r, actor)
		if err != nil {
			return err
		}
		o.me = me
		return o.done(body(o))
	}
}

// notFound translates a storage.ErrNotFound from err into the area's error miss; other errors
// (and nil) pass unchanged. Each area names its translations once (errDraftNotFound,
// errChannelIDNotFound, ...) and passes them here.
func notFound[E error](err error, miss func() E) error {
	if errors.Is(err, storage.ErrNotFound) {
		return miss()
	}
	return err
}
