package storage

// The update modes beside Update: group commit (GroupUpdater), side-by-side writers
// (ConcurrentUpdater) and READ COMMITTED (ReadCommittedUpdater).

import (
	"context"
	"fmt"
)

// GroupUpdater is an optional capability of a Storage whose commits are costly and taken one
// at a time (SQLite: one writer, one fsync per commit): UpdateGroup runs several write
// closures in one transaction, so that they share its commit. The Service gathers the
// mutations that arrive while a commit is under way into the next group (group commit).
//
// UpdateGroup runs each closure of fns in turn, in one read-write transaction, each as if in a
// savepoint of its own: a closure sees the writes of those before it in the group; when it returns
// an error (or panics) its own writes are undone and the others' kept, and errs[i] is its error (a
// *Panic for a panic). (A store may first run the group without savepoints and run it again with
// them when a closure that wrote fails.) err reports a failure of the transaction as a whole
// (begin, a savepoint, commit): then no closure's writes were committed. When the transaction loses
// a race it runs again, every closure with it, so each closure must be safe to run more than once,
// as for Update. Statements run with ctx, which should not be one closure's own context: the caller
// checks each closure's context itself.
type GroupUpdater interface {
	UpdateGroup(ctx context.Context, fns []func(Tx) error) (errs []error, err error)
	// GroupsCommits reports whether grouping pays on this store: false where concurrent
	// transactions commit side by side anyway (PostgreSQL).
	GroupsCommits() bool
}

// Panic is the error of a closure that panicked inside UpdateGroup; its caller panics again
// with Value.
type Panic struct{ Value any }

func (p *Panic) Error() string { return fmt.Sprintf("storage: closure panicked: %v", p.Value) }

// ConcurrentUpdater is an optional capability of a Storage whose write transactions run side
// by side and never wait for a read transaction (PostgreSQL: MVCC, SERIALIZABLE writers), so
// that the Service may let mutations overlap (their conflicts make the store run one of them
// again).
type ConcurrentUpdater interface {
	UpdatesConcurrently() bool
}

// ReadCommittedUpdater is an optional capability of a Storage: UpdateReadCommitted runs fn as
// Update does, at READ COMMITTED where the backend has isolation levels: for transactions
// that claim rows with row locks (ScheduledMessageWriter.ClaimDue) and act on them, and for
// sends that overlap (ConcurrentUpdater). Under Update's SERIALIZABLE (PostgreSQL), two
// transactions that claim different rows of one table (each skipping the other's) still read
// what the other writes and one of them fails to serialize, so that concurrent claimers
// mostly retry instead of working side by side. A backend with a single writer need not
// offer it.
type ReadCommittedUpdater interface {
	UpdateReadCommitted(ctx context.Context, fn func(Tx) error) error
}

// UpdateReadCommitted runs fn with s's UpdateReadCommitted when s offers it, else with Update.
func UpdateReadCommitted(ctx context.Context, s Storage, fn func(Tx) error) error {
	if c, ok := s.(ReadCommittedUpdater); ok {
		return c.UpdateReadCommitted(ctx, fn)
	}
	return s.Update(ctx, fn)
}
