package storage

import (
	"github.com/teamchat/chat/linkifiers"
)

// LinkifierReader reads the organization's linkifiers.
type LinkifierReader interface {
	// Get returns one linkifier; ErrNotFound for an unknown id.
	Get(linkifiers.ID) (linkifiers.Linkifier, error)
	// List returns every linkifier ordered by Order, then by id.
	List() ([]linkifiers.Linkifier, error)
}

// LinkifierWriter reads and writes linkifiers.
type LinkifierWriter interface {
	LinkifierReader
	// Create stores a new linkifier after every existing one (its ID and Order are ignored)
	// and returns its id. ErrConflict when another linkifier has the same pattern.
	Create(linkifiers.Linkifier) (linkifiers.ID, error)
	// Update replaces pattern, templates and example of a linkifier (its Order is kept).
	// ErrNotFound for an unknown id; ErrConflict as for Create.
	Update(linkifiers.Linkifier) error
	// Delete removes a linkifier; ErrNotFound for an unknown id.
	Delete(linkifiers.ID) error
	// Reorder gives the linkifiers the order of ids, which must list every linkifier exactly
	// once (ErrNotFound for an unknown id).
	Reorder(ids []linkifiers.ID) error
}

// PlaygroundReader reads the organization's code playgrounds.
type PlaygroundReader interface {
	// Get returns one playground; ErrNotFound for an unknown id.
	Get(linkifiers.PlaygroundID) (linkifiers.Playground, error)
	// List returns every playground, ascending by id.
	List() ([]linkifiers.Playground, error)
}

// PlaygroundWriter reads and writes code playgrounds.
type PlaygroundWriter interface {
	PlaygroundReader
	// Create stores a new playground and returns its id. ErrConflict when another has the
	// same language and name.
	Create(linkifiers.Playground) (linkifiers.PlaygroundID, error)
	// Delete removes a playground; ErrNotFound for an unknown id.
	Delete(linkifiers.PlaygroundID) error
}
