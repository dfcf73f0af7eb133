package sqlstore

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// On PostgreSQL every statement is a round trip to the server, and the round trips, not the
// statements, were most of a short transaction's cost on both sides (a send took six: BEGIN,
// the check of the kept lists, the subscribers, the message, the sender's activity, COMMIT).
// So a transaction runs on a connection of its own (sql.Conn) and controls its ends itself:
//
//   - BEGIN is not sent on its own. It goes with the transaction's first statement, in one
//     pipelined batch (pgx), when that statement is the check of the kept lists (getFirst,
//     cache.go; the first statement of nearly every transaction of the Service); before any
//     other first statement it is sent alone. A transaction that sends no statement at all
//     sends neither BEGIN nor COMMIT.
//   - COMMIT goes in one batch with the statements still deferred (deferred.go), such as the
//     sender's activity, which nothing in the transaction reads.
//
// A batch runs in the transaction like any statement: its statements in order, the first
// failure ends it (the server skips the rest), and the failure is classified as any
// statement's is (check). A connection left inside a transaction (a ROLLBACK that could not
// be sent) is never reused: pgx's driver refuses it when the pool hands it out again.

// pgSession is a PostgreSQL transaction's connection and the BEGIN it has not sent yet.
type pgSession struct {
	conn  *sql.Conn
	begin string // the BEGIN statement, sent with the first statement
	begun bool   // BEGIN has been sent
	ended bool   // COMMIT succeeded
	// eachStatement: every statement takes a snapshot of its own (READ COMMITTED, the
	// default); otherwise the transaction's first statement takes the one they all share.
	eachStatement bool
	// channelLock is the channel whose send lock the connection holds (lockChannel), 0 for
	// none.
	channelLock int64
}

// pgBegin is the BEGIN statement for opts (database/sql's options, as pgx's driver maps them).
func pgBegin(opts *sql.TxOptions) string {
	begin := "BEGIN"
	switch opts.Isolation {
	case sql.LevelReadCommitted:
		begin += " ISOLATION LEVEL READ COMMITTED"
	case sql.LevelRepeatableRead, sql.LevelSnapshot:
		begin += " ISOLATION LEVEL REPEATABLE READ"
	case sql.LevelSerializable:
		begin += " ISOLATION LEVEL SERIALIZABLE"
	}
	if opts.ReadOnly {
		begin += " READ ONLY"
	}
	return begin
}

// beginPostgres takes a connection for a transaction whose BEGIN waits for its first statement.
func (s *Store) beginPostgres(ctx context.Context, db *sql.DB, opts *sql.TxOptions) (*txn, error) {
	conn, err := db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	t := s.newTxn(ctx, conn)
	t.pg = &pgSession{conn: conn, begin: pgBegin(opts), eachStatement: opts.Isolation < sql.LevelRepeatableRead}
	return t, nil
}

// statement is one statement with its arguments ("?" placeholders). In a batch, rows (when
// set) reads the rows it returns; the statement's result is otherwise ignored.
type statement struct {
	query string
	args  []any
	rows  func(pgx.Rows) error
}

// start sends BEGIN alone when the transaction has not begun: its first statement is one that
// does not carry it (a no-op on SQLite and once begun).
func (t *txn) start() error {
	t.ahead = nil // only the statement right after it may use a read ahead (ahead.go)
	if t.pg == nil || t.pg.begun {
		return nil
	}
	t.pg.begun = true
	t.count.Add(1)
	t.trips.Add(1)
	_, err := t.db.ExecContext(t.ctx, t.pg.begin)
	return t.check(err)
}

// getFirst is get for a statement that is often a transaction's first: on PostgreSQL, before
// BEGIN has been sent, the two go in one round trip, with the reads announced ahead (ahead.go). dest must be plain values (strings, integers) that pgx and database/sql scan
// alike.
func (t *txn) getFirst(query string, args []any, dest ...any) error {
	if t.pg == nil || t.pg.begun || len(t.pending) > 0 {
		return t.get(query, args, dest...)
	}
	if err := t.live(); err != nil {
		return err
	}
	if err := checkArgs(args); err != nil {
		return err // before BEGIN is marked sent
	}
	t.pg.begun = true
	stmts := []statement{{query: t.pg.begin}, {query: query, args: args, rows: func(r pgx.Rows) error {
		if !r.Next() {
			if err := r.Err(); err != nil {
				return err
			}
			return sql.ErrNoRows
		}
		return r.Scan(dest...)
	}}}
	for _, a := range t.ahead {
		stmts = append(stmts, a.statement)
	}
	if err := t.check(t.batch(stmts)); err != nil {
		return err
	}
	for _, a := range t.ahead {
		a.done = true
	}
	return nil
}

