package storage

import "github.com/teamchat/chat/users"

// Session is a web session (a browser logged in by cookie). Key is the SHA-256 of the
// session id the cookie carries, in hex: the id itself is never stored, so a copy of the
// store logs nobody in.
type Session struct {
	Key     string
	UserID  users.ID
	Expires int64 // Unix seconds; the session is valid strictly before
}

// SessionReader reads web sessions.
type SessionReader interface {
	// Get returns the session of a key, expired or not; ErrNotFound when none.
	Get(key string) (Session, error)
	// ListUser returns a user's sessions, the soonest to expire first (then by key).
	ListUser(user users.ID) ([]Session, error)
}

// SessionWriter reads and writes web sessions.
type SessionWriter interface {
	SessionReader
	// Create stores a new session; ErrConflict when its key exists.
	Create(Session) error
	// Delete removes a session by key; ErrNotFound when none.
	Delete(key string) error
	// DeleteUser removes every session of a user except the one whose key is keep ("" keeps
	// none), and reports how many it removed.
	DeleteUser(user users.ID, keep string) (int, error)
	// DeleteExpired removes the sessions whose Expires is at or before now, and reports how
	// many it removed.
	DeleteExpired(now int64) (int, error)
}
