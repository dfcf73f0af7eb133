package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/teamchat/chat/storage"
)

// Store is a storage.Storage on SQLite or PostgreSQL.
type Store struct {
	d     *dialect
	lite  *sqliteOptions // SQLite: the options it was opened with (Backup); nil on PostgreSQL
	write *sql.DB        // SQLite: one connection; PostgreSQL: the pool
	read  *sql.DB        // SQLite: query-only pool; PostgreSQL: the same pool as write

	closeOnce sync.Once
	closeErr  error

	cache caches // whole-table lists kept between transactions (cache.go)

	// SQLite: the prepared statements of each pool (prepared.go); nil on PostgreSQL.
	writeStmts, readStmts *stmtCache
	// SQLite: the WAL checkpoints beside the writer (checkpoint.go); nil on PostgreSQL.
	checkpoints *checkpointer

	retries   atomic.Uint64 // transactions run again after losing a race
	contended atomic.Uint64 // transactions given up after losing races for retryBudget
	// retryBudget is how long run keeps running a closure again that keeps losing races
	// (defaultRetryBudget; tests shorten it).
	retryBudget time.Duration
	statements  atomic.Uint64 // statements sent, BEGIN and COMMIT included
	roundTrips  atomic.Uint64 // exchanges with the database: a batch of statements is one

	// maxInlineSpans is how many receive intervals a walk of messages tests as literal bounds
	// (0: defaultInlineSpans; negative: none, tests of the subquery)
	maxInlineSpans int
}

// Statements reports how many statements the store has sent to the database since Open,
// BEGIN, COMMIT and ROLLBACK included: the unit of a write path's cost that the tests of
// issue 24 count per operation.
func (s *Store) Statements() uint64 { return s.statements.Load() }

// RoundTrips reports how many times the store has waited for the database since Open: one per
// statement, except that PostgreSQL sends some statements together (pipeline.go), BEGIN with
// a transaction's first statement and COMMIT with its deferred ones.
func (s *Store) RoundTrips() uint64 { return s.roundTrips.Load() }

// Retries reports how many times a transaction lost a race (SQLite busy, PostgreSQL
// serialization failure or deadlock) and was run again, since Open.
func (s *Store) Retries() uint64 { return s.retries.Load() }

// Contended reports how many transactions kept losing races until the retry budget ran out
// and failed with storage.ErrContention, since Open.
func (s *Store) Contended() uint64 { return s.contended.Load() }

// Compile-time conformance.
var (
	_ storage.Storage              = (*Store)(nil)
	_ storage.ReadCommittedUpdater = (*Store)(nil)
	_ storage.GroupUpdater         = (*Store)(nil)
	_ storage.ConcurrentUpdater    = (*Store)(nil)
)

// Dialect is "sqlite" or "postgres".
func (s *Store) Dialect() string { return s.d.name }

// View runs fn in a read-only transaction over one consistent snapshot.
func (s *Store) View(ctx context.Context, fn func(storage.ReadTx) error) error {
	opts := &sql.TxOptions{}
	if s.d.postgres {
		opts = &sql.TxOptions{Isolation: sql.LevelRepeatableRead, ReadOnly: true}
	}
	return s.run(ctx, s.read, opts, func(t *txn) error { return fn(&readTx{t: t}) })
}

// Update runs fn in a read-write transaction; an error or panic from fn rolls it back.
func (s *Store) Update(ctx context.Context, fn func(storage.Tx) error) error {
	return s.run(ctx, s.write, s.updateOptions(), func(t *txn) error { return fn(&tx{readTx{t: t}}) })
}

// updateOptions are the options of a read-write transaction: SERIALIZABLE on PostgreSQL.
func (s *Store) updateOptions() *sql.TxOptions {
	if s.d.postgres {
		return &sql.TxOptions{Isolation: sql.LevelSerializable}
	}
	return &sql.TxOptions{}
}

// errNothingCommitted ends a group whose every closure failed: there is nothing to commit.
var errNothingCommitted = errors.New("sqlstore: every closure of the group failed")

