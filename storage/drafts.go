package storage

import (
	"github.com/teamchat/chat/drafts"
	"github.com/teamchat/chat/users"
)

// DraftReader reads drafts. Every method is scoped to one owner: another user's draft is
// ErrNotFound.
type DraftReader interface {
	// Get returns the user's draft with the id; ErrNotFound when the user has none with it.
	Get(user users.ID, id drafts.ID) (drafts.Draft, error)
	// ListForUser returns the user's drafts ordered by Timestamp ascending, then by id.
	ListForUser(user users.ID) ([]drafts.Draft, error)
	// SyncDisabled reports whether the user turned enable_drafts_synchronization off (false
	// for a user never changed).
	SyncDisabled(user users.ID) (bool, error)
}

// DraftWriter reads and writes drafts.
type DraftWriter interface {
	DraftReader
	// Create stores new drafts (their ID fields are ignored) and returns their ids, in the
	// order given.
	Create([]drafts.Draft) ([]drafts.ID, error)
	// Update replaces a draft of its UserID; ErrNotFound when that user has no draft with
	// the id.
	Update(drafts.Draft) error
	// Delete removes a draft of the user; ErrNotFound when the user has none with the id.
	Delete(user users.ID, id drafts.ID) error
	// DeleteForUser removes every draft of the user (none is fine).
	DeleteForUser(user users.ID) error
	// SetSyncDisabled records the user's enable_drafts_synchronization (inverted).
	SetSyncDisabled(user users.ID, disabled bool) error
}

// SnippetReader reads saved snippets, scoped to one owner like DraftReader.
type SnippetReader interface {
	// Get returns the user's snippet with the id; ErrNotFound when the user has none with it.
	Get(user users.ID, id drafts.SnippetID) (drafts.SavedSnippet, error)
	// ListForUser returns the user's snippets ascending by id.
	ListForUser(user users.ID) ([]drafts.SavedSnippet, error)
}

// SnippetWriter reads and writes saved snippets.
type SnippetWriter interface {
	SnippetReader
	// Create stores a new snippet (its ID is ignored) and returns its id.
	Create(drafts.SavedSnippet) (drafts.SnippetID, error)
	// Update replaces title and content of a snippet of its UserID; ErrNotFound when that
	// user has none with the id.
	Update(drafts.SavedSnippet) error
	// Delete removes a snippet of the user; ErrNotFound when the user has none with the id.
	Delete(user users.ID, id drafts.SnippetID) error
}

// NavigationViewReader reads navigation views, keyed by (user, fragment).
type NavigationViewReader interface {
	// Get returns the user's view with the fragment; ErrNotFound when there is none.
	Get(user users.ID, fragment string) (drafts.NavigationView, error)
	// ListForUser returns the user's views in the order they were added.
	ListForUser(user users.ID) ([]drafts.NavigationView, error)
}

// NavigationViewWriter reads and writes navigation views.
type NavigationViewWriter interface {
	NavigationViewReader
	// Create stores a new view; ErrConflict when the user already has one with the fragment,
	// or (for a named view) with the name.
	Create(drafts.NavigationView) error
	// Update replaces is_pinned and name of the user's view with the fragment; ErrNotFound
	// when there is none, ErrConflict when another view of the user has the name.
	Update(drafts.NavigationView) error
	// Delete removes the user's view with the fragment; ErrNotFound when there is none.
	Delete(user users.ID, fragment string) error
}
