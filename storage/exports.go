package storage

import "github.com/teamchat/chat/users"

// Export is a data export of the organization (Zulip's RealmExport): who asked for it, of
// which type, and how it went. Times are Unix milliseconds; 0 means "not yet" (or never).
type Export struct {
	ID           int64
	ActingUserID users.ID
	// Type is Zulip's export_type: 1 public, 2 full with consent, 3 full.
	Type       int
	Time       int64 // when it was requested
	FinishedAt int64 // when its file was complete
	FailedAt   int64
	DeletedAt  int64
	// Key is the blob key of the finished tarball; Size its bytes.
	Key  string
	Size int64
	// FromPriorServer marks the record of an export this organization was imported from
	// (Zulip's export_from_prior_server).
	FromPriorServer bool
}

// Pending reports whether the export is still being made.
func (e Export) Pending() bool { return e.FinishedAt == 0 && e.FailedAt == 0 && e.DeletedAt == 0 }

// ExportReader reads the organization's data exports.
type ExportReader interface {
	// Get returns one export; ErrNotFound when there is none.
	Get(id int64) (Export, error)
	// List returns every export, ascending by id.
	List() ([]Export, error)
}

// ExportWriter reads and writes data exports.
type ExportWriter interface {
	ExportReader
	// Create stores a new export (its ID is ignored) and returns its id.
	Create(Export) (int64, error)
	// Update replaces an export; ErrNotFound for an unknown id.
	Update(Export) error
}
