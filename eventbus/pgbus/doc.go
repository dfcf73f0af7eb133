// Package pgbus shares the events of several chat processes on one PostgreSQL database,
// with PostgreSQL itself as the bus (no broker, no extra service). It implements chat.Bus and
// the queue routing httpapi uses to forward event-queue requests to the process that holds the
// queue.
//
// Publishing: Publish runs inside the Service's writing transaction (through the optional
// storage.SQLTx capability of the SQL store's transaction). It issues pg_notify on the bus
// channel with "XID:MESSAGE", XID being the writing transaction's id; PostgreSQL delivers the
// notification when, and only if, the transaction commits, and delivers notifications in commit
// order. A message too large for a notification (NOTIFY payloads are limited to 8000 bytes) is
// inserted, in the same transaction, into chat_bus_payloads and the notification carries
// "XID:@ROWID"; listeners read the row. Rows are deleted after Options.PayloadRetention.
//
// Listening: Listen holds one dedicated pgx connection that LISTENs on the channel and hands
// every message, in order, to the Service. A lost connection ends Listen with an error (the
// Service then ends its queues, whose events may be incomplete, and listens again).
//
// Registration: Snapshot reads pg_current_snapshot() in the read transaction of a
// registration, and says which transaction ids that snapshot already includes, so that the new
// queue gets exactly the commits its state lacks.
//
// Nodes: each process is a row of chat_bus_nodes (node id, advertised URL, heartbeat), written
// every Options.HeartbeatInterval; a node whose heartbeat is older than Options.NodeTimeout is
// gone. Close deletes the row. Queue ids are "NODE:UUID" (chat.Options.NodeID); RouteQueue maps
// one to the advertised URL of its node, or reports the node gone.
//
// The channel is "teamchat_events_" plus the connection's current schema, so that databases
// holding several schemas (tests) keep their buses apart. The tables are created on Open if
// missing, under an advisory lock so that several processes may start at once.
//
// Imports: storage (for the transaction types and the SQLTx capability), pgx and the standard
// library; not the chat package, whose Bus interface it satisfies structurally.
//
// Concurrency: a Bus is safe for concurrent use. Open starts one heartbeat goroutine, stopped
// and waited for by Close. Listen runs on the caller's goroutine.
package pgbus
