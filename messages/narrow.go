package messages

import (
	"slices"
	"strings"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/users"
)

// Operator is a narrow operator, in its canonical (current) name.
type Operator string

// The operators of Zulip's narrows. Near, With and In are resolved by the caller before
// matching (near is only an anchor, with becomes its message's conversation, in:home is
// -is:muted and in:all nothing); the others are evaluated by Match.
const (
	OpChannel     Operator = "channel"
	OpChannels    Operator = "channels"
	OpTopic       Operator = "topic"
	OpSender      Operator = "sender"
	OpDM          Operator = "dm"
	OpDMIncluding Operator = "dm-including"
	// OpGroupDMWith is the legacy group-pm-with: group direct messages (three participants
	// or more) including the user.
	OpGroupDMWith Operator = "group-pm-with"
	OpSearch      Operator = "search"
	OpIs          Operator = "is"
	OpHas         Operator = "has"
	OpIn          Operator = "in"
	OpID          Operator = "id"
	OpNear        Operator = "near"
	OpWith        Operator = "with"
)

// CanonicalOperator maps an operator name, legacy aliases included, to its Operator.
func CanonicalOperator(name string) (Operator, bool) {
	switch name {
	case "channel", "stream":
		return OpChannel, true
	case "channels", "streams":
		return OpChannels, true
	case "topic", "subject":
		return OpTopic, true
	case "dm", "pm-with", "pm_with":
		return OpDM, true
	case "group-pm-with", "group_pm_with":
		return OpGroupDMWith, true
	case "sender", "dm-including", "search", "is", "has", "in", "id", "near", "with":
		return Operator(name), true
	}
	return "", false
}

// The operands of the is operator.
const (
	IsUnread    = "unread"
	IsStarred   = "starred"
	IsMentioned = "mentioned"
	IsAlerted   = "alerted"
	IsDM        = "dm"
	IsResolved  = "resolved"
	IsFollowed  = "followed"
	IsMuted     = "muted"
)

// CanonicalIs maps an is operand (legacy aliases included) to its canonical name.
func CanonicalIs(operand string) (string, bool) {
	switch operand {
	case IsUnread, IsStarred, IsMentioned, IsAlerted, IsDM, IsResolved, IsFollowed, IsMuted:
		return operand, true
	case "private":
		return IsDM, true
	}
	return "", false
}

// The operands of the has operator.
const (
	HasLink       = "link"
	HasAttachment = "attachment"
	HasImage      = "image"
	HasReaction   = "reaction"
)

// ValidHas reports whether operand is an operand of has.
func ValidHas(operand string) bool {
	switch operand {
	case HasLink, HasAttachment, HasImage, HasReaction:
		return true
	}
	return false
}

// The operands of channels.
const (
	ChannelsPublic    = "public"
	ChannelsWebPublic = "web-public"
)

// TopicRef names a topic of a channel; topics compare case-insensitively.
type TopicRef struct {
	Channel channels.ID
	Topic   string
}

// Term is one resolved narrow term: names and emails already turned into ids, and whatever
// depends on the viewer (their muted channels and topics, the organization's public channels)
// read by the caller.
type Term struct {
	Operator Operator
	Negated  bool
	// Channel is the operand of channel.
	Channel channels.ID
	// Text is the operand of topic, search, is and has.
	Text string
	// User is the operand of sender, dm-including and group-pm-with.
	User users.ID
	// Users is the operand of dm: every participant of the conversation (the viewer
	// included), ascending.
	Users []users.ID
	// Message is the operand of id.
	Message ID
	// Channels are the channels of channels (public or web-public) and, for is:muted, the
	// viewer's muted channels.
	Channels []channels.ID
	// Topics are, for is:followed, the viewer's followed topics and, for is:muted, their
	// muted topics; Unmuted, for is:muted, the topics that are not muted although their
	// channel is (unmuted or followed).
	Topics  []TopicRef
	Unmuted []TopicRef
	// Search is the parsed operand of search.
	Search Search
}

// Candidate is a message as a narrow sees it: the message, the viewer's flags on it (Received
// false when the viewer has no row: the message comes from a channel's history), and whether
// anyone reacted to it.
type Candidate struct {
	Message  Message
	Flags    Flags
	Received bool
	Reacted  bool
}

// Match reports whether c satisfies every term.
func Match(terms []Term, c Candidate) bool {
	for _, t := range terms {
		if t.Matches(c) == t.Negated {
			return false
		}
	}
	return true
}

