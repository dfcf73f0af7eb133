package storage

import (
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/uploads"
	"github.com/teamchat/chat/users"
)

// AttachmentReader reads uploaded files' rows and their links to messages (the bytes live in
// a blobs.Store).
type AttachmentReader interface {
	// Get returns one attachment; ErrNotFound when there is none.
	Get(uploads.ID) (uploads.Attachment, error)
	// GetByPath returns the attachment with the path id; ErrNotFound when there is none.
	GetByPath(pathID string) (uploads.Attachment, error)
	// GetByPaths returns the attachments with the given path ids that exist, ascending by id.
	GetByPaths(pathIDs []string) ([]uploads.Attachment, error)
	// ListByOwner returns the user's attachments, ascending by id.
	ListByOwner(users.ID) ([]uploads.Attachment, error)
	// TotalSize is the size of every attachment together, in bytes.
	TotalSize() (int64, error)
	// Links returns the links of the given attachments, ascending by attachment id then
	// message id.
	Links(ids []uploads.ID) ([]uploads.Link, error)
	// MessageLinks returns the links of the given messages, ascending by message id then
	// attachment id.
	MessageLinks(ids []messages.ID) ([]uploads.Link, error)
	// URLKey returns the secret that signs temporary upload URLs; ErrNotFound before one was
	// put.
	URLKey() ([]byte, error)
}

// AttachmentWriter reads and writes attachments.
type AttachmentWriter interface {
	AttachmentReader
	// Create stores a new attachment (its ID is ignored) and returns its id. ErrConflict when
	// the path id is taken.
	Create(uploads.Attachment) (uploads.ID, error)
	// Delete removes the attachments and their links; unknown ids are ignored.
	Delete(ids []uploads.ID) error
	// Link adds links; those present already are ignored.
	Link([]uploads.Link) error
	// Unlink removes links; missing ones are ignored.
	Unlink([]uploads.Link) error
	// PutURLKey stores the URL-signing secret. ErrConflict when one is stored already.
	PutURLKey([]byte) error
}
