package channels

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/teamchat/chat/users"
)

// ID identifies a channel.
type ID int64

// FolderID identifies a channel folder; 0 means none.
type FolderID int64

// Limits of channel names and descriptions (register's max_stream_name_length and
// max_stream_description_length).
const (
	MaxNameLength        = 60
	MaxDescriptionLength = 1024
	// MaxFolderNameLength and MaxFolderDescriptionLength bound channel folders.
	MaxFolderNameLength        = 60
	MaxFolderDescriptionLength = 1024
)

// Channel is a channel record. Group settings are stored as given (named or anonymous).
type Channel struct {
	ID          ID
	Name        string // the creator's case; unique case-insensitively
	Description string // Markdown, newlines replaced by spaces
	DateCreated int64  // UNIX seconds
	CreatorID   users.ID
	InviteOnly  bool
	IsWebPublic bool
	// HistoryPublicToSubscribers lets subscribers read messages sent before they joined.
	HistoryPublicToSubscribers bool
	// MessageRetentionDays is nil for the organization's default, -1 for unlimited.
	MessageRetentionDays *int
	TopicsPolicy         TopicsPolicy
	FolderID             FolderID
	IsArchived           bool
	// IsDefault marks a default channel: new users are subscribed to it.
	IsDefault bool
	// DefaultPushNotifications turns on mobile push notifications for the channel in the
	// subscription of a user who first subscribes to it, over the user's own default
	// (Zulip's default_push_notifications, feature level 507; set by administrators only).
	DefaultPushNotifications bool

	CanAddSubscribersGroup            users.GroupSetting
	CanAdministerChannelGroup         users.GroupSetting
	CanCreateTopicGroup               users.GroupSetting
	CanDeleteAnyMessageGroup          users.GroupSetting
	CanDeleteOwnMessageGroup          users.GroupSetting
	CanMoveMessagesOutOfChannelGroup  users.GroupSetting
	CanMoveMessagesWithinChannelGroup users.GroupSetting
	CanRemoveSubscribersGroup         users.GroupSetting
	CanResolveTopicsGroup             users.GroupSetting
	CanSendMessageGroup               users.GroupSetting
	CanSubscribeGroup                 users.GroupSetting
}

// Clone returns a copy of c that shares no memory with it.
func (c Channel) Clone() Channel {
	if c.MessageRetentionDays != nil {
		d := *c.MessageRetentionDays
		c.MessageRetentionDays = &d
	}
	for _, gs := range c.GroupSettings() {
		*gs.Value = cloneSetting(*gs.Value)
	}
	return c
}

func cloneSetting(s users.GroupSetting) users.GroupSetting {
	s.Members = slices.Clone(s.Members)
	s.Subgroups = slices.Clone(s.Subgroups)
	return s
}

// NamedSetting is one group setting of a channel: its API name, a pointer to the value, and
// whether it may be the role:everyone group.
type NamedSetting struct {
	Name          string
	Value         *users.GroupSetting
	AllowEveryone bool
	// Default is the system group of its default ("" for the creator's anonymous group).
	Default string
}

// GroupSettingCount is the number of group settings of a channel.
const GroupSettingCount = 11

// GroupSettings lists every group setting of c in API order (alphabetical), with pointers into
// c, so that code copying, checking or emitting them stays in step with the struct. (An array:
// ranging over it allocates nothing, and records and copies of channels range over it often.)
func (c *Channel) GroupSettings() [GroupSettingCount]NamedSetting {
	return [GroupSettingCount]NamedSetting{
		{"can_add_subscribers_group", &c.CanAddSubscribersGroup, false, users.GroupNobody},
		{"can_administer_channel_group", &c.CanAdministerChannelGroup, false, ""},
		{"can_create_topic_group", &c.CanCreateTopicGroup, true, users.GroupEveryone},
		{"can_delete_any_message_group", &c.CanDeleteAnyMessageGroup, false, users.GroupNobody},
		{"can_delete_own_message_group", &c.CanDeleteOwnMessageGroup, true, users.GroupNobody},
		{"can_move_messages_out_of_channel_group", &c.CanMoveMessagesOutOfChannelGroup, false, users.GroupNobody},
		{"can_move_messages_within_channel_group", &c.CanMoveMessagesWithinChannelGroup, false, users.GroupNobody},
		{"can_remove_subscribers_group", &c.CanRemoveSubscribersGroup, false, users.GroupAdministrators},
		{"can_resolve_topics_group", &c.CanResolveTopicsGroup, false, users.GroupNobody},
		{"can_send_message_group", &c.CanSendMessageGroup, true, users.GroupEveryone},
		{"can_subscribe_group", &c.CanSubscribeGroup, false, users.GroupNobody},
	}
}

