// Package pgbus shares the events of several chat processes on one PostgreSQL database,
// with PostgreSQL itself as the bus (no broker, no extra service). It implements chat.Bus and
// the queue routing httpapi uses to forward event-queue requests to the process that holds the
// queue.
//
// Publishing: Publish runs inside the Service's writing transaction (through the optional
// storage.SQLTx capability of the SQL store's transaction). It takes a transaction-level
// advisory lock, appends the message to chat_bus_log under an id from a sequence, and issues
// pg_notify on the bus channel with "ID:MESSAGE" ("ID:@" when the message is too large for a
// notification, whose payloads are limited to 8000 bytes: listeners read the log row). The
// lock is held until commit, so ids increase in commit order and every snapshot sees exactly
// the messages up to some id; PostgreSQL delivers the notification when, and only if, the
// transaction commits, in commit order. Log rows are deleted after Options.LogRetention (never
// the newest); chat_bus_pruned records the largest id deleted.
//
// Listening: Listen(after) holds one dedicated pgx connection: it LISTENs, then reads the log's
// messages after `after` in one snapshot, then delivers the notifications of later commits
// (those the snapshot already held are dropped). Nothing falls between: a commit before the
// LISTEN is in the snapshot, one after it is notified. So a process continues from any id the
// log still covers: after a lost connection, and after a restart with saved queues. When the
// log was pruned past `after`, Listen says so (ready(false)) and the Service ends its queues.
//
// Registration: Position reads, in the read transaction of a registration, the id of the last
// message its snapshot includes, so that the new queue gets exactly the commits its state
// lacks.
//
// Nodes: each process is a row of chat_bus_nodes (node id, advertised URL, heartbeat), written
// every Options.HeartbeatInterval; a node whose heartbeat is older than Options.NodeTimeout is
// gone. Close marks the row with back_by = now + Options.RestartGrace (the node is expected back
// with its saved queues; without a grace the row is deleted). Queue ids are "NODE:UUID"
// (chat.Options.NodeID); RouteQueue maps one to the advertised URL of its live node, to a retry
// delay while the node is expected back, or reports it gone. It reads a cache of the node rows
// refreshed at every heartbeat (an entry is trusted for two heartbeats, and a node counts as
// gone as soon as its heartbeat expires), so forwarding costs no query. A process owns its
// node id through a session-level advisory lock held on a connection of its own: a second
// live process with the same id is refused (ErrNodeRunning), and a killed process's lock goes
// with its connection, so it can be restarted at once without waiting for its heartbeat to
// expire.
//
// The channel is "teamchat_events_" plus the connection's current schema, and the advisory
// lock is derived from it, so that databases holding several schemas (tests) keep their buses
// apart. The tables are created on Open if missing, under an advisory lock so that several
// processes may start at once.
//
// Imports: storage (for the transaction types and the SQLTx capability), pgx and the standard
// library; not the chat package, whose Bus interface it satisfies structurally.
//
// Concurrency: a Bus is safe for concurrent use. Open starts one heartbeat goroutine, stopped
// and waited for by Close. Listen runs on the caller's goroutine.
package pgbus
