package storage

import (
	"github.com/teamchat/chat/users"
)

// UserStatusReader reads users' statuses.
type UserStatusReader interface {
	// Get returns a user's status; ErrNotFound when the user never set one.
	Get(users.ID) (users.Status, error)
	// List returns every stored status, by user id.
	List() ([]users.Status, error)
}

// UserStatusWriter reads and writes users' statuses.
type UserStatusWriter interface {
	UserStatusReader
	// Put creates or replaces a user's status.
	Put(users.Status) error
}

// MutedUserReader reads which users each user muted.
type MutedUserReader interface {
	// List returns the users that user muted, by muted user id.
	List(user users.ID) ([]users.MutedUser, error)
	// MutedBy returns the mutes of the given users (as the muted ones), ascending by muted
	// user, then by the user who muted.
	MutedBy(muted []users.ID) ([]users.MutedUser, error)
}

// MutedUserWriter reads and writes muted users.
type MutedUserWriter interface {
	MutedUserReader
	// Add records a mute. ErrConflict when the user already muted that user.
	Add(users.MutedUser) error
	// Remove deletes a mute. ErrNotFound when there is none.
	Remove(user, muted users.ID) error
}
