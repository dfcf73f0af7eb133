package sqlstore

import (
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// queueTx is the persisted-queues accessor.
type queueTx struct{ t *txn }

func scanQueue(row *sql.Rows) (storage.SavedQueue, error) {
	var q storage.SavedQueue
	err := row.Scan(&q.ID, &q.Owner, &q.State)
	return q, err
}

// byPrefix is the condition selecting the queues whose ids start with a prefix, and its
// arguments (characters, as both dialects' substr counts them).
func byPrefix(prefix string) (string, []any) {
	return "substr(id, 1, ?) = ?", []any{utf8.RuneCountInString(prefix), prefix}
}

func (a queueTx) List(prefix string) ([]storage.SavedQueue, error) {
	cond, args := byPrefix(prefix)
	return scanAll(a.t, scanQueue, "SELECT id, owner, state FROM saved_queues WHERE "+cond+" ORDER BY id", args...)
}

func (a queueTx) ReplaceAll(prefix string, qs []storage.SavedQueue) error {
	seen := make(map[string]bool, len(qs))
	rows := make([][]any, len(qs))
	for i, q := range qs {
		if seen[q.ID] || !strings.HasPrefix(q.ID, prefix) {
			return fmt.Errorf("sqlstore: queue id %s taken or without prefix %q: %w", q.ID, prefix, storage.ErrConflict)
		}
		seen[q.ID] = true
		rows[i] = []any{q.ID, q.Owner, q.State}
	}
	cond, args := byPrefix(prefix)
	if _, err := a.t.exec("DELETE FROM saved_queues WHERE "+cond, args...); err != nil {
		return err
	}
	return insertRows(a.t, "INSERT INTO saved_queues (id, owner, state)", 3, rows, "")
}

func (a queueTx) LiveNodes(owner users.ID, since int64) ([]string, error) {
	return scanAll(a.t, func(r *sql.Rows) (string, error) {
		var node string
		err := r.Scan(&node)
		return node, err
	}, "SELECT node FROM live_queue_owners WHERE owner = ? AND seen_at >= ? ORDER BY node", owner, since)
}

func (a queueTx) ReportLive(node string, owners []users.ID, at int64) error {
	if _, err := a.t.exec("DELETE FROM live_queue_owners WHERE node = ?", node); err != nil {
		return err
	}
	owners = slices.Clone(owners)
	slices.Sort(owners)
	owners = slices.Compact(owners)
	rows := make([][]any, len(owners))
	for i, o := range owners {
		rows[i] = []any{node, o, at}
	}
	return insertRows(a.t, "INSERT INTO live_queue_owners (node, owner, seen_at)", 3, rows, "")
}

func (a queueTx) MarkLive(node string, owner users.ID, at int64) error {
	_, err := a.t.exec("INSERT INTO live_queue_owners (node, owner, seen_at) VALUES (?, ?, ?)"+
		" ON CONFLICT (node, owner) DO UPDATE SET seen_at = excluded.seen_at", node, owner, at)
	return err
}
