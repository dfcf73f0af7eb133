// Package sqlstore is the database/sql storage backend, with two dialects: SQLite (embedded,
// pure Go through modernc.org/sqlite) and PostgreSQL (through pgx's database/sql driver).
//
// It imports storage, the leaf domain packages, the two drivers and the standard library.
//
// Open takes a DSN: "sqlite:PATH" (or a bare file path) or "postgres://...". On open the
// numbered migrations embedded under migrations/ are applied inside one transaction (on
// PostgreSQL under pg_advisory_xact_lock, so several processes may start at once); a database
// that already holds a migration newer than the binary knows is refused.
//
// Concurrency and transactions:
//   - SQLite runs in WAL mode with a busy timeout. Writes go through a pool of exactly one
//     connection whose transactions begin IMMEDIATE, so there is a single writer at a time and
//     readers (a separate pool of query-only connections) never block it. synchronous=FULL is
//     the default; "sqlite:PATH?synchronous=NORMAL" trades durability of the last commits on
//     power loss for speed. The WAL's checkpoints run beside the writer, on a connection of
//     their own (checkpoint.go).
//   - PostgreSQL runs Update in SERIALIZABLE transactions and View in REPEATABLE READ READ
//     ONLY ones. A serialization failure or deadlock (SQLSTATE 40001/40P01) re-runs the whole
//     closure, with jittered backoff, for up to a time budget (retry.go), as the storage
//     contract allows; then it fails with storage.ErrContention. Sends to one channel from
//     several processes wait for each other on an advisory lock instead (sendlock.go), and a
//     sender's activity is written after the commit (deferAfterCommit).
//   - On PostgreSQL a transaction holds a connection of its own and sends BEGIN with its first
//     statement when that is the check of the kept lists (with a read announced ahead through
//     storage.PrefetchSend), and COMMIT with its deferred statements, each batch one
//     round trip (pipeline.go, ahead.go, deferred.go); RoundTrips counts them.
//   - Driver errors are classified by code, never by message text: unique violations become
//     storage.ErrConflict, sql.ErrNoRows becomes storage.ErrNotFound.
//   - Every statement's arguments are checked before it is sent (strings.go): a string with a
//     NUL byte or bytes that are not UTF-8 fails the call with storage.ErrInvalidString on
//     both dialects, where PostgreSQL alone would have refused it.
//   - Each accessor call checks the transaction's context first; a cancelled context fails the
//     call and the transaction is rolled back.
//
// Users' rows of messages (user_messages) are explicit rows; a channel message stored with
// CreateForSubscribers has implicit rows too, derived from receive_intervals (kept in step
// with subscriptions and users where the subscriber counts are recomputed) and read_marks,
// so that a send writes no row per recipient (receivers.go, messages_rows.go; the model is
// storage/receivers.go's). A user's implicit rows are read in bulk, as aggregated lists of ids
// merged in Go with the explicit rows (receivers_rows.go), and a walk of messages (Query)
// reads the user's intervals and marks once to tell each message's implicit row.
//
// Schema conventions: one migration file per change (NNNN_what.sql), written once for both
// dialects with a few tokens the dialect expands ({{id}} for an auto-assigned primary key,
// {{bytes}} for a byte string, {{binary}} for text sorted bytewise as Go sorts strings).
// Queries use "?" placeholders (rewritten to $n for PostgreSQL). Bulk reads and writes are
// set-based: an id list travels as one parameter (see dialect.idSet) and rows go in multi-row
// statements (insertRows), never a query per row.
package sqlstore
