// Package storage is the contract between the chat Service and its backends: the Storage
// interface with View and Update transactions, the per-area accessors of a transaction, and the
// sentinel errors ErrNotFound and ErrConflict.
//
// It imports the leaf domain packages (users, realms, ...) and the standard library only.
//
// Contract, pinned by storage/storagetest:
//   - View runs fn in a read-only transaction (ReadTx has no write methods). Update runs fn in a
//     read-write transaction; if fn returns an error, every write of the transaction is rolled
//     back and the error comes out of Update unchanged (wrapped errors stay matchable).
//   - fn may be run more than once (backends retry serialization failures), so it must do
//     nothing but reads, writes and collecting its results.
//   - Missing rows are reported as ErrNotFound and uniqueness violations as ErrConflict, both
//     wrapped with %w.
//   - A write of a string that ValidString refuses (a NUL byte, bytes that are not UTF-8) fails
//     with ErrInvalidString, wrapped with %w, on every backend, and the transaction rolls back
//     when the error comes out of its closure. The SQL backend refuses such a string as an
//     argument of any statement, reads included (PostgreSQL would fail the statement).
//   - Lists come back in a deterministic order (ascending id unless a method says otherwise).
//   - Records are values: a backend never shares memory with its caller.
//   - A transaction is bound to the context given to View or Update; once it is cancelled, the
//     accessors fail with its error.
//   - A channel message stored with CreateForSubscribers has a row for every user receiving its
//     channel without the backend storing one per recipient (receivers.go); every read of rows
//     answers as if each were stored (storagetest's ImplicitRows compares with a store given
//     every row).
package storage
