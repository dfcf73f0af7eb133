package sqlstore

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

// deferredInsert is one multi-row INSERT waiting for its flush: insertRows' arguments.
type deferredInsert struct {
	head, tail string
	width      int
	rows       [][]any
}

// deferInsert holds rows back for the insert head ... tail, appended to the rows already
// pending for the same statement.
func (t *txn) deferInsert(head string, width int, rows [][]any, tail string) {
	for i := range t.pending {
		if p := &t.pending[i]; p.head == head && p.tail == tail {
			p.rows = append(p.rows, rows...)
			return
		}
	}
	t.pending = append(t.pending, deferredInsert{head: head, tail: tail, width: width, rows: rows})
}

// flush writes the pending rows; every statement but the ones ahead of them calls it first,
// and the commit does.
func (t *txn) flush() error {
	if len(t.pending) == 0 {
		return nil
	}
	pending := t.pending
	t.pending = nil
	for _, p := range pending {
		if err := insertRows(t, p.head, p.width, p.rows, p.tail); err != nil {
			return err
		}
	}
	return nil
}