// SettingNames lists the API names of the channel group settings.
func SettingNames() []string {
	var c Channel
	var out []string
	for _, s := range c.GroupSettings() {
		out = append(out, s.Name)
	}
	return out
}

// ApplyDefaults fills every zero group setting of c with its default (Zulip's values): the
// system groups come from groupID (by name); can_administer_channel_group defaults to an
// anonymous group holding only the creator, or role:nobody without a creator.
func (c *Channel) ApplyDefaults(groupID func(name string) users.GroupID) {
	for _, s := range c.GroupSettings() {
		if !IsZeroSetting(*s.Value) {
			continue
		}
		if s.Default == "" {
			if c.CreatorID != 0 {
				*s.Value = users.GroupSetting{Members: []users.ID{c.CreatorID}, Subgroups: []users.GroupID{}}
			} else {
				*s.Value = users.Named(groupID(users.GroupNobody))
			}
			continue
		}
		*s.Value = users.Named(groupID(s.Default))
	}
}

// IsZeroSetting reports whether s was never set (neither named nor anonymous).
func IsZeroSetting(s users.GroupSetting) bool {
	return s.Group == 0 && s.Members == nil && s.Subgroups == nil
}

// Errors of the name and description rules; their text is Zulip's.
var (
	ErrEmptyName = errors.New("Channel name can't be empty.")
	ErrLongName  = fmt.Errorf("Channel name too long (limit: %d characters).", MaxNameLength)
)

// CheckName trims name and validates it: not empty, at most MaxNameLength code points, no
// control, surrogate or non-character code points.
func CheckName(name string) (string, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return "", ErrEmptyName
	}
	if !utf8.ValidString(name) {
		return "", fmt.Errorf("Invalid character in channel name, at position %d.", 1+utf8.RuneCountInString(name[:invalidAt(name)]))
	}
	if utf8.RuneCountInString(name) > MaxNameLength {
		return "", ErrLongName
	}
	pos := 0
	for _, r := range name {
		pos++
		if unicode.Is(unicode.Cc, r) || unicode.Is(unicode.Cs, r) || isNonCharacter(r) {
			return "", fmt.Errorf("Invalid character in channel name, at position %d.", pos)
		}
	}
	return name, nil
}

func invalidAt(s string) int {
	for i, r := range s {
		if r == utf8.RuneError {
			if _, size := utf8.DecodeRuneInString(s[i:]); size == 1 {
				return i
			}
		}
	}
	return len(s)
}

func isNonCharacter(r rune) bool {
	return r >= 0xFDD0 && r <= 0xFDEF || r&0xFFFE == 0xFFFE
}

// NormalizeName is the case-insensitive lookup key of a channel name.
func NormalizeName(name string) string { return strings.ToLower(strings.TrimSpace(name)) }

// CheckDescription replaces newlines by spaces and checks the length limit.
func CheckDescription(d string) (string, error) {
	d = strings.ReplaceAll(d, "\r\n", " ")
	d = strings.ReplaceAll(d, "\n", " ")
	d = strings.ReplaceAll(d, "\r", " ")
	if utf8.RuneCountInString(d) > MaxDescriptionLength {
		return "", fmt.Errorf("description is too long (limit: %d characters)", MaxDescriptionLength)
	}
	return d, nil
}

