package storage

import (
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/users"
)

// ScheduledMessageReader reads scheduled messages and reminders. Get is scoped to one sender:
// another user's scheduled message is ErrNotFound.
type ScheduledMessageReader interface {
	// Get returns the sender's scheduled message (of any kind, delivered or not) with the id;
	// ErrNotFound when the sender has none with it.
	Get(sender users.ID, id messages.ScheduledID) (messages.Scheduled, error)
	// ListPending returns the sender's undelivered scheduled messages of the kind (failed ones
	// included), ordered by DeliverAt then id.
	ListPending(sender users.ID, kind messages.ScheduledKind) ([]messages.Scheduled, error)
	// NextDue returns the earliest DeliverAt of the scheduled messages neither delivered nor
	// failed; ok is false when there is none.
	NextDue() (at int64, ok bool, err error)
}

// ScheduledMessageWriter reads and writes scheduled messages.
type ScheduledMessageWriter interface {
	ScheduledMessageReader
	// Create stores a new scheduled message (its ID is ignored) and returns its id.
	Create(messages.Scheduled) (messages.ScheduledID, error)
	// Update replaces a scheduled message of its SenderID; ErrNotFound when that sender has
	// none with the id.
	Update(messages.Scheduled) error
	// Delete removes a scheduled message of the sender; ErrNotFound when the sender has none
	// with the id.
	Delete(sender users.ID, id messages.ScheduledID) error
	// ClaimDue returns at most limit scheduled messages that are neither delivered nor failed
	// and due at or before now (UNIX seconds), ordered by DeliverAt then id, and locks them
	// until the transaction ends: a concurrent transaction of another process skips them
	// rather than waiting (PostgreSQL: FOR UPDATE SKIP LOCKED; SQLite and memory have a
	// single writer). The caller delivers them and records the outcome with Update in the
	// same transaction, so a crash before the commit leaves them due.
	ClaimDue(now int64, limit int) ([]messages.Scheduled, error)
	// MarkDelivered records, in one statement, that the scheduled messages ids[i] were sent as
	// the messages sent[i] (Delivered and DeliveredMessageID); ids that name no scheduled
	// message are ignored. The two lists have the same length.
	MarkDelivered(ids []messages.ScheduledID, sent []messages.ID) error
}
