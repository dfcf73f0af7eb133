package storage

import (
	"github.com/teamchat/chat/users"
)

// GroupReader reads user groups.
type GroupReader interface {
	// Every group read comes with its direct members ascending (users.NewSortedMembershipFunc
	// relies on it).
	Get(users.GroupID) (users.Group, error)
	GetByName(name string) (users.Group, error)
	// List returns every group, ascending by id.
	List() ([]users.Group, error)
	// ListShared returns what List returns, but the list and every slice inside its groups
	// may be shared with other transactions (a backend hands out the list it keeps instead
	// of a copy): the caller must not modify any of it. Decisions that only read the groups
	// (the Service's world, once per transaction) use it to allocate nothing for them.
	ListShared() ([]users.Group, error)
	// ListForUser returns the groups the user is a direct member of, ascending by id.
	ListForUser(users.ID) ([]users.Group, error)
}

// GroupWriter reads and writes user groups.
type GroupWriter interface {
	GroupReader
	// Create stores a new group and returns its id. ErrConflict when the name is taken.
	Create(users.Group) (users.GroupID, error)
	// Update replaces a group (name, description, members, subgroups, ...).
	Update(users.Group) error
	// AddMembers adds direct members to a group (members already present are kept once).
	AddMembers(users.GroupID, []users.ID) error
	// RemoveMembers removes direct members from a group (absent ones are ignored).
	RemoveMembers(users.GroupID, []users.ID) error
}