// TopicsPolicy says whether a channel's messages may use the empty topic.
type TopicsPolicy int

// The topics policies; the numbers are Zulip's database values.
const (
	TopicsInherit        TopicsPolicy = 1
	TopicsAllowEmpty     TopicsPolicy = 2
	TopicsDisableEmpty   TopicsPolicy = 3
	TopicsEmptyTopicOnly TopicsPolicy = 4
)

var topicsPolicyNames = map[TopicsPolicy]string{
	TopicsInherit:        "inherit",
	TopicsAllowEmpty:     "allow_empty_topic",
	TopicsDisableEmpty:   "disable_empty_topic",
	TopicsEmptyTopicOnly: "empty_topic_only",
}

// String is the API name; the zero value reads as inherit.
func (p TopicsPolicy) String() string {
	if n, ok := topicsPolicyNames[p]; ok {
		return n
	}
	return "inherit"
}

// ParseTopicsPolicy reads an API name.
func ParseTopicsPolicy(s string) (TopicsPolicy, bool) {
	for p, n := range topicsPolicyNames {
		if n == s {
			return p, true
		}
	}
	return 0, false
}

// MarshalJSON writes the API name.
func (p TopicsPolicy) MarshalJSON() ([]byte, error) { return []byte(`"` + p.String() + `"`), nil }

// Retention is a parsed message_retention_days request value.
type Retention struct {
	// Days is nil for realm_default, -1 for unlimited, else at least 1.
	Days *int
}

// ErrBadRetention is the error for a message_retention_days value of the wrong form; the
// error ParseRetention returns wraps it and names the value, as Zulip's message does.
var ErrBadRetention = errors.New("Bad value for 'message_retention_days'")

// ParseRetention reads message_retention_days: an integer ≥ 1, "realm_default" or
// "unlimited". raw is the JSON text of the value (a bare word is accepted too). The legacy
// "forever" (renamed "unlimited" at feature level 91) is refused, as Zulip refuses it.
func ParseRetention(raw string) (Retention, error) {
	raw = strings.TrimSpace(raw)
	word := strings.Trim(raw, `"`)
	switch word {
	case "realm_default":
		return Retention{}, nil
	case "unlimited":
		d := -1
		return Retention{Days: &d}, nil
	}
	var n int
	if _, err := fmt.Sscanf(raw, "%d", &n); err != nil || fmt.Sprint(n) != raw || n <= 0 {
		return Retention{}, fmt.Errorf("%w: %s", ErrBadRetention, word)
	}
	return Retention{Days: &n}, nil
}

// DefaultColor is the colour of a subscription that has none.
const DefaultColor = "#c2c2c2"

// Palette is the fixed palette new subscriptions take their colours from.
var palette = [...]string{
	"#76ce90", "#fae589", "#a6c7e5", "#e79ab5",
	"#bfd56f", "#f4ae55", "#b0a5fd", "#addfe5",
	"#f5ce6e", "#c2726a", "#94c849", "#bd86e5",
	"#ee7e4a", "#a6dcbf", "#95a5fd", "#53a063",
	"#9987e1", "#e4523d", "#c2c2c2", "#4f8de4",
	"#c6a8ad", "#e7cc4d", "#c8bebf", "#a47462",
}

// PickColor returns the first palette colour not in used, cycling through the palette by the
// number of used colours when every one is taken.
func PickColor(used map[string]bool) string {
	for _, c := range palette {
		if !used[c] {
			return c
		}
	}
	return palette[len(used)%len(palette)]
}

var colorRE = regexp.MustCompile(`^#([a-fA-F0-9]{3,6})$`)

// ValidColor reports whether c is # followed by 3 to 6 hex digits.
func ValidColor(c string) bool { return colorRE.MatchString(c) }

// ErrBadColor is the error of an invalid colour.
var ErrBadColor = errors.New("color is not a valid hex color code")
