package messages

import (
	"slices"
	"strings"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/users"
)

// Operator is a narrow operator, in its canonical (current) name.
type Operator string

// The supported operators.
const (
	OpChannel     Operator = "channel"
	OpTopic       Operator = "topic"
	OpSender      Operator = "sender"
	OpDM          Operator = "dm"
	OpDMIncluding Operator = "dm-including"
	OpSearch      Operator = "search"
	OpIs          Operator = "is"
	OpID          Operator = "id"
)

// CanonicalOperator maps an operator name, legacy aliases included, to its Operator.
func CanonicalOperator(name string) (Operator, bool) {
	switch name {
	case "channel", "stream":
		return OpChannel, true
	case "topic", "subject":
		return OpTopic, true
	case "sender":
		return OpSender, true
	case "dm", "pm-with":
		return OpDM, true
	case "dm-including", "group-pm-with":
		return OpDMIncluding, true
	case "search":
		return OpSearch, true
	case "is":
		return OpIs, true
	case "id":
		return OpID, true
	}
	return "", false
}

// The operands of the is operator.
const (
	IsUnread    = "unread"
	IsStarred   = "starred"
	IsMentioned = "mentioned"
	IsDM        = "dm"
	IsResolved  = "resolved"
)

// CanonicalIs maps an is operand (legacy aliases included) to its canonical name.
func CanonicalIs(operand string) (string, bool) {
	switch operand {
	case "unread", "starred", "mentioned", "dm", "resolved":
		return operand, true
	case "private":
		return IsDM, true
	}
	return "", false
}

// Term is one resolved narrow term: names and emails already turned into ids by the caller.
type Term struct {
	Operator Operator
	Negated  bool
	// Channel is the operand of channel.
	Channel channels.ID
	// Text is the operand of topic, search and is.
	Text string
	// User is the operand of sender and dm-including.
	User users.ID
	// Users is the operand of dm: every participant of the conversation (the viewer
	// included), ascending.
	Users []users.ID
	// Message is the operand of id.
	Message ID
}

// Match reports whether m, with the viewer's flags (received false when the viewer has no
// row for it), satisfies every term.
func Match(terms []Term, m Message, flags Flags, received bool) bool {
	for _, t := range terms {
		if t.matches(m, flags, received) == t.Negated {
			return false
		}
	}
	return true
}

// ResolvedPrefix marks a resolved topic.
const ResolvedPrefix = "✔ "

func (t Term) matches(m Message, flags Flags, received bool) bool {
	switch t.Operator {
	case OpChannel:
		return !m.IsDirect() && m.ChannelID == t.Channel
	case OpTopic:
		return !m.IsDirect() && strings.EqualFold(m.Topic, t.Text)
	case OpSender:
		return m.SenderID == t.User
	case OpDM:
		return m.IsDirect() && slices.Equal(m.Recipients, t.Users)
	case OpDMIncluding:
		return m.IsDirect() && slices.Contains(m.Recipients, t.User)
	case OpSearch:
		return MatchesSearch(m, t.Text)
	case OpIs:
		switch t.Text {
		case IsUnread:
			return received && flags&FlagRead == 0
		case IsStarred:
			return received && flags&FlagStarred != 0
		case IsMentioned:
			return received && flags&(FlagMentioned|FlagStreamWildcardMentioned|FlagTopicWildcardMentioned) != 0
		case IsDM:
			return m.IsDirect()
		case IsResolved:
			return !m.IsDirect() && strings.HasPrefix(m.Topic, ResolvedPrefix)
		}
		return false
	case OpID:
		return m.ID == t.Message
	}
	return false
}

// SearchWords splits a search operand into lower-cased words.
func SearchWords(q string) []string { return strings.Fields(strings.ToLower(q)) }

// MatchesSearch reports whether every word of the query occurs, case-insensitively, in the
// message's content or topic. An empty query matches everything.
func MatchesSearch(m Message, q string) bool {
	content := strings.ToLower(m.Content)
	topic := strings.ToLower(m.Topic)
	for _, w := range SearchWords(q) {
		if !strings.Contains(content, w) && !strings.Contains(topic, w) {
			return false
		}
	}
	return true
}
