package chat

import (
	"context"

	"github.com/teamchat/chat/internal/engine"
)

// readOp is what the body of a reading operation works with (engine.ReadOp): its transaction,
// the acting user who passed the operation's gate, the operation's time and, read on first
// use, the world.
type readOp = engine.ReadOp

// writeOp is what the body of a mutation works with (engine.WriteOp): a readOp over the
// writable transaction, which it also holds as Tx, and the events to publish after commit.
type writeOp = engine.WriteOp

// events are the events of one mutation (engine.Events), published after its commit.
type events = engine.Events

// pending is one event of a mutation (engine.Pending).
type pending = engine.Pending

// read runs body in one read-only transaction for actor, who must pass g first
// (engine.Engine.Read), and returns the first failed read of the world, else body's error.
func (s *Service) read(ctx context.Context, actor Actor, g gate, body func(o *readOp) error) error {
	return s.eng.Read(ctx, actor, g, body)
}

// mutate runs body in one write transaction for actor, who must pass g first, and publishes
// the events body collected (o.Ev) after the commit (engine.Engine.Mutate). The store may run
// body more than once (each run starts afresh): body does nothing but reads, writes and
// collecting events; any other side effect goes into o.Ev.AfterCommit or after mutate returns.
func (s *Service) mutate(ctx context.Context, actor Actor, g gate, body func(o *writeOp) error) error {
	return s.eng.Mutate(ctx, actor, g, body)
}