// UpdateGroup runs fns in one transaction, each as if in a savepoint of its own
// (storage.GroupUpdater).
//
// A savepoint per closure costs two statements, and on SQLite each SAVEPOINT makes the search
// index (FTS5) write out the rows it holds in memory, as a segment of its own: a tenth of a
// send's CPU. So the group first runs without savepoints: a closure that fails without having
// written anything (most failures: a check refuses before any write) has nothing to undo,
// and the deferred rows of every closure (deferred.go) are written together at the first
// statement that needs them. Only when a closure fails after writing, panics, or a deferred
// row fails (whose closure would not be known) is that run rolled back and the group run
// again with a savepoint per closure (grouped), where each failure undoes its own writes.
func (s *Store) UpdateGroup(ctx context.Context, fns []func(storage.Tx) error) ([]error, error) {
	errs, err := s.updateGroup(ctx, fns, false)
	if errors.Is(err, errNeedSavepoints) {
		errs, err = s.updateGroup(ctx, fns, true)
	}
	return errs, err
}

// errNeedSavepoints ends a group's run without savepoints that needs them (see UpdateGroup).
var errNeedSavepoints = errors.New("sqlstore: a closure of the group failed after writing")

// updateGroup is one way of running UpdateGroup: with a savepoint per closure, or without
// (errNeedSavepoints when a failure would need one).
func (s *Store) updateGroup(ctx context.Context, fns []func(storage.Tx) error, savepoints bool) ([]error, error) {
	errs := make([]error, len(fns))
	err := s.run(ctx, s.write, s.updateOptions(), func(t *txn) error {
		clear(errs)
		kept := 0
		for i, fn := range fns {
			run := t.unguardedMember
			if savepoints {
				run = t.member
			}
			failed, err := run(func() error { return fn(&tx{readTx{t: t}}) })
			if err != nil {
				return err
			}
			if errs[i] = failed; failed == nil {
				kept++
			}
		}
		if kept == 0 {
			return errNothingCommitted
		}
		if !savepoints && t.flush() != nil && t.retry == nil {
			return errNeedSavepoints // a deferred row failed: whose, the savepoints tell
		}
		return nil
	})
	if errors.Is(err, errNothingCommitted) {
		err = nil
	}
	return errs, err
}

// GroupsCommits is true on SQLite, whose writers commit one at a time, each with its fsync;
// PostgreSQL's commit side by side (and share their WAL flushes) on their own.
func (s *Store) GroupsCommits() bool { return !s.d.postgres }

// UpdatesConcurrently is true on PostgreSQL (storage.ConcurrentUpdater); SQLite has one
// writer.
func (s *Store) UpdatesConcurrently() bool { return s.d.postgres }

// member runs fn, one closure of a group, in a savepoint: failed is fn's error (a
// *storage.Panic when it panicked), its writes undone; err is a failure of the whole
// transaction (a lost race, a savepoint statement that failed).
func (t *txn) member(fn func() error) (failed, err error) {
	if _, err := t.exec("SAVEPOINT grouped"); err != nil {
		return nil, err
	}
	active := len(t.active)
	func() {
		defer func() {
			if r := recover(); r != nil {
				failed = &storage.Panic{Value: r}
			}
		}()
		failed = fn()
	}()
	if failed == nil {
		failed = t.flush() // the closure's deferred rows (deferred.go) belong to its savepoint
	}
	if t.retry != nil {
		return nil, t.retry
	}
	if failed == nil && t.failed != nil {
		failed = fmt.Errorf("sqlstore: transaction aborted by an earlier failed statement: %w", t.failed)
	}
	if failed != nil {
		// The savepoint makes the transaction usable again (PostgreSQL aborts it on a failed
		// statement).
		t.failed = nil
		t.pending = nil // go with the closure's other writes
		t.active = t.active[:active]
		if _, err := t.exec("ROLLBACK TO SAVEPOINT grouped"); err != nil {
			return nil, err
		}
	}
	if _, err := t.exec("RELEASE SAVEPOINT grouped"); err != nil {
		return nil, err
	}
	return failed, nil
}

// unguardedMember runs fn, one closure of a group, without a savepoint: failed is fn's error
// when fn wrote nothing before failing (nothing to undo); err is errNeedSavepoints when it
// did (or panicked), or a failure of the whole transaction (a lost race).
func (t *txn) unguardedMember(fn func() error) (failed, err error) {
	writes := t.writes
	panicked := false
	func() {
		defer func() {
			if r := recover(); r != nil {
				panicked = true
			}
		}()
		failed = fn()
	}()
	if t.retry != nil {
		return nil, t.retry
	}
	if panicked || failed != nil && t.writes != writes || t.failed != nil {
		return nil, errNeedSavepoints
	}
	return failed, nil
}

