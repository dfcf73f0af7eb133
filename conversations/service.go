package conversations

import (
	"errors"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/teamchat/chat/files"
	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/internal/world"
	"github.com/teamchat/chat/org"
	"github.com/teamchat/chat/topics"
	"github.com/teamchat/chat/users"
)

// Limits reported by register (the realm section) and enforced here.
const (
	MaxStreamNameLength            = 60
	MaxStreamDescriptionLength     = 1024
	MaxTopicLength                 = 60
	MaxMessageLength               = 10000
	MaxBulkNewSubscriptionMessages = 100
)

// Config is what the conversations area needs to know of the server.
type Config struct {
	// Now is the clock outside operations (the budgets of long operations).
	Now func() time.Time
	// Log receives the area's logs.
	Log *slog.Logger
	// Org is the org area (custom emoji of reactions); Files the files area (attachments of
	// messages).
	Org   *org.Service
	Files *files.Service
	// MarkReadBatchSize is how many messages MarkAllAsRead marks per transaction;
	// MarkReadBudget how long it runs before answering complete=false.
	MarkReadBatchSize int
	MarkReadBudget    time.Duration
	// TopicDeleteBatchSize is how many messages one round of DeleteTopic deletes;
	// TopicDeleteBudget how long DeleteTopic may run before answering complete=false.
	TopicDeleteBatchSize int
	TopicDeleteBudget    time.Duration
}

// Service is the conversations area's operations. It is safe for concurrent use.
type Service struct {
	eng   *engine.Engine
	cfg   Config
	now   func() time.Time
	log   *slog.Logger
	org   *org.Service
	files *files.Service

	// recordJSON reuses the JSON of channel records that did not change (GET
	// /users/me/subscriptions).
	recordJSON recordJSONCache
	// recordArrays holds records arrays handed back by GetSubscriptionsResult.Release.
	recordArrays sync.Pool
	// subscriptionReads holds what finished GetSubscriptions reads leave for the next one
	// (*subscriptionsScratch).
	subscriptionReads sync.Pool
	// linkifiers is the organization's linkifiers as the last send read them, for the early
	// renderings of sends waiting for their group (messages_prerender.go); nil before the first.
	linkifiers atomic.Pointer[linkifierSnapshot]
	// prerendered counts the early renderings finished, and taken by their sends.
	prerendered struct{ finished, taken atomic.Uint64 }
}

// New returns the conversations area's operations, run by eng.
func New(eng *engine.Engine, cfg Config) *Service {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	return &Service{eng: eng, cfg: cfg, now: cfg.Now, log: cfg.Log, org: cfg.Org, files: cfg.Files}
}

// Prerendered reports how many sends' contents were rendered while they waited for their
// group, and how many of those renderings their transactions took (messages_prerender.go).
func (s *Service) Prerendered() (finished, taken uint64) {
	return s.prerendered.finished.Load(), s.prerendered.taken.Load()
}

// PublicWatchers is the recipient of a PublicChannelMessage event: package chat hands it to
// the all_public_streams and narrowed queues of this process.
const PublicWatchers int64 = -1

// PublicChannelMessage is the message event of a public channel for the all_public_streams
// and narrowed queues of users who did not receive it and are not guests (Except, sorted).
type PublicChannelMessage struct {
	Event  MessageEvent
	Except []int64
}

// publicMessageExcept lists who must not get a public channel's message through their
// all_public_streams or narrowed queues: its recipients (who get the ordinary event) and
// the guests (the direct members of role:everyone), sorted and without repeats. Ascending
// recipients (but for the last) are merged with the guests (and the last), or are the list
// itself when there are none (shared, not copied).
func publicMessageExcept(w *world.World, recipients recipientIndex) []int64 {
	return exceptOf(recipients, w.Membership().Members(w.GroupID(users.GroupEveryone), true))
}

// exceptOf is the union of the recipients and the guests (ascending, without repeats),
// ascending and without repeats.
func exceptOf(recipients recipientIndex, guests []users.ID) []int64 {
	ids := recipients.ids
	switch {
	case recipients.ascending() && len(guests) == 0:
		return engine.SharedRecipients(ids)
	case recipients.ascending():
		return mergeAscending(ids, guests)
	case recipients.sortedHead: // the sender last, not a subscriber
		rest := slices.Sorted(slices.Values(append(slices.Clone(guests), ids[len(ids)-1])))
		return mergeAscending(ids[:len(ids)-1], slices.Compact(rest))
	}
	except := make([]int64, 0, len(ids)+len(guests))
	for _, u := range ids {
		except = append(except, int64(u))
	}
	for _, g := range guests {
		except = append(except, int64(g))
	}
	slices.Sort(except)
	return slices.Compact(except)
}

// mergeAscending is the union of two ascending lists without repeats, ascending.
func mergeAscending(a, b []users.ID) []int64 {
	out := make([]int64, 0, len(a)+len(b))
	for len(a) > 0 || len(b) > 0 {
		var next users.ID
		switch {
		case len(b) == 0 || (len(a) > 0 && a[0] < b[0]):
			next, a = a[0], a[1:]
		case len(a) == 0 || b[0] < a[0]:
			next, b = b[0], b[1:]
		default: // equal
			next, a, b = a[0], a[1:], b[1:]
		}
		out = append(out, int64(next))
	}
	return out
}

// TopicError is the error of a topic that topics.Clean refused: Zulip's own message for a
// character that is not printable ("Invalid character in topic, at position 5!"), and
// "Invalid <name>: <reason>" otherwise.
func TopicError(name string, err error) *engine.Error {
	var bad *topics.InvalidCharacterError
	if errors.As(err, &bad) {
		return engine.RuleError(bad)
	}
	return engine.InvalidArgument(name, err.Error())
}
