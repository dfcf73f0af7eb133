package sqlstore

import "strings"

// Deferred inserts: rows a transaction writes but reads only later, held back and written with
// one multi-row statement when the transaction next runs any other statement, or at its
// commit. On SQLite a new message's recipient rows, direct-message index and search entry go
// this way (on PostgreSQL one statement writes the message with them), as does the index of an
// edited direct message on both, so that a transaction sending many messages (the scheduler's
// batches) writes all their rows in a few statements instead of three per message, while every
// read, of whatever table, still sees every row written before it: the flush precedes it.
//
// The statements that run ahead of the pending rows (aheadOfPending) must neither read nor
// constrain the tables those rows go to; the one such statement is a message's own INSERT,
// which the pending rows reference.
//
// The search entries (SQLite's FTS5 table message_search) wait longer: for a statement that
// names their table (every statement that reads or writes it does: no trigger touches it), or
// the commit. Once a transaction has written an FTS5 table, every later statement that opens
// a statement journal (a multi-row insert, an upsert) makes FTS5 write out the entries it
// holds in memory as an index segment of its own; written last, a transaction's entries (a
// whole group's: internal/engine/commits.go) make one segment, at the commit.
//
// A statement whose result nothing needs can be deferred the same way (deferExec): on
// PostgreSQL the sender's activity after a message, and the message itself when its id was
// reserved ahead (ahead.go). What is pending at the commit goes in one round trip with the
// COMMIT there (pipeline.go). Deferred statements run in the order they were deferred; rows
// are added to a pending INSERT of the same statement only when no deferred statement follows
// it.

// deferredInsert is one multi-row INSERT waiting for its flush (insertRows' arguments), or
// one deferred statement (query set).
type deferredInsert struct {
	head, tail string
	width      int
	rows       [][]any
	late       string // the table of rows that wait for a statement naming it (message_search)

	query string
	args  []any
	// afterCommit: on PostgreSQL, a statement still pending at the commit runs right after it,
	// outside the transaction (deferAfterCommit).
	afterCommit bool
}

// deferInsert holds rows back for the insert head ... tail, appended to the rows already
// pending for the same statement.
func (t *txn) deferInsert(head string, width int, rows [][]any, tail string) {
	t.deferRows(deferredInsert{head: head, tail: tail, width: width, rows: rows})
}

// deferLate is deferInsert for rows of table that wait for a statement naming table, or the
// commit (the search entries, above).
func (t *txn) deferLate(table, head string, width int, rows [][]any) {
	t.deferRows(deferredInsert{head: head, width: width, rows: rows, late: table})
}

func (t *txn) deferRows(d deferredInsert) {
	t.writes++
	for i := len(t.pending) - 1; i >= 0 && t.pending[i].query == ""; i-- {
		if p := &t.pending[i]; p.head == d.head && p.tail == d.tail {
			p.rows = append(p.rows, d.rows...)
			return
		}
	}
	t.pending = append(t.pending, d)
}

// deferExec holds back query, a statement whose result nothing needs, until the transaction's
// next statement or its commit. Its failure is reported there.
func (t *txn) deferExec(query string, args ...any) {
	t.writes++
	t.pending = append(t.pending, deferredInsert{query: query, args: args})
}

// deferAfterCommit is deferExec for a statement that may also run after the commit of a
// SERIALIZABLE transaction, in a transaction of its own (PostgreSQL: READ COMMITTED, outside
// the serializable transaction's conflict checks; a READ COMMITTED transaction, which has no
// such checks, sends it with its COMMIT): one whose effect only moves a value forward (a greatest time), so that
// running it late, or losing it to a crash between the commit and it, breaks nothing. A read
// of the transaction that comes before the commit flushes it inside the transaction, as any
// deferred statement. A statement that runs after the commit and fails is dropped: the
// transaction has committed.
func (t *txn) deferAfterCommit(query string, args ...any) {
	t.writes++
	t.pending = append(t.pending, deferredInsert{query: query, args: args, afterCommit: true})
}

// takeAfterCommit removes the pending statements that may run after the commit and returns
// them, in order.
func (t *txn) takeAfterCommit() []statement {
	var late []statement
	kept := t.pending[:0]
	for _, p := range t.pending {
		if p.afterCommit {
			late = append(late, statement{query: p.query, args: p.args})
			continue
		}
		kept = append(kept, p)
	}
	t.pending = kept
	return late
}

// flush writes every pending row: before the commit, and at the end of a closure in a
// savepoint.
func (t *txn) flush() error { return t.flushBefore("") }

// flushBefore writes the pending rows that must precede query: every statement but the ones
// ahead of them calls it first. Late rows wait unless query names their table ("": all).
func (t *txn) flushBefore(query string) error {
	for _, st := range t.pendingBefore(query) {
		if _, err := t.exec(st.query, st.args...); err != nil {
			return err
		}
	}
	return nil
}

// pendingBefore removes the pending statements that must precede query ("": all, the commit)
// and returns them, in order.
func (t *txn) pendingBefore(query string) []statement {
	if len(t.pending) == 0 {
		return nil
	}
	var write []statement
	var wait []deferredInsert
	for _, p := range t.pending {
		switch {
		case p.late != "" && query != "" && !strings.Contains(query, p.late):
			wait = append(wait, p)
		case p.query != "":
			write = append(write, statement{query: p.query, args: p.args})
		default:
			write = append(write, insertStatements(p.head, p.width, p.rows, p.tail)...)
		}
	}
	t.pending = wait
	return write
}
