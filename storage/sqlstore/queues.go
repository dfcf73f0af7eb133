package sqlstore

import (
	"database/sql"
	"fmt"

	"github.com/teamchat/chat/storage"
)

// queueTx is the persisted-queues accessor.
type queueTx struct{ t *txn }

func scanQueue(row *sql.Rows) (storage.SavedQueue, error) {
	var q storage.SavedQueue
	err := row.Scan(&q.ID, &q.Owner, &q.State)
	return q, err
}

func (a queueTx) List() ([]storage.SavedQueue, error) {
	return scanAll(a.t, scanQueue, "SELECT id, owner, state FROM saved_queues ORDER BY id")
}

func (a queueTx) ReplaceAll(qs []storage.SavedQueue) error {
	seen := make(map[string]bool, len(qs))
	rows := make([][]any, len(qs))
	for i, q := range qs {
		if seen[q.ID] {
			return fmt.Errorf("sqlstore: queue id %s taken: %w", q.ID, storage.ErrConflict)
		}
		seen[q.ID] = true
		rows[i] = []any{q.ID, q.Owner, q.State}
	}
	if _, err := a.t.exec("DELETE FROM saved_queues"); err != nil {
		return err
	}
	return insertRows(a.t, "INSERT INTO saved_queues (id, owner, state)", 3, rows, "")
}
