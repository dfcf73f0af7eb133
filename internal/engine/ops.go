package engine

import (
	"context"
	"errors"
	"time"

	"github.com/teamchat/chat/internal/world"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// ReadOp is what the body of a reading operation works with (see Read): its transaction, the
// acting user who passed the operation's gate, the operation's time and, read on first use,
// the world.
type ReadOp struct {
	Tx  storage.ReadTx
	Me  users.User // the zero User for a spectator or an operation without actor
	Now time.Time  // read once per run of the transaction
	w   *world.World
	// fakeDomain is the engine's fake email domain, for the world's made-up addresses.
	fakeDomain string
}

// World returns the operation's world, reading it on first use. A failed read is the world's
// sticky error, which Read and Mutate return once the body returns, so a body needs no error
// handling for reads of the world.
func (o *ReadOp) World() *world.World {
	if o.w == nil {
		o.w = world.Load(o.Tx, o.Now.Unix()).UseFakeEmailDomain(o.fakeDomain)
	}
	return o.w
}

// SharedWorld is World read over the store's shared channel list (world.LoadShared): for a
// body that changes channels only through the world's SetChannel, which copies the list first
// (SendMessage: no copy of every channel per send).
func (o *ReadOp) SharedWorld() *world.World {
	if o.w == nil {
		o.w = world.LoadShared(o.Tx, o.Now.Unix()).UseFakeEmailDomain(o.fakeDomain)
	}
	return o.w
}

// UseWorld makes w, loaded by the body (a pooled world: GetSubscriptions), the operation's
// world; its sticky error counts as World's.
func (o *ReadOp) UseWorld(w *world.World) { o.w = w.UseFakeEmailDomain(o.fakeDomain) }

// done is the outcome of a body that returned err: a failed read of the world comes first (the
// body decided on missing data), then the body's own error.
func (o *ReadOp) done(err error) error {
	if o.w != nil && o.w.Err() != nil {
		return o.w.Err()
	}
	return err
}

// WriteOp is what the body of a mutation works with (see Mutate): a ReadOp over the writable
// transaction, which it also holds as Tx, and the events to publish after commit.
type WriteOp struct {
	ReadOp
	Tx storage.Tx
	Ev *Events
}

// Claim is a store's transaction method: Update, or storage.UpdateReadCommitted for a claim of due
// work.
type Claim func(context.Context, func(storage.Tx) error) error

// Read runs body in one read-only transaction for actor, who must pass g first. It reads the
// clock once per run of the transaction, and returns the first failed read of the world, else
// body's error.
func (e *Engine) Read(ctx context.Context, actor Actor, g Gate, body func(o *ReadOp) error) error {
	err := e.store.View(ctx, func(tx storage.ReadTx) error {
		o := &ReadOp{Tx: tx, Now: e.now(), fakeDomain: e.fakeDomain}
		me, err := g(tx, actor)
		if err != nil {
			return err
		}
		o.Me = me
		return o.done(body(o))
	})
	if err != nil {
		return e.storageError(err)
	}
	return nil
}

// Mutate runs body in one write transaction for actor, who must pass g first, and publishes
// the events body collected (o.Ev) after the commit. The store may run body more than once
// (each run starts afresh): body does nothing but reads, writes and collecting events; any
// other side effect goes into o.Ev.AfterCommit or after Mutate returns.
func (e *Engine) Mutate(ctx context.Context, actor Actor, g Gate, body func(o *WriteOp) error) error {
	return e.MutateWith(ctx, nil, actor, g, body)
}

// MutateWith is Mutate with the store's transaction method run: nil for Update (where the store
// groups commits, shared with concurrent mutations: commits.go), or storage.UpdateReadCommitted for
// the scheduler's claims. Mutations run one at a time (the write lock), so that events are
// published in commit order: after the commit (with a bus: handed to the bus inside the
// transaction, which delivers them on commit). Nothing is published when the gate, the body or the
// commit fails; each run of the transaction starts with no events.
func (e *Engine) MutateWith(ctx context.Context, run Claim, actor Actor, g Gate, body func(o *WriteOp) error) error {
	if !e.enter() {
		return ErrShuttingDown()
	}
	defer e.leave()
	return e.write(ctx, run, e.mutateBody(actor, g, body))
}

// write runs fn, a mutation's transaction closure, as MutateWith says, and publishes its
// events after the commit.
func (e *Engine) write(ctx context.Context, run Claim, fn func(tx storage.Tx, ev *Events) error) error {
	if run == nil {
		if gu := e.grouped(); gu != nil {
			return e.updateGrouped(ctx, gu, nil, fn)
		}
		run = e.store.Update
	}
	e.writeMu.Lock()
	defer e.writeMu.Unlock()
	if e.closed || e.stopping.Load() {
		return ErrShuttingDown()
	}
	var ev Events
	err := run(ctx, func(tx storage.Tx) error {
		ev = Events{}
		if err := fn(tx, &ev); err != nil {
			return err
		}
		return e.publishEventsInTx(tx, &ev)
	})
	if err != nil {
		return e.storageError(err)
	}
	e.publish(&ev)
	return nil
}

// mutateBody is the transaction closure of a mutation: the gate, then body, with ev the
// events it collects.
func (e *Engine) mutateBody(actor Actor, g Gate, body func(o *WriteOp) error) func(tx storage.Tx, ev *Events) error {
	return func(tx storage.Tx, ev *Events) error {
		r := storage.ReadsOf(tx)
		o := &WriteOp{ReadOp: ReadOp{Tx: r, Now: e.now(), fakeDomain: e.fakeDomain}, Tx: tx, Ev: ev}
		me, err := g(r, actor)
		if err != nil {
			return err
		}
		o.Me = me
		return o.done(body(o))
	}
}

// NotFound translates a storage.ErrNotFound from err into the area's error miss; other errors
// (and nil) pass unchanged. Each area names its translations once and passes them here.
func NotFound[E error](err error, miss func() E) error {
	if errors.Is(err, storage.ErrNotFound) {
		return miss()
	}
	return err
}
