package storage

import (
	"github.com/teamchat/chat/users"
)

// UserSettingsReader reads users' personal settings and pending email changes.
type UserSettingsReader interface {
	// Get returns a user's stored settings; a user without any gets the zero Settings.
	Get(users.ID) (users.Settings, error)
	// GetMany returns the stored settings of those of the given users that have any.
	GetMany([]users.ID) (map[users.ID]users.Settings, error)
	// List returns the stored settings of every user that has any (register's user_status
	// needs nearly every user's: one read of the table, not a lookup per user).
	List() (map[users.ID]users.Settings, error)
	// ListTrue returns the users whose stored settings hold name with the value true,
	// ascending. Every channel message asks (the users with
	// enable_stream_email_notifications, for missed-message emails): the SQL store answers
	// from a cached list, with no statement of its own.
	ListTrue(name string) ([]users.ID, error)
	// GetEmailChange finds a pending email change by key; ErrNotFound when there is none.
	GetEmailChange(key string) (users.EmailChange, error)
}

// UserSettingsWriter reads and writes users' personal settings and pending email changes.
type UserSettingsWriter interface {
	UserSettingsReader
	// PutMany replaces the stored settings of each user in the map.
	PutMany(map[users.ID]users.Settings) error
	// PutEmailChange stores a pending email change, replacing any other of the same user.
	// ErrConflict when the key is taken.
	PutEmailChange(users.EmailChange) error
	// DeleteEmailChange removes a pending email change (absent keys are ignored).
	DeleteEmailChange(key string) error
}
