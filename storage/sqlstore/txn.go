package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"github.com/teamchat/chat/storage"
)

// querier runs statements: a *sql.Tx, or on PostgreSQL the transaction's *sql.Conn.
type querier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// txn is one database transaction with the bookkeeping the accessors share.
type txn struct {
	ctx context.Context
	db  querier    // where statements run: tx, or pg's connection
	tx  *sql.Tx    // SQLite and migrations: database/sql's transaction
	pg  *pgSession // PostgreSQL: the connection and BEGIN (pipeline.go)
	// ahead are the reads announced or done ahead of their turn (ahead.go)
	ahead []*readAhead
	d     *dialect

	committed bool // tx has committed

	retry  error // a statement lost a race: the whole closure is run again
	failed error // PostgreSQL: a statement failed outside a savepoint; commit is impossible
	guard  int   // depth of savepoints (PostgreSQL)

	count   *atomic.Uint64   // the Store's statement counter
	trips   *atomic.Uint64   // the Store's round-trip counter
	stmts   *stmtCache       // SQLite: the pool's prepared statements (nil: none)
	pending []deferredInsert // rows written at the next statement or the commit (deferred.go)
	// writes counts the statements run or rows deferred that may write (all but SELECTs):
	// a closure of a group that failed without writing has nothing to undo (UpdateGroup).
	writes int

	cache  *caches              // the Store's list caches
	active []activityWrite      // user activity written, for the floor once committed (activity.go)
	wrote  map[cachedTable]bool // tables this transaction has written (cache.go)
	tables *tableState          // what the transaction read about the cached tables

	inlineSpans int // the Store's maxInlineSpans, resolved
}

// live reports the context's error, if any; every accessor call checks it first.
func (t *txn) live() error {
	if err := t.ctx.Err(); err != nil {
		return fmt.Errorf("sqlstore: %w", err)
	}
	return nil
}

// check classifies a driver error: the context's error when it is done, ErrConflict for a
// uniqueness violation, ErrNotFound for no rows, and records races and aborted transactions.
func (t *txn) check(err error) error {
	if err == nil {
		return nil
	}
	if cerr := t.ctx.Err(); cerr != nil {
		return fmt.Errorf("sqlstore: %w", cerr)
	}
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("sqlstore: %w", storage.ErrNotFound)
	}
	if t.d.isRetryable(err) || errors.As(err, new(errRetryConn)) {
		t.retry = err
	} else if t.d.postgres && t.guard == 0 && t.failed == nil {
		t.failed = err
	}
	if t.d.isUnique(err) {
		return fmt.Errorf("sqlstore: %w: %w", storage.ErrConflict, err)
	}
	return fmt.Errorf("sqlstore: %w", err)
}

// prepare readies the transaction for one statement: it must be live, its arguments storable,
// the deferred writes the statement depends on flushed and the database transaction begun; the
// statement is counted.
func (t *txn) prepare(query string, args []any) error {
	if err := t.live(); err != nil {
		return err
	}
	if err := checkArgs(args); err != nil {
		return err
	}
	if err := t.flushBefore(query); err != nil {
		return err
	}
	if err := t.start(); err != nil {
		return err
	}
	t.count.Add(1)
	t.trips.Add(1)
	return nil
}

func (t *txn) exec(query string, args ...any) (sql.Result, error) {
	if err := t.prepare(query, args); err != nil {
		return nil, err
	}
	t.writes++
	q := t.d.q(query)
	if st := t.stmts.lookup(q); st != nil {
		r, err := t.tx.StmtContext(t.ctx, st).ExecContext(t.ctx, args...)
		return r, t.check(err)
	}
	r, err := t.db.ExecContext(t.ctx, q, args...)
	return r, t.check(err)
}

func (t *txn) query(query string, args ...any) (*sql.Rows, error) {
	if err := t.prepare(query, args); err != nil {
		return nil, err
	}
	t.noteWrite(query)
	q := t.d.q(query)
	if st := t.stmts.lookup(q); st != nil {
		rows, err := t.tx.StmtContext(t.ctx, st).QueryContext(t.ctx, args...)
		return rows, t.check(err)
	}
	rows, err := t.db.QueryContext(t.ctx, q, args...)
	return rows, t.check(err)
}

// get scans the single row of query into dest; ErrNotFound when there is none.
func (t *txn) get(query string, args []any, dest ...any) error {
	if err := t.live(); err != nil {
		return err
	}
	if err := t.flushBefore(query); err != nil {
		return err
	}
	return t.getAhead(query, args, dest...)
}

// getAhead is get for a statement that runs ahead of the pending rows (deferred.go).
func (t *txn) getAhead(query string, args []any, dest ...any) error {
	if err := t.live(); err != nil {
		return err
	}
	if err := checkArgs(args); err != nil {
		return err
	}
	if err := t.start(); err != nil {
		return err
	}
	t.count.Add(1)
	t.trips.Add(1)
	t.noteWrite(query)
	q := t.d.q(query)
	if st := t.stmts.lookup(q); st != nil {
		return t.check(t.tx.StmtContext(t.ctx, st).QueryRowContext(t.ctx, args...).Scan(dest...))
	}
	return t.check(t.db.QueryRowContext(t.ctx, q, args...).Scan(dest...))
}

// noteWrite counts query in t.writes unless it is a SELECT.
func (t *txn) noteWrite(query string) {
	if !strings.HasPrefix(strings.TrimLeft(query, " \t\n"), "SELECT") {
		t.writes++
	}
}

// guarded runs fn, which may fail with a constraint violation, so that the transaction stays
// usable afterwards: PostgreSQL aborts a transaction on any failed statement, so there fn runs
// inside a savepoint that is rolled back on failure. SQLite undoes only the failed statement.
func (t *txn) guarded(fn func() error) error {
	if !t.d.postgres {
		return fn()
	}
	if _, err := t.exec("SAVEPOINT guarded"); err != nil {
		return err
	}
	t.guard++
	err := fn()
	t.guard--
	if err != nil {
		if _, rerr := t.exec("ROLLBACK TO SAVEPOINT guarded"); rerr != nil {
			return rerr
		}
		return err
	}
	_, err = t.exec("RELEASE SAVEPOINT guarded")
	return err
}

// scanAll runs query and appends one record per row, made by scan.
func scanAll[T any](t *txn, scan func(*sql.Rows) (T, error), query string, args ...any) ([]T, error) {
	rows, err := t.query(query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, t.check(err)
		}
		out = append(out, v)
	}
	return out, t.check(rows.Err())
}

// nanos stores a time as UNIX nanoseconds; the zero time as NULL.
func nanos(tm time.Time) any {
	if tm.IsZero() {
		return nil
	}
	return tm.UnixNano()
}

// fromNanos is the inverse of nanos, in UTC.
func fromNanos(n sql.NullInt64) time.Time {
	if !n.Valid {
		return time.Time{}
	}
	return time.Unix(0, n.Int64).UTC()
}

// claiming is query, a SELECT of rows to claim, with the lock that lets several processes claim
// side by side: on PostgreSQL the rows it returns stay locked until the commit and rows another
// transaction holds are skipped; SQLite's single writer connection serialises every claim
// already.
func (t *txn) claiming(query string) string {
	if t.d.postgres {
		return query + " FOR UPDATE SKIP LOCKED"
	}
	return query
}
