package chat

import (
	"context"
	"time"

	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/internal/world"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// readOp is what the body of a reading operation works with (see read): the engine's ReadOp
// (its transaction, the acting user who passed the operation's gate, the operation's time)
// and, read on first use, the world.
type readOp struct {
	tx  storage.ReadTx
	me  users.User // the zero User for a spectator or an operation without actor
	now time.Time  // read once per run of the transaction
	w   *world.World
}

// writeOp is what the body of a mutation works with (see mutate): a readOp over the writable
// transaction, which it also holds as tx, and the events to publish after commit.
type writeOp struct {
	readOp
	tx storage.Tx
	ev *events
}

// events are the events of one mutation (engine.Events), published after its commit.
type events = engine.Events

// pending is one event of a mutation (engine.Pending).
type pending = engine.Pending

// world returns the operation's world, reading it on first use. A failed read is the world's
// sticky error, which read and mutate return once the body returns.
func (o *readOp) world() *world.World {
	if o.w == nil {
		o.w = world.Load(o.tx, o.now.Unix())
	}
	return o.w
}

// sharedWorld is world read over the store's shared channel list (loadWorldShared): for a
// body that changes channels only through the world's setChannel, which copies the list
// first (SendMessage: no copy of every channel per send).
func (o *readOp) sharedWorld() *world.World {
	if o.w == nil {
		o.w = world.LoadShared(o.tx, o.now.Unix())
	}
	return o.w
}

// done is the outcome of a body that returned err: a failed read of the world comes first (the
// body decided on missing data), then the body's own error.
func (o *readOp) done(err error) error {
	if o.w != nil && o.w.Err() != nil {
		return o.w.Err()
	}
	return err
}

// read runs body in one read-only transaction for actor, who must pass g first
// (engine.Engine.Read), and returns the first failed read of the world, else body's error.
func (s *Service) read(ctx context.Context, actor Actor, g gate, body func(o *readOp) error) error {
	return s.eng.Read(ctx, actor, g, func(eo engine.ReadOp) error {
		o := &readOp{tx: eo.Tx, me: eo.Me, now: eo.Now}
		return o.done(body(o))
	})
}

// mutate runs body in one write transaction for actor, who must pass g first, and publishes
// the events body collected (o.ev) after the commit (engine.Engine.Mutate). The store may run
// body more than once (each run starts afresh): body does nothing but reads, writes and
// collecting events; any other side effect goes into o.ev.AfterCommit or after mutate returns.
func (s *Service) mutate(ctx context.Context, actor Actor, g gate, body func(o *writeOp) error) error {
	return s.eng.Mutate(ctx, actor, g, writeBody(body))
}

// mutateWith is mutate with the store's transaction method run (engine.Engine.MutateWith):
// storage.ClaimUpdate for the scheduler's claims.
func (s *Service) mutateWith(ctx context.Context, run engine.Claim, actor Actor, g gate, body func(o *writeOp) error) error {
	return s.eng.MutateWith(ctx, run, actor, g, writeBody(body))
}

// mutateOverlapping is mutate for SendMessage (engine.Engine.MutateOverlapping): overlapping
// other sends where the store allows it. ahead, when set, announces the transaction's reads
// before its first statement; waiting, when set, runs while the send waits for its commit
// group.
func (s *Service) mutateOverlapping(ctx context.Context, actor Actor, g gate, ahead func(storage.Tx), waiting func(), body func(o *writeOp) error) error {
	return s.eng.MutateOverlapping(ctx, actor, g, ahead, waiting, writeBody(body))
}

// writeBody adapts a mutation's body to the engine's WriteOp.
func writeBody(body func(o *writeOp) error) func(engine.WriteOp) error {
	return func(eo engine.WriteOp) error {
		o := &writeOp{readOp: readOp{tx: eo.ReadOp.Tx, me: eo.Me, now: eo.Now}, tx: eo.Tx, ev: eo.Ev}
		return o.done(body(o))
	}
}
