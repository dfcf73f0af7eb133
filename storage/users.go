package storage

import (
	"github.com/teamchat/chat/users"
)

// UserReader reads users.
type UserReader interface {
	Get(users.ID) (users.User, error)
	// GetByEmail finds a user by delivery email, case-insensitively.
	GetByEmail(email string) (users.User, error)
	GetByAPIKey(key string) (users.User, error)
	// GetMany returns the users with the given ids that exist, ascending by id.
	GetMany(ids []users.ID) ([]users.User, error)
	// List returns every user, ascending by id.
	List() ([]users.User, error)
	// ListShared returns what List returns, but the list may be shared with other
	// transactions (a backend hands out the list it keeps instead of a copy): the caller must
	// not modify it. Decisions that only read the users (the Service's world) use it to copy
	// nothing.
	ListShared() ([]users.User, error)
	// ActiveSince lists the users whose latest recorded activity (SetLastActive) is at or
	// after t (Unix seconds), ascending by id.
	ActiveSince(t int64) ([]users.ID, error)
}

// UserWriter reads and writes users.
type UserWriter interface {
	UserReader
	// Create stores a new user and returns its id (the ID field is ignored). ErrConflict when the
	// email (case-insensitively) or the API key is taken.
	Create(users.User) (users.ID, error)
	// Update replaces a user. ErrNotFound for an unknown id; ErrConflict as for Create.
	Update(users.User) error
	// SetLastActive records that the given users were active at t (Unix seconds). A time
	// before the one recorded for a user is ignored.
	SetLastActive(t int64, ids ...users.ID) error
	// ReserveIDs keeps the ids up to through out of Create's reach: the next user created
	// gets an id above through (and above every id handed out before). It changes no user.
	// (On PostgreSQL the reservation outlives a transaction that rolls back.)
	ReserveIDs(through users.ID) error
}
