package storage

import "github.com/teamchat/chat/users"

// SavedQueue is an event queue persisted while the Service is stopped: its id, its owner and its
// state serialised by the chat package (options, pending events, last ids).
type SavedQueue struct {
	ID    string
	Owner users.ID
	State []byte
}

// Queues are grouped by a prefix of their ids: the processes sharing one store each save and
// restore their own queues, whose ids start with the process's node id ("n1:..."). The empty
// prefix selects every queue.

// QueueReader reads persisted event queues.
type QueueReader interface {
	// List returns the saved queues whose ids start with prefix, ascending by id.
	List(prefix string) ([]SavedQueue, error)
}

// QueueWriter reads and replaces persisted event queues.
type QueueWriter interface {
	QueueReader
	// ReplaceAll deletes the saved queues whose ids start with prefix and stores qs instead
	// (nil or empty clears them). ErrConflict when two have the same id or one's id lacks the
	// prefix; nothing changes then.
	ReplaceAll(prefix string, qs []SavedQueue) error
}