// NeedsReactions reports whether a term reads Candidate.Reacted.
func NeedsReactions(terms []Term) bool {
	return slices.ContainsFunc(terms, func(t Term) bool { return t.Operator == OpHas && t.Text == HasReaction })
}

// ResolvedPrefix marks a resolved topic.
const ResolvedPrefix = "✔ "

// Matches reports whether c satisfies the term, ignoring its negation.
func (t Term) Matches(c Candidate) bool {
	m := c.Message
	switch t.Operator {
	case OpChannel:
		return !m.IsDirect() && m.ChannelID == t.Channel
	case OpChannels:
		return !m.IsDirect() && slices.Contains(t.Channels, m.ChannelID)
	case OpTopic:
		return !m.IsDirect() && strings.EqualFold(m.Topic, t.Text)
	case OpSender:
		return m.SenderID == t.User
	case OpDM:
		return m.IsDirect() && slices.Equal(m.Recipients, t.Users)
	case OpDMIncluding:
		return m.IsDirect() && slices.Contains(m.Recipients, t.User)
	case OpGroupDMWith:
		return m.IsDirect() && len(m.Recipients) > 2 && slices.Contains(m.Recipients, t.User)
	case OpSearch:
		return t.Search.Matches(SearchDocOf(m))
	case OpIs:
		return t.matchesIs(c)
	case OpHas:
		switch t.Text {
		case HasLink:
			return HasLinkIn(m.Rendered)
		case HasAttachment:
			return HasAttachmentIn(m.Rendered)
		case HasImage:
			return HasImageIn(m.Rendered)
		case HasReaction:
			return c.Reacted
		}
	case OpID:
		return m.ID == t.Message
	}
	return false
}

func (t Term) matchesIs(c Candidate) bool {
	m, flags, received := c.Message, c.Flags, c.Received
	switch t.Text {
	case IsUnread:
		return received && flags&FlagRead == 0
	case IsStarred:
		return received && flags&FlagStarred != 0
	case IsMentioned:
		return received && flags&(FlagMentioned|FlagStreamWildcardMentioned|FlagTopicWildcardMentioned) != 0
	case IsAlerted:
		return received && flags&FlagHasAlertWord != 0
	case IsDM:
		return m.IsDirect()
	case IsResolved:
		return !m.IsDirect() && strings.HasPrefix(m.Topic, ResolvedPrefix)
	case IsFollowed:
		return !m.IsDirect() && containsTopic(t.Topics, m)
	case IsMuted:
		if m.IsDirect() {
			return false
		}
		if containsTopic(t.Topics, m) {
			return true
		}
		return slices.Contains(t.Channels, m.ChannelID) && !containsTopic(t.Unmuted, m)
	}
	return false
}

func containsTopic(l []TopicRef, m Message) bool {
	return slices.ContainsFunc(l, func(r TopicRef) bool {
		return r.Channel == m.ChannelID && strings.EqualFold(r.Topic, m.Topic)
	})
}

// HasLinkIn reports whether rendered content holds a link (Zulip's has_link).
func HasLinkIn(rendered string) bool {
	return strings.Contains(rendered, "<a ") && strings.Contains(rendered, "href=")
}

// HasAttachmentIn reports whether rendered content links or shows an uploaded file
// (has_attachment): a link or image whose address holds /user_uploads/.
func HasAttachmentIn(rendered string) bool {
	return attributeHolds(rendered, `href="`, "/user_uploads/") || attributeHolds(rendered, `src="`, "/user_uploads/")
}

// attributeHolds reports whether a value of the attribute (given with its opening quote)
// contains s.
func attributeHolds(rendered, attr, s string) bool {
	for rest := rendered; ; {
		i := strings.Index(rest, attr)
		if i < 0 {
			return false
		}
		rest = rest[i+len(attr):]
		end := strings.IndexByte(rest, '"')
		if end < 0 {
			end = len(rest)
		}
		if strings.Contains(rest[:end], s) {
			return true
		}
		rest = rest[end:]
	}
}

// HasImageIn reports whether rendered content shows an image other than an emoji
// (has_image): an inline image preview or an img element without the emoji class.
func HasImageIn(rendered string) bool {
	if strings.Contains(rendered, "message_inline_image") {
		return true
	}
	rest := rendered
	for {
		i := strings.Index(rest, "<img")
		if i < 0 {
			return false
		}
		end := strings.IndexByte(rest[i:], '>')
		if end < 0 {
			end = len(rest) - i
		}
		if !strings.Contains(rest[i:i+end], "emoji") {
			return true
		}
		rest = rest[i+end:]
	}
}