// UpdateReadCommitted is Update at READ COMMITTED on PostgreSQL (storage.ReadCommittedUpdater):
// transactions that claim rows with FOR UPDATE SKIP LOCKED then work side by side. On SQLite it is
// Update.
func (s *Store) UpdateReadCommitted(ctx context.Context, fn func(storage.Tx) error) error {
	opts := &sql.TxOptions{}
	if s.d.postgres {
		opts = &sql.TxOptions{Isolation: sql.LevelReadCommitted}
	}
	return s.run(ctx, s.write, opts, func(t *txn) error { return fn(&tx{readTx{t: t}}) })
}

// Close closes the connection pools; later transactions fail.
func (s *Store) Close() error {
	s.closeOnce.Do(func() {
		if s.checkpoints != nil {
			s.closeErr = s.checkpoints.stop()
		}
		s.writeStmts.close()
		s.readStmts.close()
		if err := s.write.Close(); s.closeErr == nil {
			s.closeErr = err
		}
		if s.read != nil && s.read != s.write {
			if err := s.read.Close(); s.closeErr == nil {
				s.closeErr = err
			}
		}
	})
	return s.closeErr
}

// once runs fn in one transaction. retry is non-nil when the transaction lost a race and may
// be run again.
func (s *Store) once(ctx context.Context, db *sql.DB, opts *sql.TxOptions, fn func(*txn) error) (retry, err error) {
	t, err := s.begin(ctx, db, opts)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if s.d.isRetryable(err) {
			return err, nil
		}
		return nil, fmt.Errorf("sqlstore: begin: %w", err)
	}
	defer t.end() // after a commit: nothing left but the connection's return to its pool
	err = fn(t)
	if err == nil && t.pg == nil {
		err = t.flush() // PostgreSQL: with the COMMIT
	}
	switch {
	case t.retry != nil:
		return t.retry, nil
	case err != nil:
		return nil, err
	case t.failed != nil:
		// A statement failed and fn went on; PostgreSQL has aborted the transaction.
		return nil, fmt.Errorf("sqlstore: transaction aborted by an earlier failed statement: %w", t.failed)
	case ctx.Err() != nil:
		return nil, ctx.Err()
	}
	if err := t.commit(); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if t.retry != nil {
			return t.retry, nil
		}
		if s.d.isRetryable(err) {
			return err, nil
		}
		return nil, fmt.Errorf("sqlstore: commit: %w", err)
	}
	if db == s.write && s.checkpoints != nil {
		s.checkpoints.committed()
	}
	s.cache.activity.raise(t.active)
	return nil, nil
}

// begin opens a transaction: database/sql's on SQLite, on PostgreSQL a connection whose BEGIN
// goes with the first statement (pipeline.go).
func (s *Store) begin(ctx context.Context, db *sql.DB, opts *sql.TxOptions) (*txn, error) {
	if s.d.postgres {
		return s.beginPostgres(ctx, db, opts)
	}
	sqlTx, err := db.BeginTx(ctx, opts)
	if err != nil {
		return nil, err
	}
	s.statements.Add(2) // BEGIN, and the COMMIT or ROLLBACK that ends the transaction
	s.roundTrips.Add(2)
	stmts := s.readStmts
	if db == s.write {
		stmts = s.writeStmts
	}
	t := s.newTxn(ctx, sqlTx)
	t.tx, t.stmts = sqlTx, stmts
	return t, nil
}

// newTxn is a transaction running its statements on db.
func (s *Store) newTxn(ctx context.Context, db querier) *txn {
	return &txn{ctx: ctx, db: db, d: s.d, cache: &s.cache, count: &s.statements, trips: &s.roundTrips,
		inlineSpans: s.inlineSpans()}
}

// commit commits the transaction (its deferred rows first).
func (t *txn) commit() error {
	if t.pg != nil {
		return t.commitPostgres()
	}
	t.committed = true
	return t.tx.Commit()
}

// end rolls back what is still open (a failure, a retry, a panic of fn, which goes on) and
// releases the connection. SQLite then prepares the statements the transaction ran often
// enough: its connection is free again.
func (t *txn) end() {
	if t.pg != nil {
		t.endPostgres()
		return
	}
	if !t.committed {
		_ = t.tx.Rollback()
	}
	t.stmts.preparePending()
}
