package messages

import (
	"errors"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/users"
)

// ID identifies a message. Ids increase with sending order.
type ID int64

// MaxContentLength is the longest content in code points (register's max_message_length);
// longer content is truncated, not refused.
const MaxContentLength = 10000

// truncatedSuffix ends content cut to MaxContentLength.
const truncatedSuffix = "\n[message truncated]"

// Message is one message. A channel message has a ChannelID and a Topic; a direct message has
// Recipients (every participant, the sender included, ascending) and neither.
type Message struct {
	ID        ID
	SenderID  users.ID
	ChannelID channels.ID
	Topic     string
	// Recipients are the participants of a direct message; nil for channel messages.
	Recipients []users.ID
	// Content is the Markdown source; Rendered its HTML.
	Content  string
	Rendered string
	// Timestamp is the sending time in UNIX seconds.
	Timestamp int64
	// Client names the sending client ("website", "ZulipPython", ...).
	Client string
	// LastEditTimestamp is the time of the last content edit (0: never edited);
	// LastMovedTimestamp the time of the last topic or channel change (0: never moved).
	LastEditTimestamp  int64
	LastMovedTimestamp int64
	// EditHistory lists the edits of the message, newest first (nil: never edited or moved).
	EditHistory []EditHistoryEntry
}

// IsDirect reports whether m is a direct message.
func (m Message) IsDirect() bool { return m.ChannelID == 0 }

// Clone returns a copy of m that shares no memory with it.
func (m Message) Clone() Message {
	m.Recipients = slices.Clone(m.Recipients)
	m.EditHistory = cloneHistory(m.EditHistory)
	return m
}

// Participants returns the sorted, deduplicated participants of a direct message between
// sender and to.
func Participants(sender users.ID, to []users.ID) []users.ID {
	out := append([]users.ID{sender}, to...)
	slices.Sort(out)
	return slices.Compact(out)
}

// Errors of the content rules; their text is Zulip's.
var (
	ErrEmptyContent = errors.New("Message must not be empty")
	ErrNullContent  = errors.New("Message must not contain null bytes")
)

// NormalizeContent trims trailing whitespace and leading newlines, refuses empty content and
// null bytes, and truncates content longer than MaxContentLength code points.
func NormalizeContent(s string) (string, error) {
	s = strings.TrimRightFunc(s, isSpace)
	s = strings.TrimLeft(s, "\n")
	if s == "" {
		return "", ErrEmptyContent
	}
	if strings.ContainsRune(s, 0) {
		return "", ErrNullContent
	}
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	if utf8.RuneCountInString(s) > MaxContentLength {
		keep := MaxContentLength - utf8.RuneCountInString(truncatedSuffix)
		s = string([]rune(s)[:keep]) + truncatedSuffix
	}
	return s, nil
}

// IsBlank reports whether content is only whitespace (an edit to blank content becomes
// "(deleted)").
func IsBlank(s string) bool { return strings.TrimRightFunc(s, isSpace) == "" }

func isSpace(r rune) bool {
	switch r {
	case ' ', '\t', '\n', '\r', '\v', '\f', 0x85, 0xA0:
		return true
	}
	return r > 0xff && strings.ContainsRune("\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000", r)
}

// IsMeMessage reports whether content is a /me message.
func IsMeMessage(content string) bool {
	return strings.HasPrefix(content, "/me ") && !strings.Contains(content, "\n")
}
