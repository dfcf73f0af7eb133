package sqlstore

import (
	"database/sql"
	"fmt"

	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// sessionTx is the web sessions accessor.
type sessionTx struct{ t *txn }

func (a sessionTx) Get(key string) (storage.Session, error) {
	s := storage.Session{Key: key}
	err := a.t.get("SELECT user_id, expires FROM web_sessions WHERE session_key = ?", []any{key}, &s.UserID, &s.Expires)
	return s, err
}

func (a sessionTx) ListUser(user users.ID) ([]storage.Session, error) {
	out, err := scanAll(a.t, func(r *sql.Rows) (storage.Session, error) {
		var s storage.Session
		err := r.Scan(&s.Key, &s.UserID, &s.Expires)
		return s, err
	}, "SELECT session_key, user_id, expires FROM web_sessions WHERE user_id = ? ORDER BY expires, session_key", user)
	if out == nil && err == nil {
		out = []storage.Session{}
	}
	return out, err
}

func (a sessionTx) Create(s storage.Session) error {
	return a.t.guarded(func() error {
		_, err := a.t.exec("INSERT INTO web_sessions (session_key, user_id, expires) VALUES (?, ?, ?)", s.Key, s.UserID, s.Expires)
		return err
	})
}

func (a sessionTx) Delete(key string) error {
	res, err := a.t.exec("DELETE FROM web_sessions WHERE session_key = ?", key)
	if err != nil {
		return err
	}
	return mustAffect(res, "session", "")
}

func (a sessionTx) DeleteUser(user users.ID, keep string) (int, error) {
	res, err := a.t.exec("DELETE FROM web_sessions WHERE user_id = ? AND session_key <> ?", user, keep)
	return affected(res, err)
}

func (a sessionTx) DeleteExpired(now int64) (int, error) {
	res, err := a.t.exec("DELETE FROM web_sessions WHERE expires <= ?", now)
	return affected(res, err)
}

func (r *readTx) Sessions() storage.SessionReader { return sessionTx{r.t} }
func (w *tx) Sessions() storage.SessionWriter     { return sessionTx{w.t} }

// affected is the number of rows a write changed.
func affected(res sql.Result, err error) (int, error) {
	if err != nil {
		return 0, err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, fmt.Errorf("sqlstore: rows affected: %w", err)
	}
	return int(n), nil
}
