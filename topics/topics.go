package topics

import (
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/users"
)

// MaxNameLength is the longest topic in code points (register's max_topic_length).
const MaxNameLength = 60

// LegacyEmptyTopicAlias is the older name of the empty topic, read as "" on input.
const LegacyEmptyTopicAlias = "(no topic)"

// Errors of the name rules; their text is Zulip's.
var (
	ErrNullByte = errors.New("Topic must not contain null bytes")
	ErrTooLong  = fmt.Errorf("topic is too long (limit: %d characters)", MaxNameLength)
)

// Clean trims a topic from a request, refuses null bytes (ErrNullByte) and, as Zulip does,
// any other character that is not printable (control characters, unassigned code points:
// an *InvalidCharacterError), and reads the empty topic's display name (and its legacy alias)
// as the empty topic. It does not check the length.
func Clean(topic, emptyDisplayName string) (string, error) {
	topic, err := CleanOperand(topic, emptyDisplayName)
	if err != nil {
		return "", err
	}
	if pos := NonPrintable(topic); pos > 0 {
		return "", &InvalidCharacterError{Position: pos}
	}
	return topic, nil
}

// CleanOperand is Clean for a topic that is looked for rather than written (a narrow's
// operand): a character Clean refuses stays, and simply matches no topic.
func CleanOperand(topic, emptyDisplayName string) (string, error) {
	if strings.ContainsRune(topic, 0) {
		return "", ErrNullByte
	}
	topic = strings.TrimSpace(strings.ToValidUTF8(topic, "\uFFFD"))
	if topic == emptyDisplayName || topic == LegacyEmptyTopicAlias {
		return "", nil
	}
	return topic, nil
}

// InvalidCharacterError refuses a topic with a character that is not printable; Position
// counts code points from 1, as Zulip's message does.
type InvalidCharacterError struct{ Position int }

func (e *InvalidCharacterError) Error() string {
	return fmt.Sprintf("Invalid character in topic, at position %d!", e.Position)
}

// NonPrintable is the position (from 1, in code points) of the first character of s that is
// a control character, a surrogate or an unassigned code point (Unicode categories Cc, Cs and
// Cn, which Zulip refuses in topics), or 0 when there is none.
func NonPrintable(s string) int {
	pos := 0
	for _, r := range s {
		pos++
		if unicode.Is(unicode.Cc, r) || unicode.Is(unicode.Cs, r) || !assigned(r) {
			return pos
		}
	}
	return 0
}

// assigned reports whether r has a Unicode category other than Cn (unassigned).
func assigned(r rune) bool {
	return unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S, unicode.Z, unicode.Cc, unicode.Cf, unicode.Co, unicode.Cs)
}

// CheckLength refuses a topic longer than MaxNameLength (POST /user_topics).
func CheckLength(topic string) error {
	if utf8.RuneCountInString(topic) > MaxNameLength {
		return ErrTooLong
	}
	return nil
}

// Truncate shortens a topic longer than MaxNameLength to MaxNameLength code points ending in
// "..." (POST /messages truncates rather than refuses).
func Truncate(topic string) string {
	if utf8.RuneCountInString(topic) <= MaxNameLength {
		return topic
	}
	return string([]rune(topic)[:MaxNameLength-3]) + "..."
}

// Display is how a topic is shown to a client: the empty topic becomes emptyDisplayName for
// clients that do not know the empty topic.
func Display(topic, emptyDisplayName string, knowsEmptyTopic bool) string {
	if topic == "" && !knowsEmptyTopic {
		return emptyDisplayName
	}
	return topic
}

// Key is the case-insensitive identity of a topic within a channel.
func Key(topic string) string { return strings.ToLower(topic) }

// Same reports whether two topic names are the same topic.
func Same(a, b string) bool { return strings.EqualFold(a, b) }

// VisibilityPolicy is a user's setting for one topic.
type VisibilityPolicy int64

// The visibility policies; the numbers are the API's.
const (
	PolicyNone     VisibilityPolicy = 0
	PolicyMuted    VisibilityPolicy = 1
	PolicyUnmuted  VisibilityPolicy = 2
	PolicyFollowed VisibilityPolicy = 3
)

// Valid reports whether p is one of the four policies.
func (p VisibilityPolicy) Valid() bool { return p >= PolicyNone && p <= PolicyFollowed }

// UserTopic is a user's visibility policy for one topic of one channel. Policy none is never
// stored: setting it removes the row.
type UserTopic struct {
	UserID    users.ID
	ChannelID channels.ID
	// Topic keeps the capitalisation the user gave; lookups compare with Key.
	Topic       string
	Policy      VisibilityPolicy
	LastUpdated int64 // UNIX seconds
}

// Topic deletion runs in rounds: each round deletes the newest BatchSize messages of the
// topic in a transaction of its own, until none remain or the time budget is spent.
const (
	DefaultDeleteBatchSize = 100
	DefaultDeleteBudget    = 50 * time.Second
)

// DeletePlan says how a topic deletion proceeds.
type DeletePlan struct {
	BatchSize int
	Budget    time.Duration
}

// WithDefaults fills zero fields with the defaults.
func (p DeletePlan) WithDefaults() DeletePlan {
	if p.BatchSize <= 0 {
		p.BatchSize = DefaultDeleteBatchSize
	}
	if p.Budget <= 0 {
		p.Budget = DefaultDeleteBudget
	}
	return p
}

// Continue reports whether another round may start at now for a deletion that started at
// start. The first round always runs.
func (p DeletePlan) Continue(start, now time.Time, rounds int) bool {
	return rounds == 0 || now.Sub(start) < p.Budget
}
