package storage

import "github.com/teamchat/chat/users"

// SavedQueue is an event queue persisted while the Service is stopped: its id, its owner and its
// state serialised by the chat package (options, pending events, last ids).
type SavedQueue struct {
	ID    string
	Owner users.ID
	State []byte
}

// QueueReader reads persisted event queues.
type QueueReader interface {
	// List returns every saved queue, ascending by id.
	List() ([]SavedQueue, error)
}

// QueueWriter reads and replaces persisted event queues.
type QueueWriter interface {
	QueueReader
	// ReplaceAll deletes every saved queue and stores qs instead (nil or empty clears them).
	// ErrConflict when two have the same id.
	ReplaceAll(qs []SavedQueue) error
}
