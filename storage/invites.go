package storage

import (
	"github.com/teamchat/chat/users"
)

// InviteReader reads invitation links.
type InviteReader interface {
	// Get returns one invitation (revoked and expired ones included); ErrNotFound for an
	// unknown id.
	Get(users.InviteID) (users.Invite, error)
	// GetByKey finds an invitation by its key; ErrNotFound when none has it.
	GetByKey(key string) (users.Invite, error)
	// List returns every invitation, ascending by id.
	List() ([]users.Invite, error)
}

// InviteWriter reads and writes invitation links.
type InviteWriter interface {
	InviteReader
	// Create stores a new invitation (its ID is ignored) and returns its id. ErrConflict when
	// the key is taken.
	Create(users.Invite) (users.InviteID, error)
	// Revoke marks an invitation revoked; ErrNotFound for an unknown id.
	Revoke(users.InviteID) error
	// Update replaces an invitation's key, times and state (Key, Created, ExpiresAt, Revoked,
	// Used). ErrNotFound for an unknown id; ErrConflict when the key is taken.
	Update(users.Invite) error
	// Edit replaces what an invitation grants (InvitedAs, ChannelIDs, GroupIDs,
	// IncludeRealmDefaultSubscriptions, WelcomeMessageCustomText). ErrNotFound for an
	// unknown id.
	Edit(users.Invite) error
}
