package storage

import (
	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/uploads"
)

// ArchiveID identifies one archive: the messages a retention pass removed in one batch
// (Zulip's ArchiveTransaction).
type ArchiveID int64

// Archive is what one retention batch removed, kept so that it can be restored until it is
// purged: the messages with their users' rows and reactions, and the attachments whose last
// link they were with the links (Zulip's ArchivedMessage, ArchivedUserMessage,
// ArchivedReaction and ArchivedAttachment).
type Archive struct {
	ID ArchiveID
	// ArchivedAt is when the batch ran (UNIX seconds).
	ArchivedAt  int64
	Messages    []messages.Message
	Rows        []messages.UserMessage
	Reactions   []messages.Reaction
	Attachments []uploads.Attachment
	Links       []uploads.Link
}

// ExpiredQuery selects messages a retention pass removes: those sent before Before in the
// channels ChannelIDs, and the direct messages too when Direct is set, the lowest ids first,
// at most Limit of them.
type ExpiredQuery struct {
	ChannelIDs []channels.ID
	Direct     bool
	Before     int64
	Limit      int
}

// ArchiveReader reads archives.
type ArchiveReader interface {
	// Get returns one archive; ErrNotFound when there is none.
	Get(ArchiveID) (Archive, error)
	// List returns the ids of the archives made before before (UNIX seconds; 0: all),
	// ascending, at most limit of them (0: all).
	List(before int64, limit int) ([]ArchiveID, error)
	// Expired returns the ids of the messages q selects, ascending. In a write transaction
	// run with UpdateReadCommitted, PostgreSQL locks them and skips those another
	// transaction holds, so that concurrent passes never select a message twice.
	Expired(q ExpiredQuery) ([]messages.ID, error)
}

// ArchiveWriter reads and writes archives.
type ArchiveWriter interface {
	ArchiveReader
	// Create stores an archive (its ID is ignored) and returns its id.
	Create(Archive) (ArchiveID, error)
	// Delete removes archives; unknown ids are ignored.
	Delete(ids []ArchiveID) error
	// Reinsert stores archived messages again under their own ids, with their rows and
	// reactions, in the search index as Create puts them. ErrConflict when an id is taken.
	Reinsert(msgs []messages.Message, rows []messages.UserMessage, reactions []messages.Reaction) error
}
