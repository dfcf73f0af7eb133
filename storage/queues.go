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

// The processes sharing one store also report which users have a live event queue in them
// (a client connected), with the time of the report, so that any process can tell whether a
// user is away from every client (Zulip's receiver_is_off_zulip looks at all their queues).

// QueueReader reads persisted event queues.
type QueueReader interface {
	// List returns the saved queues whose ids start with prefix, ascending by id.
	List(prefix string) ([]SavedQueue, error)
	// LiveNodes returns the nodes that reported, at or after since (UNIX milliseconds), a live
	// event queue of owner (ReportLive, MarkLive), ascending.
	LiveNodes(owner users.ID, since int64) ([]string, error)
}

// QueueWriter reads and replaces persisted event queues.
type QueueWriter interface {
	QueueReader
	// ReplaceAll deletes the saved queues whose ids start with prefix and stores qs instead
	// (nil or empty clears them). ErrConflict when two have the same id or one's id lacks the
	// prefix; nothing changes then.
	ReplaceAll(prefix string, qs []SavedQueue) error
	// ReportLive replaces what node reported before: owners have a live event queue there at
	// time at (UNIX milliseconds). Empty owners: none has.
	ReportLive(node string, owners []users.ID, at int64) error
	// MarkLive records that owner has a live event queue on node at time at, keeping the
	// node's other reports.
	MarkLive(node string, owner users.ID, at int64) error
}
