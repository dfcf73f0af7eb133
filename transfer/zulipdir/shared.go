package zulipdir

import (
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Limits of Zulip's that converted data must respect.
const (
	// MaxTopicLength is the longest topic, in characters.
	MaxTopicLength = 60
	// MaxMessageLength is the longest message body, in characters.
	MaxMessageLength = 10000
	// MaxChannelNameLength is the longest channel name, in characters.
	MaxChannelNameLength = 60
	// MaxChannelDescriptionLength is the longest channel description, in characters.
	MaxChannelDescriptionLength = 1024
	// MaxFullNameLength is the longest user name, in characters.
	MaxFullNameLength = 100
)

// FullName makes a user's full name acceptable: trimmed, on one line, at most
// MaxFullNameLength characters, and fallback when nothing is left.
func FullName(name, fallback string) string {
	name = strings.Join(strings.Fields(name), " ")
	if name == "" {
		name = fallback
	}
	return Truncate(name, MaxFullNameLength, "")
}

// Seq hands out ids 1, 2, 3, ... of one table.
type Seq struct{ last int64 }

// Next returns the next id.
func (s *Seq) Next() int64 { s.last++; return s.last }

// Truncate shortens s to at most max characters, ending it with suffix when it was cut
// (Zulip's truncate_content). max must not be negative.
func Truncate(s string, max int, suffix string) string {
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	keep := max - utf8.RuneCountInString(suffix)
	if keep < 0 {
		return string([]rune(suffix)[:max]) // never longer than max
	}
	return string([]rune(s)[:keep]) + suffix
}

// NormalizeBody removes NUL characters and truncates a message body to Zulip's limit, as
// Zulip does to imported messages.
func NormalizeBody(s string) string {
	s = strings.ToValidUTF8(strings.ReplaceAll(s, "\x00", ""), "\uFFFD")
	return Truncate(s, MaxMessageLength, "\n[message truncated]")
}

var (
	notFileChars = regexp.MustCompile(`[^\p{L}\p{N}_\s.-]`)
	dashRuns     = regexp.MustCompile(`[-\s]+`)
)

// SanitizeName makes a file name safe for a path id (Zulip's sanitize_name): NFKC
// normalisation, characters other than letters, digits, "_", ".", "-" and spaces dropped,
// runs of dashes and spaces turned into one dash.
func SanitizeName(name string) string {
	v := norm.NFKC.String(strings.ToValidUTF8(name, ""))
	v = strings.TrimSpace(notFileChars.ReplaceAllString(v, ""))
	v = dashRuns.ReplaceAllString(v, "-")
	if v == "" || v == "." || v == ".." {
		return "uploaded-file"
	}
	return Truncate(v, 200, "")
}

// UploadPathID returns a fresh path id for an uploaded file of the organization, laid out as
// Zulip lays them: realm id, a random byte in hexadecimal, a random token, the sanitized name.
func UploadPathID(realmID int64, fileName string) (string, error) {
	var b [19]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("zulipdir: random path id: %w", err)
	}
	token := base64.RawURLEncoding.EncodeToString(b[1:])
	return fmt.Sprintf("%d/%x/%s/%s", realmID, b[0], token, SanitizeName(fileName)), nil
}

// EmojiPathID is the path of a custom emoji's image (RealmEmoji.PATH_ID_TEMPLATE).
func EmojiPathID(realmID int64, fileName string) string {
	return fmt.Sprintf("%d/emoji/images/%s", realmID, fileName)
}

// SubscriberMap is the users subscribed to each recipient.
type SubscriberMap map[int64][]int64

// NewSubscriberMap indexes subscriptions by recipient, each list sorted.
func NewSubscriberMap(subs []Subscription) SubscriberMap {
	m := SubscriberMap{}
	for _, s := range subs {
		if !slices.Contains(m[s.Recipient], s.UserProfile) {
			m[s.Recipient] = append(m[s.Recipient], s.UserProfile)
		}
	}
	for _, l := range m {
		slices.Sort(l)
	}
	return m
}

// UserMessages returns the UserMessage rows of one message for users, in ascending order of
// user id and without duplicates: read (the history is old), mentioned for the mentioned
// users, private for direct messages.
func UserMessages(seq *Seq, messageID int64, users []int64, mentioned []int64, wildcard, private bool) []UserMessage {
	ids := slices.Clone(users)
	slices.Sort(ids)
	ids = slices.Compact(ids)
	out := make([]UserMessage, 0, len(ids))
	for _, u := range ids {
		flags := int64(FlagRead)
		if slices.Contains(mentioned, u) {
			flags |= FlagMentioned
		}
		if wildcard {
			flags |= FlagWildcardMention
		}
		if private {
			flags |= FlagIsPrivate
		}
		out = append(out, UserMessage{ID: seq.Next(), UserProfile: u, Message: messageID, FlagsMask: flags})
	}
	return out
}

var streamColors = []string{
	"#76ce90", "#fae589", "#a6c7e5", "#e79ab5", "#bfd56f", "#f4ae55", "#b0a5fd", "#addfe5",
	"#f5ce6e", "#c2726a", "#94c849", "#bd86e5", "#ee7e4a", "#a6dcbf", "#95a5fd", "#53a063",
	"#9987e1", "#e4523d", "#c2c2c2", "#4f8de4", "#c6a8ad", "#e7cc4d", "#c8bebf", "#a47462",
}

// NewSubscription returns an active subscription, its color picked from Zulip's palette.
func NewSubscription(id, user, recipient int64) Subscription {
	return Subscription{
		ID: id, UserProfile: user, Recipient: recipient, Active: true, IsUserActive: true,
		Color: streamColors[int(id)%len(streamColors)],
	}
}
