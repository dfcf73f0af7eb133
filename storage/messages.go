package storage

import (
	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/users"
)

// MessageQuery selects messages for one user: those the user has a row for (received, or
// added to their history), and every message of HistoryChannels. Terms narrow the selection
// further (messages.Match decides what they match). The ids are bounded by MinID and MaxID
// (inclusive; MaxID 0 means no upper bound), and at most Limit messages are returned (0 means
// none): the lowest ids in the range, or the highest ones when Newest is set. The result is
// ascending by id either way.
type MessageQuery struct {
	User            users.ID
	HistoryChannels []channels.ID
	Terms           []messages.Term
	MinID, MaxID    messages.ID
	Newest          bool
	Limit           int
}

// MarkReadQuery selects unread rows of one user for MarkRead: those of channel ChannelID (0:
// of every message, direct ones included), in Topic when it is set (compared
// case-insensitively), with a message id above After (0: any), at most Limit of them (0:
// all), the oldest first. Batches of Limit, each starting after the last one's newest
// message, mark everything read in Zulip's order (its index of unread rows walks message ids
// upwards), which lets a backend move its read marks (storage/receivers.go) instead of
// writing rows.
type MarkReadQuery struct {
	User      users.ID
	ChannelID channels.ID
	Topic     *string
	After     messages.ID
	Limit     int
}

// MessageMatch is one message of a query's result with the user's flags on it; Received is
// false when the user has no row (the message comes from a channel's history).
type MessageMatch struct {
	Message  messages.Message
	Flags    messages.Flags
	Received bool
}

// ChannelActivity summarises a channel's messages: its oldest message id (0 when it has none),
// its newest message's time, and how many of its messages were sent in the window Activity was
// given.
type ChannelActivity struct {
	ChannelID      channels.ID
	FirstMessageID messages.ID
	LastTimestamp  int64
	RecentCount    int
}

// TopicSummary is one topic of a channel: its name as its newest message carries it and the
// id of that message.
type TopicSummary struct {
	Name  string
	MaxID messages.ID
}

// MessageReader reads messages and users' rows for them.
type MessageReader interface {
	// Get returns one message; ErrNotFound when there is none.
	Get(messages.ID) (messages.Message, error)
	// GetMany returns the messages with the given ids that exist, ascending by id.
	GetMany(ids []messages.ID) ([]messages.Message, error)
	// Scan returns at most limit messages of the organization with ids above after,
	// ascending by id: a walk over every message in bounded steps (exports).
	Scan(after messages.ID, limit int) ([]messages.Message, error)
	// Query runs a MessageQuery.
	Query(MessageQuery) ([]MessageMatch, error)
	// Rows returns the rows of the given messages (every user's), ascending by message id
	// then user id.
	Rows(ids []messages.ID) ([]messages.UserMessage, error)
	// UserRows returns the user's rows of the given messages, ascending by message id.
	UserRows(u users.ID, ids []messages.ID) ([]messages.UserMessage, error)
	// UserRowsWhere returns every row of the user whose flags include all of set and none of
	// clear, ascending by message id.
	UserRowsWhere(u users.ID, set, clear messages.Flags) ([]messages.UserMessage, error)
	// MaxReceivedID is the highest message id the user received: the highest of the user's
	// rows without the historical flag (0 when none).
	MaxReceivedID(u users.ID) (messages.ID, error)
	// DirectWith returns the direct messages the user takes part in, ascending by id.
	DirectWith(u users.ID) ([]messages.Message, error)
	// SentBy returns the messages the user sent, ascending by id.
	SentBy(u users.ID) ([]messages.Message, error)
	// TopicMessageIDs returns the ids of a channel's messages in the topic (compared
	// case-insensitively), newest first, at most limit of them (0: all).
	TopicMessageIDs(c channels.ID, topic string, limit int) ([]messages.ID, error)
	// Topics lists the topics of a channel, newest first: of all its messages with
	// fullHistory, else of those the user has a row for.
	Topics(c channels.ID, user users.ID, fullHistory bool) ([]TopicSummary, error)
	// Activity summarises the given channels (one entry per channel, ascending; channels
	// without messages have zero fields), counting the messages sent at or after since and
	// before until (until 0: no upper bound).
	Activity(ids []channels.ID, since, until int64) ([]ChannelActivity, error)
	// Reactions returns the reactions to the given messages, by message id, then in the order
	// they were added.
	Reactions(ids []messages.ID) ([]messages.Reaction, error)
	// Bounds is Activity without the count (RecentCount 0): only the oldest and the newest
	// message of each channel, which index lookups find without reading the channel's messages.
	Bounds(ids []channels.ID) ([]ChannelActivity, error)
}

