package storage

import (
	"github.com/teamchat/chat/users"
)

// ProfileFieldReader reads custom profile fields and users' values.
type ProfileFieldReader interface {
	// List returns every field, by Order then id.
	List() ([]users.ProfileField, error)
	Get(users.ProfileFieldID) (users.ProfileField, error)
	// Values returns the values of the given users (all users when ids is nil), by user id
	// then field id.
	Values(ids []users.ID) ([]users.ProfileValue, error)
}

// ProfileFieldWriter reads and writes custom profile fields and users' values.
type ProfileFieldWriter interface {
	ProfileFieldReader
	// Create stores a new field and returns its id. ErrConflict when the name is taken.
	Create(users.ProfileField) (users.ProfileFieldID, error)
	// Update replaces a field (its type included). ErrNotFound for an unknown id; ErrConflict
	// when another field has the name.
	Update(users.ProfileField) error
	// Delete removes a field and every user's value of it. ErrNotFound for an unknown id.
	Delete(users.ProfileFieldID) error
	// PutValues creates or replaces values (one per user and field).
	PutValues([]users.ProfileValue) error
	// DeleteValues removes one user's values of the given fields (absent ones are ignored).
	DeleteValues(user users.ID, fields []users.ProfileFieldID) error
}
