package sqlstore

import (
	"database/sql"
	"fmt"
	"slices"
	"strings"

	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// botStorageBatch bounds the rows of one statement (SQLite allows 32766 parameters).
const botStorageBatch = 500

func (r *readTx) BotStorage() storage.BotStorageReader { return botStorageTx{r.t} }
func (w *tx) BotStorage() storage.BotStorageWriter     { return botStorageTx{w.t} }

// botStorageTx is the bot storage accessor: one row per key of a bot.
type botStorageTx struct{ t *txn }

// placeholders returns "?, ?, ..." for n parameters.
func placeholders(n int) string {
	return strings.TrimSuffix(strings.Repeat("?, ", n), ", ")
}

func (a botStorageTx) Get(bot users.ID, keys []string) (map[string]string, error) {
	out := map[string]string{}
	scan := func(r *sql.Rows) (struct{ k, v string }, error) {
		var e struct{ k, v string }
		return e, r.Scan(&e.k, &e.v)
	}
	if len(keys) == 0 {
		list, err := scanAll(a.t, scan, "SELECT entry_key, entry_value FROM bot_storage WHERE bot_id = ?", bot)
		for _, e := range list {
			out[e.k] = e.v
		}
		return out, err
	}
	for chunk := range slices.Chunk(keys, botStorageBatch) {
		args := []any{bot}
		for _, k := range chunk {
			args = append(args, k)
		}
		list, err := scanAll(a.t, scan, "SELECT entry_key, entry_value FROM bot_storage WHERE bot_id = ? AND entry_key IN ("+
			placeholders(len(chunk))+")", args...)
		if err != nil {
			return nil, err
		}
		for _, e := range list {
			out[e.k] = e.v
		}
	}
	return out, nil
}

func (a botStorageTx) Size(bot users.ID) (int64, error) {
	var n int64
	err := a.t.get("SELECT COALESCE(SUM(length(entry_key) + length(entry_value)), 0) FROM bot_storage WHERE bot_id = ?",
		[]any{bot}, &n)
	return n, err
}

func (a botStorageTx) Put(bot users.ID, entries map[string]string) error {
	keys := make([]string, 0, len(entries))
	for k := range entries {
		keys = append(keys, k)
	}
	slices.Sort(keys) // the same order on every run, so concurrent writers lock rows alike
	for chunk := range slices.Chunk(keys, botStorageBatch) {
		args := make([]any, 0, 3*len(chunk))
		for _, k := range chunk {
			args = append(args, bot, k, entries[k])
		}
		rows := strings.TrimSuffix(strings.Repeat("(?, ?, ?), ", len(chunk)), ", ")
		if _, err := a.t.exec("INSERT INTO bot_storage (bot_id, entry_key, entry_value) VALUES "+rows+
			" ON CONFLICT (bot_id, entry_key) DO UPDATE SET entry_value = excluded.entry_value", args...); err != nil {
			return fmt.Errorf("sqlstore: bot storage: %w", err)
		}
	}
	return a.t.live()
}

func (a botStorageTx) Delete(bot users.ID, keys []string) (int, error) {
	if len(keys) == 0 {
		res, err := a.t.exec("DELETE FROM bot_storage WHERE bot_id = ?", bot)
		return affected(res, err)
	}
	keys = slices.Clone(keys)
	slices.Sort(keys)
	keys = slices.Compact(keys)
	total := 0
	for chunk := range slices.Chunk(keys, botStorageBatch) {
		args := []any{bot}
		for _, k := range chunk {
			args = append(args, k)
		}
		n, err := affected(a.t.exec("DELETE FROM bot_storage WHERE bot_id = ? AND entry_key IN ("+placeholders(len(chunk))+")", args...))
		if err != nil {
			return 0, err
		}
		total += n
	}
	return total, nil
}

func (r *readTx) ServiceJobs() storage.ServiceJobReader { return serviceJobTx{r.t} }
func (w *tx) ServiceJobs() storage.ServiceJobWriter     { return serviceJobTx{w.t} }

// serviceJobTx is the service jobs accessor.
type serviceJobTx struct{ t *txn }

const serviceJobColumns = "id, bot_id, message_id, trigger_kind, message, due_at, attempts"

func scanServiceJob(r *sql.Rows) (storage.ServiceJob, error) {
	var j storage.ServiceJob
	err := r.Scan(&j.ID, &j.BotID, &j.MessageID, &j.Trigger, &j.Message, &j.DueAt, &j.Attempts)
	return j, err
}

func (a serviceJobTx) List() ([]storage.ServiceJob, error) {
	list, err := scanAll(a.t, scanServiceJob, "SELECT "+serviceJobColumns+" FROM service_jobs ORDER BY id")
	if list == nil && err == nil {
		list = []storage.ServiceJob{}
	}
	return list, err
}

func (a serviceJobTx) Create(jobs []storage.ServiceJob) error {
	for chunk := range slices.Chunk(jobs, botStorageBatch) {
		args := make([]any, 0, 6*len(chunk))
		for _, j := range chunk {
			args = append(args, j.BotID, j.MessageID, j.Trigger, j.Message, j.DueAt, j.Attempts)
		}
		rows := strings.TrimSuffix(strings.Repeat("(?, ?, ?, ?, ?, ?), ", len(chunk)), ", ")
		if _, err := a.t.exec("INSERT INTO service_jobs (bot_id, message_id, trigger_kind, message, due_at, attempts) VALUES "+
			rows, args...); err != nil {
			return fmt.Errorf("sqlstore: service jobs: %w", err)
		}
	}
	return a.t.live()
}

// ClaimDue locks the rows it returns on PostgreSQL and skips rows another transaction holds;
// SQLite's single writer connection serialises every claim already.
func (a serviceJobTx) ClaimDue(now int64, limit int) ([]storage.ServiceJob, error) {
	q := a.t.claiming("SELECT " + serviceJobColumns + " FROM service_jobs WHERE due_at <= ? ORDER BY due_at, id LIMIT ?")
	list, err := scanAll(a.t, scanServiceJob, q, now, limit)
	if list == nil && err == nil {
		list = []storage.ServiceJob{}
	}
	return list, err
}

func (a serviceJobTx) Update(j storage.ServiceJob) error {
	res, err := a.t.exec("UPDATE service_jobs SET due_at = ?, attempts = ? WHERE id = ?", j.DueAt, j.Attempts, j.ID)
	if err != nil {
		return err
	}
	return mustAffect(res, "service job", j.ID)
}

func (a serviceJobTx) Delete(id int64) error {
	res, err := a.t.exec("DELETE FROM service_jobs WHERE id = ?", id)
	if err != nil {
		return err
	}
	return mustAffect(res, "service job", id)
}
