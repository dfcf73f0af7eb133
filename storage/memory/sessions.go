package memory

import (
	"cmp"
	"slices"
	"strings"

	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// sessionTx is the web sessions accessor; j is nil in a read-only transaction.
type sessionTx struct {
	t *readTx
	j *journal
}

func (a sessionTx) Get(key string) (storage.Session, error) {
	if err := a.t.live(); err != nil {
		return storage.Session{}, err
	}
	s, ok := a.t.d.sessions[key]
	if !ok {
		return storage.Session{}, notFound("session", "")
	}
	return s, nil
}

func (a sessionTx) ListUser(user users.ID) ([]storage.Session, error) {
	if err := a.t.live(); err != nil {
		return nil, err
	}
	out := []storage.Session{}
	for _, s := range a.t.d.sessions {
		if s.UserID == user {
			out = append(out, s)
		}
	}
	slices.SortFunc(out, func(x, y storage.Session) int {
		return cmp.Or(cmp.Compare(x.Expires, y.Expires), strings.Compare(x.Key, y.Key))
	})
	return out, nil
}

func (a sessionTx) Create(s storage.Session) error {
	if err := a.t.live(); err != nil {
		return err
	}
	if a.t.d.sessions == nil {
		a.t.d.sessions = map[string]storage.Session{}
	}
	if _, ok := a.t.d.sessions[s.Key]; ok {
		return conflict("session key")
	}
	setKey(a.j, a.t.d.sessions, s.Key, s)
	return nil
}

func (a sessionTx) Delete(key string) error {
	if err := a.t.live(); err != nil {
		return err
	}
	if _, ok := a.t.d.sessions[key]; !ok {
		return notFound("session", "")
	}
	deleteKey(a.j, a.t.d.sessions, key)
	return nil
}

func (a sessionTx) DeleteUser(user users.ID, keep string) (int, error) {
	return a.deleteWhere(func(s storage.Session) bool { return s.UserID == user && s.Key != keep })
}

func (a sessionTx) DeleteExpired(now int64) (int, error) {
	return a.deleteWhere(func(s storage.Session) bool { return s.Expires <= now })
}

func (a sessionTx) deleteWhere(match func(storage.Session) bool) (int, error) {
	if err := a.t.live(); err != nil {
		return 0, err
	}
	n := 0
	for key, s := range a.t.d.sessions {
		if match(s) {
			deleteKey(a.j, a.t.d.sessions, key)
			n++
		}
	}
	return n, nil
}

func (t *readTx) Sessions() storage.SessionReader { return sessionTx{t: t} }
func (t *tx) Sessions() storage.SessionWriter     { return sessionTx{t: &t.readTx, j: t.j} }
