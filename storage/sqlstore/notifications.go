package sqlstore

import (
	"database/sql"
	"fmt"
	"slices"
	"strings"

	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

func (r *readTx) PendingEmails() storage.PendingEmailReader { return pendingEmailTx{r.t} }
func (w *tx) PendingEmails() storage.PendingEmailWriter     { return pendingEmailTx{w.t} }

// pendingEmailTx is the pending email notifications accessor.
type pendingEmailTx struct{ t *txn }

const pendingEmailColumns = "id, user_id, message_id, trigger_kind, due_at, attempts"

func scanPendingEmail(r *sql.Rows) (storage.PendingEmail, error) {
	var p storage.PendingEmail
	err := r.Scan(&p.ID, &p.UserID, &p.MessageID, &p.Trigger, &p.DueAt, &p.Attempts)
	return p, err
}

func (a pendingEmailTx) list(q string, args ...any) ([]storage.PendingEmail, error) {
	list, err := scanAll(a.t, scanPendingEmail, q, args...)
	if list == nil && err == nil {
		list = []storage.PendingEmail{}
	}
	return list, err
}

func (a pendingEmailTx) List() ([]storage.PendingEmail, error) {
	return a.list("SELECT " + pendingEmailColumns + " FROM pending_emails ORDER BY id")
}

func (a pendingEmailTx) ListForUser(u users.ID) ([]storage.PendingEmail, error) {
	return a.list("SELECT "+pendingEmailColumns+" FROM pending_emails WHERE user_id = ? ORDER BY id", u)
}

func (a pendingEmailTx) Create(list []storage.PendingEmail) error {
	for chunk := range slices.Chunk(list, botStorageBatch) {
		args := make([]any, 0, 5*len(chunk))
		for _, p := range chunk {
			args = append(args, p.UserID, p.MessageID, p.Trigger, p.DueAt, p.Attempts)
		}
		rows := strings.TrimSuffix(strings.Repeat("(?, ?, ?, ?, ?), ", len(chunk)), ", ")
		if _, err := a.t.exec("INSERT INTO pending_emails (user_id, message_id, trigger_kind, due_at, attempts) VALUES "+
			rows, args...); err != nil {
			return fmt.Errorf("sqlstore: pending emails: %w", err)
		}
	}
	return a.t.live()
}

// ClaimDue locks the rows it returns on PostgreSQL and skips rows another transaction holds;
// SQLite's single writer connection serialises every claim already.
func (a pendingEmailTx) ClaimDue(now int64, limit int) ([]storage.PendingEmail, error) {
	q := a.t.claiming("SELECT " + pendingEmailColumns + " FROM pending_emails WHERE due_at <= ? ORDER BY due_at, id LIMIT ?")
	return a.list(q, now, limit)
}

func (a pendingEmailTx) Update(p storage.PendingEmail) error {
	res, err := a.t.exec("UPDATE pending_emails SET due_at = ?, attempts = ? WHERE id = ?", p.DueAt, p.Attempts, p.ID)
	if err != nil {
		return err
	}
	return mustAffect(res, "pending email", p.ID)
}

func (a pendingEmailTx) Delete(ids []int64) error {
	for chunk := range slices.Chunk(ids, botStorageBatch) {
		args := make([]any, len(chunk))
		for i, id := range chunk {
			args[i] = id
		}
		q := "DELETE FROM pending_emails WHERE id IN (" + strings.TrimSuffix(strings.Repeat("?, ", len(chunk)), ", ") + ")"
		if _, err := a.t.exec(q, args...); err != nil {
			return fmt.Errorf("sqlstore: pending emails: %w", err)
		}
	}
	return nil
}

func (a pendingEmailTx) ClaimDigestDay(day int64) (bool, error) {
	res, err := a.t.exec("INSERT INTO digest_days (day) VALUES (?) ON CONFLICT (day) DO NOTHING", day)
	if err != nil {
		return false, fmt.Errorf("sqlstore: digest days: %w", err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}
