package storage

import (
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/users"
)

// PendingEmail is a missed-message email notification waiting for the end of its user's
// batching period (Zulip's ScheduledMessageNotificationEmail): written in the send's
// transaction, claimed by one process when due, and removed once handled.
type PendingEmail struct {
	ID        int64
	UserID    users.ID
	MessageID messages.ID
	// Trigger is Zulip's trigger: "direct_message", "mentioned", "stream_wildcard_mentioned",
	// "topic_wildcard_mentioned", "followed_topic_email", ...; "digest" for a digest email (its
	// MessageID is 0).
	Trigger string
	// DueAt is when the notification is next due, in UNIX milliseconds (also the lease of the
	// process working on it); Attempts counts its claims.
	DueAt    int64
	Attempts int
}

// PendingEmailReader reads pending missed-message email notifications.
type PendingEmailReader interface {
	// List returns every pending notification, by id.
	List() ([]PendingEmail, error)
	// ListForUser returns the user's pending notifications, by id.
	ListForUser(users.ID) ([]PendingEmail, error)
}

// PendingEmailWriter reads and writes pending missed-message email notifications.
type PendingEmailWriter interface {
	PendingEmailReader
	// Create stores new notifications (their IDs are ignored).
	Create([]PendingEmail) error
	// ClaimDue returns at most limit notifications due at or before now (UNIX milliseconds),
	// ordered by DueAt then id, and locks them until the transaction ends: a concurrent
	// transaction of another process skips them (PostgreSQL: FOR UPDATE SKIP LOCKED; SQLite and
	// memory have a single writer). The caller leases them with Update in the same transaction.
	ClaimDue(now int64, limit int) ([]PendingEmail, error)
	// Update replaces a notification's DueAt and Attempts; ErrNotFound when there is none.
	Update(PendingEmail) error
	// Delete removes notifications; ids that are absent are ignored.
	Delete(ids []int64) error
	// ClaimDigestDay records that the digest of day (days since the UNIX epoch, UTC) was queued,
	// and reports whether this call did it: false when the day was claimed before (by this or
	// another process; on PostgreSQL a concurrent claim waits for the first to end).
	ClaimDigestDay(day int64) (bool, error)
}