// ChannelMessageCreator is an optional capability of a MessageWriter (see CreateInChannel).
type ChannelMessageCreator interface {
	// CreateInChannel is Create for a channel message that also returns the Bounds of its
	// channel as they were just before the message, read with the insert.
	CreateInChannel(m messages.Message, rows []messages.UserMessage) (messages.ID, ChannelActivity, error)
}

// CreateInChannel stores the channel message m as w.Create does and returns the Bounds of its
// channel from just before it (FirstMessageID 0 when m is the channel's first message):
// through w's ChannelMessageCreator, which reads them in the insert's own statement (a send
// then saves a round trip), else with Bounds before Create.
func CreateInChannel(w MessageWriter, m messages.Message, rows []messages.UserMessage) (messages.ID, ChannelActivity, error) {
	if c, ok := w.(ChannelMessageCreator); ok {
		return c.CreateInChannel(m, rows)
	}
	before := ChannelActivity{ChannelID: m.ChannelID}
	list, err := w.Bounds([]channels.ID{m.ChannelID})
	if err != nil {
		return 0, before, err
	}
	if len(list) > 0 {
		before = list[0]
	}
	id, err := w.Create(m, rows)
	return id, before, err
}

// MessageWriter reads and writes messages.
type MessageWriter interface {
	MessageReader
	// Create stores a new message (its ID is ignored) with the rows of its recipients (their
	// MessageID is ignored), and returns the new id, higher than every earlier one.
	Create(m messages.Message, rows []messages.UserMessage) (messages.ID, error)
	// Update replaces a message. ErrNotFound for an unknown id.
	Update(messages.Message) error
	// Delete removes the messages and every row and reaction for them; unknown ids are ignored.
	Delete(ids []messages.ID) error
	// SetFlags adds and removes flags on the user's rows of the given messages; rows the user
	// lacks are left alone. It returns the ids whose flags changed, ascending.
	SetFlags(u users.ID, ids []messages.ID, add, remove messages.Flags) ([]messages.ID, error)
	// PutRows creates or replaces rows, keyed by (UserID, MessageID).
	PutRows([]messages.UserMessage) error
	// DeleteRows removes the rows of the given users for the given messages; missing rows
	// are ignored.
	DeleteRows(us []users.ID, ids []messages.ID) error
	// MarkRead sets the read flag on the user's unread rows that q selects, highest message ids
	// first, and returns their message ids, ascending.
	MarkRead(q MarkReadQuery) ([]messages.ID, error)
	// AddReaction stores a reaction; ErrConflict when the user already reacted to the message
	// with that emoji (same code and type), ErrNotFound for an unknown message.
	AddReaction(messages.Reaction) error
	// RemoveReaction removes the user's reaction with the emoji of r (its code and type; the
	// name is ignored); ErrNotFound when there is none.
	RemoveReaction(r messages.Reaction) error
	// Move puts the given messages in channel c under topic, appends entry to each one's
	// edit history, and sets their LastMovedTimestamp to movedAt unless movedAt is 0. Unknown
	// ids are ignored.
	Move(ids []messages.ID, c channels.ID, topic string, entry messages.EditHistoryEntry, movedAt int64) error
}
