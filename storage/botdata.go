package storage

import (
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/users"
)

// BotStorageReader reads bots' storage: the string keys and values a bot keeps between the
// messages it handles (Zulip's BotStorageData, GET /bot_storage).
type BotStorageReader interface {
	// Get returns the bot's values of the keys it has; keys it does not have are absent from
	// the map. An empty keys list returns the bot's whole storage.
	Get(bot users.ID, keys []string) (map[string]string, error)
	// Size returns the bot's storage size: the sum of the lengths, in characters (Unicode code
	// points), of its keys and values.
	Size(bot users.ID) (int64, error)
}

// BotStorageWriter reads and writes bots' storage.
type BotStorageWriter interface {
	BotStorageReader
	// Put creates or replaces the entries in the bot's storage.
	Put(bot users.ID, entries map[string]string) error
	// Delete removes the keys from the bot's storage (an empty list removes everything) and
	// returns how many entries it removed; keys the bot does not have are ignored.
	Delete(bot users.ID, keys []string) (int, error)
}

// ServiceJob is a message that triggered a service bot (an outgoing webhook or an embedded
// bot), waiting to be handed to the bot: written in the send's transaction, claimed by one
// process when due, and removed when handled (at-least-once delivery).
type ServiceJob struct {
	ID        int64
	BotID     users.ID
	MessageID messages.ID
	// Trigger is Zulip's trigger: "mention" or "direct_message".
	Trigger string
	// Message is the triggering message as the bot is sent it (JSON), recorded at send time.
	Message string
	// DueAt is when the job is next due, in UNIX milliseconds; Attempts counts its claims.
	DueAt    int64
	Attempts int
}

// ServiceJobReader reads service bots' pending jobs.
type ServiceJobReader interface {
	// List returns every pending job, by id.
	List() ([]ServiceJob, error)
}

// ServiceJobWriter reads and writes service bots' pending jobs.
type ServiceJobWriter interface {
	ServiceJobReader
	// Create stores new jobs (their IDs are ignored).
	Create([]ServiceJob) error
	// ClaimDue returns at most limit jobs due at or before now (UNIX milliseconds), ordered by
	// DueAt then id, and locks them until the transaction ends: a concurrent transaction of
	// another process skips them rather than waiting (PostgreSQL: FOR UPDATE SKIP LOCKED;
	// SQLite and memory have a single writer). The caller leases them with Update in the same
	// transaction (a later DueAt), so that no other process claims them while it works.
	ClaimDue(now int64, limit int) ([]ServiceJob, error)
	// Update replaces a job's DueAt and Attempts; ErrNotFound when there is no job with its id.
	Update(ServiceJob) error
	// Delete removes a job; ErrNotFound when there is none with the id.
	Delete(id int64) error
}
