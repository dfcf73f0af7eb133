package drafts

import (
	"errors"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/teamchat/chat/users"
)

// ID identifies a draft.
type ID int64

// Type is what a draft is addressed to.
type Type string

// The draft types of the API.
const (
	TypeNone    Type = ""        // not addressed yet
	TypeStream  Type = "stream"  // to one channel and topic
	TypePrivate Type = "private" // to users (a direct message)
)

// Valid reports whether t is one of the three types.
func (t Type) Valid() bool { return t == TypeNone || t == TypeStream || t == TypePrivate }

// Draft is a message being composed, synchronised between the user's clients.
type Draft struct {
	ID     ID
	UserID users.ID // the owner; only they see it
	Type   Type
	// To is the channel id (one element) for stream drafts, the recipients' user ids for
	// private drafts, empty otherwise.
	To      []int64
	Topic   string // stream drafts only
	Content string
	// Timestamp is the time of the last edit, UNIX seconds.
	Timestamp int64
}

// Clone returns a copy of d that shares no memory with it.
func (d Draft) Clone() Draft {
	d.To = slices.Clone(d.To)
	return d
}

// Limits of drafts.
const (
	MaxTopicLength   = 60    // in code points; longer topics are truncated
	MaxContentLength = 10000 // in code points; longer content is truncated
	// MaxInRegister bounds the drafts sent by register (the newest ones).
	MaxInRegister = 1000
	// MaxPerRequest bounds the drafts of one create request.
	MaxPerRequest = 1000
	// MaxRecipients bounds the user ids of a private draft.
	MaxRecipients = 1000
)

// FieldError is a rule's refusal of one field of a draft (type, to, topic, content or
// timestamp). Blank is set when the field is required and was empty.
type FieldError struct {
	Field string
	Msg   string
	Blank bool
}

func (e *FieldError) Error() string { return e.Field + ": " + e.Msg }

// Normalize checks a draft as a client submitted it and returns the form to store: content
// trimmed like a message body (and truncated past MaxContentLength), topic truncated past
// MaxTopicLength and kept for stream drafts only, recipients of private drafts sorted without
// duplicates. A private draft without recipients becomes unaddressed. It does not check that
// the ids in To exist; the caller does. self is the owner, dropped from the recipients of a
// group draft (a draft to oneself keeps it).
func Normalize(d Draft, self users.ID) (Draft, error) {
	d = d.Clone()
	if !d.Type.Valid() {
		return d, &FieldError{Field: "type", Msg: "Invalid type"}
	}
	if d.Timestamp < 0 {
		return d, &FieldError{Field: "timestamp", Msg: "Timestamp must not be negative."}
	}
	if strings.ContainsRune(d.Topic, 0) {
		return d, &FieldError{Field: "topic", Msg: "Topic must not contain null bytes"}
	}
	content, err := NormalizeContent(d.Content)
	if err != nil {
		return d, err
	}
	d.Content = content
	switch d.Type {
	case TypeStream:
		if len(d.To) != 1 {
			return d, &FieldError{Field: "to", Msg: "Must specify exactly 1 channel ID for channel messages"}
		}
		d.Topic = TruncateTopic(d.Topic)
	case TypePrivate:
		if len(d.To) > MaxRecipients {
			return d, &FieldError{Field: "to", Msg: "Too many recipients"}
		}
		slices.Sort(d.To)
		d.To = slices.Compact(d.To)
		if len(d.To) > 1 {
			d.To = slices.DeleteFunc(d.To, func(id int64) bool { return id == int64(self) })
		}
		if len(d.To) == 0 {
			d.Type = TypeNone
		}
		d.Topic = ""
	default:
		if len(d.To) != 0 {
			return d, &FieldError{Field: "to", Msg: "Unaddressed drafts must have no recipients"}
		}
		d.Topic = ""
	}
	if d.To == nil {
		d.To = []int64{}
	}
	return d, nil
}

// NormalizeContent trims trailing whitespace and leading newlines like a message body,
// refuses blank content and null bytes, and truncates past MaxContentLength.
func NormalizeContent(s string) (string, error) {
	s = strings.TrimLeft(strings.TrimRightFunc(s, isSpace), "\n")
	if s == "" {
		return "", &FieldError{Field: "content", Msg: "cannot be blank", Blank: true}
	}
	if strings.ContainsRune(s, 0) {
		return "", &FieldError{Field: "content", Msg: "Message must not contain null bytes"}
	}
	if !utf8.ValidString(s) {
		return "", &FieldError{Field: "content", Msg: "Invalid UTF-8"}
	}
	return truncate(s, MaxContentLength, "\n[message truncated]"), nil
}

// TruncateTopic shortens a topic past MaxTopicLength to MaxTopicLength code points ending in
// "...".
func TruncateTopic(s string) string { return truncate(s, MaxTopicLength, "...") }

// truncate cuts s to max code points, ending in suffix, when it is longer.
func truncate(s string, max int, suffix string) string {
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	keep := max - utf8.RuneCountInString(suffix)
	i := 0
	for n := 0; n < keep; n++ {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return s[:i] + suffix
}

func isSpace(r rune) bool {
	switch r {
	case ' ', '\t', '\n', '\r', '\v', '\f', 0x85, 0xA0:
		return true
	}
	return r > 0xff && strings.ContainsRune("\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000", r)
}

// ErrSyncDisabled is the refusal of draft operations for a user who turned
// enable_drafts_synchronization off.
var ErrSyncDisabled = errors.New("User has disabled synchronizing drafts.")