// batch sends stmts in one round trip and returns the first failure.
func (t *txn) batch(stmts []statement) error {
	for _, s := range stmts {
		if err := checkArgs(s.args); err != nil {
			return err // nothing sent
		}
	}
	t.count.Add(uint64(len(stmts)))
	t.trips.Add(1)
	var first error
	err := t.pg.conn.Raw(func(dc any) error {
		c, ok := dc.(interface{ Conn() *pgx.Conn })
		if !ok {
			return fmt.Errorf("sqlstore: the postgres driver connection is a %T, not pgx's", dc)
		}
		b := &pgx.Batch{}
		for _, s := range stmts {
			b.Queue(t.d.q(s.query), s.args...)
		}
		br := c.Conn().SendBatch(t.ctx, b)
		for _, s := range stmts {
			var err error
			if s.rows != nil {
				err = readRows(br, s.rows)
			} else {
				_, err = br.Exec()
			}
			if err != nil && first == nil {
				first = err
			}
		}
		if err := br.Close(); err != nil && first == nil {
			first = err
		}
		if first != nil && pgconn.SafeToRetry(first) {
			// Nothing reached the server (a connection the pool kept after it died): drop
			// the connection; the closure runs again on another (check records a retry).
			return driver.ErrBadConn
		}
		return nil
	})
	if errors.Is(err, driver.ErrBadConn) && first != nil {
		return errRetryConn{first}
	}
	if err != nil {
		return err
	}
	return first
}

// readRows reads the next result of br with read.
func readRows(br pgx.BatchResults, read func(pgx.Rows) error) error {
	rows, err := br.Query()
	if err != nil {
		return err
	}
	defer rows.Close()
	if err := read(rows); err != nil {
		return err
	}
	rows.Close()
	return rows.Err()
}

// errRetryConn is a batch that failed before reaching the server: the transaction is run
// again on another connection.
type errRetryConn struct{ err error }

func (e errRetryConn) Error() string {
	return "sqlstore: connection lost before the statement: " + e.err.Error()
}
func (e errRetryConn) Unwrap() error { return e.err }

// commitPostgres sends the deferred statements and COMMIT in one round trip (nothing when the
// transaction sent nothing and defers nothing).
func (t *txn) commitPostgres() error {
	var late []statement
	if !t.pg.eachStatement { // SERIALIZABLE: out of its conflict checks (deferAfterCommit)
		late = t.takeAfterCommit()
		defer t.runAfterCommit(late)
	}
	stmts := t.pendingBefore("")
	if !t.pg.begun {
		if len(stmts) == 0 {
			return nil
		}
		t.pg.begun = true
		stmts = append([]statement{{query: t.pg.begin}}, stmts...)
	}
	if err := t.check(t.batch(append(stmts, statement{query: "COMMIT"}))); err != nil {
		return err
	}
	t.pg.ended = true
	return nil
}

// runAfterCommit runs the statements deferred past the commit (deferAfterCommit), each in a
// transaction of its own, once the commit has succeeded; a failure drops the statement.
func (t *txn) runAfterCommit(late []statement) {
	if len(late) == 0 || t.pg.begun && !t.pg.ended {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(t.ctx), rollbackTimeout)
	defer cancel()
	for _, st := range late {
		t.count.Add(1)
		t.trips.Add(1)
		_, _ = t.pg.conn.ExecContext(ctx, t.d.q(st.query), st.args...)
	}
}

// rollbackTimeout bounds the ROLLBACK of a transaction whose context is done.
const rollbackTimeout = 5 * time.Second

// endPostgres rolls the transaction back when it is still open and returns the connection to
// the pool.
func (t *txn) endPostgres() {
	if t.pg.begun && !t.pg.ended {
		t.count.Add(1)
		t.trips.Add(1)
		ctx, cancel := context.WithTimeout(context.WithoutCancel(t.ctx), rollbackTimeout)
		_, _ = t.pg.conn.ExecContext(ctx, "ROLLBACK")
		cancel()
	}
	t.unlockChannel()
	_ = t.pg.conn.Close()
}
