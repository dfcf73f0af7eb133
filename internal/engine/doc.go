// Package engine is the kernel below the operations: it runs each operation in one storage
// transaction and publishes the events of each mutation after its commit, in commit order.
//
// It holds read and mutate (ops.go: ReadOp and WriteOp, what an operation's body works with:
// the transaction, the acting user who passed the gate, the operation's time, the world read
// on first use, the events); the gates that load the acting user (actor.go) and the users and
// channels an operation names (named.go); the error type and codes of the API (errors.go); the
// events of a transaction with their recipients (events.go); and the machinery that orders
// commits and publications: the exclusive write lock, group commit (commits.go), overlapping
// sends (overlap.go), the hand-off to a bus inside the transaction (Config.PublishInTx) and the
// refusal of mutations once Close has begun. Nothing outside this package can reach the write
// lock, the commit groups or the overlap state: registration and bus delivery go through
// Registration, Exclusive and Shared.
//
// Imports: internal/world (an operation reads its world through its op), storage and the
// leaves users, channels and realms (named.go: the users and channels an operation names);
// nothing else of the project.
//
// # Commit order
//
// A mutation holds the write lock exclusively from the start of its transaction until its
// events are published, so events reach the queues in commit order; a registration holds it
// shared while it reads its state and creates its queue (Registration), so no commit falls
// between the two, and the state plus the queue's events is the true state. With a bus, the
// events are handed to it inside the transaction (Config.PublishInTx), which delivers them on
// commit, in commit order, to every process; the process's own delivery runs under Exclusive.
//
// # Group commit
//
// On a store whose commits are costly and taken one at a time (SQLite: one
// writer, one fsync per commit; storage.GroupUpdater), the mutations that arrive while a
// commit is under way wait for it and then share the next one: the first of them leads a
// group, which runs every waiting mutation's body in one transaction, and then the bodies of
// those that join the line while it runs (groupRun), each as if in a savepoint (one body's
// failure undoes its own writes only; storage.GroupUpdater), commits once and publishes the
// events of each mutation that succeeded, in the group's order. Eight concurrent senders then
// pay for one fsync per group instead of one per message.
//
// Ordering is unchanged from one mutation per transaction: the leader holds the write lock
// exclusively from the start of the group's transaction until its events are published, so
// the group is, for the queues and for registrations (which hold the write lock shared), one
// transaction whose bodies ran in the group's order. Each body sees the writes of those before
// it, so the group's order is its serial order, and the events reach every queue in that
// order, after the commit and before any later transaction's. A body whose savepoint was
// rolled back publishes nothing; when the store runs the transaction again (a lost race)
// every body runs again from an empty event list, a joined mutation's in the same place. So
// nothing is lost or doubled, and a registration sees either all of a group's writes (and
// none of its events) or none of them (and all of its events).
//
// # Overlapping sends
//
// On a store whose write transactions run side by side (PostgreSQL;
// storage.ConcurrentUpdater) and without a bus, SendMessage does not hold the write lock
// exclusively: sends run their transactions at the same time, and their events are ordered by
// a ticket each takes as the last step of its transaction, just before the commit.
//
// The argument that queues still get events in an order consistent with register's state:
//
//   - Overlapping sends hold the write lock shared, so no exclusive mutation, bus delivery or Close
//     runs beside them: they overlap only each other.
//   - Tickets respect dependencies. If a send read what another wrote, the other had committed
//     before the reader's snapshot, and so had taken its ticket (before its commit) before the
//     reader took its own (after its reads). Events are published in ticket order, a send's
//     after those of every send it depends on; a send waits for its own events to be published
//     before it returns, as it did under the exclusive lock.
//   - Sends that do not read each other's writes commute in what clients keep: each adds its
//     own message and rows. Overlapping sends run at READ COMMITTED (storage.UpdateReadCommitted),
//     so that sends to one channel do not fail to serialize against each other (SERIALIZABLE would
//     abort most of them: each reads the channel's newest message, which the other's insert
//     changes). What a send reads that another send could change only grows (messages are added,
//     never removed, while only sends run), so the one decision that depends on it, whether the
//     message changes the channel (its first message, or its first in a while: first_message_id,
//     is_recently_active), is taken alone: such a send returns ErrDecideAlone and runs again as an
//     exclusive mutation. (Message ids come from a sequence, so a queue may get message 101 before
//     100, as Zulip's own events, which also follow commits, may.)
//   - Registration waits until no overlapping send is inside (from before its transaction
//     until its events are published) and keeps new ones out while it reads the state and
//     creates its queue, so every send's commit is either in the state, with its events
//     published before the queue exists, or after the state, with its events delivered to the
//     queue. Nothing is lost or doubled; a run of the transaction that the store repeats gives
//     up its ticket, and only the committed run's events are published.
//
// Registrations share with each other and sends share with each other; a waiting
// registration keeps new sends out, so neither starves the other.
package engine
