package messages

import "github.com/teamchat/chat/users"

// Flags are a user's flags on one message, as a bit set.
type Flags uint16

// The flags. Their order is the order of the API's flag lists.
const (
	FlagRead Flags = 1 << iota
	FlagStarred
	FlagCollapsed
	FlagMentioned
	FlagStreamWildcardMentioned
	FlagTopicWildcardMentioned
	FlagHasAlertWord
	FlagHistorical
	// FlagHideLinkPreviews asks the user's clients to hide the message's link previews
	// (feature level 510; Zulip's bit after historical).
	FlagHideLinkPreviews
)

var flagNames = []struct {
	flag Flags
	name string
}{
	{FlagRead, "read"},
	{FlagStarred, "starred"},
	{FlagCollapsed, "collapsed"},
	{FlagMentioned, "mentioned"},
	{FlagStreamWildcardMentioned, "stream_wildcard_mentioned"},
	{FlagTopicWildcardMentioned, "topic_wildcard_mentioned"},
	{FlagHasAlertWord, "has_alert_word"},
	{FlagHistorical, "historical"},
	{FlagHideLinkPreviews, "hide_link_previews"},
}

// Names lists the API names of the flags set in f; "wildcard_mentioned" is added when either
// wildcard flag is set. The result is never nil.
func (f Flags) Names() []string {
	out := []string{}
	for _, n := range flagNames {
		if f&n.flag != 0 {
			out = append(out, n.name)
		}
	}
	if f&(FlagStreamWildcardMentioned|FlagTopicWildcardMentioned) != 0 {
		out = append(out, "wildcard_mentioned")
	}
	return out
}

// ParseFlag reads a flag name.
func ParseFlag(name string) (Flags, bool) {
	for _, n := range flagNames {
		if n.name == name {
			return n.flag, true
		}
	}
	return 0, false
}

// UserEditable reports whether users may set or clear f with POST /messages/flags: read,
// starred, collapsed and (feature level 510) hide_link_previews.
func UserEditable(f Flags) bool {
	return f == FlagRead || f == FlagStarred || f == FlagCollapsed || f == FlagHideLinkPreviews
}

// UserMessage is one user's row for one message: the user received the message (or it was
// added to their history) and these are their flags on it.
type UserMessage struct {
	UserID    users.ID
	MessageID ID
	Flags     Flags
}
