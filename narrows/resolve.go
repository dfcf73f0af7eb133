package narrows

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/internal/world"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/topics"
	"github.com/teamchat/chat/users"
)

// Term is one term of a narrow as the client sent it. Operand is a string, a number, or
// a list of numbers or strings (dm).
type Term struct {
	Operator string `json:"operator"`
	Operand  any    `json:"operand"`
	Negated  bool   `json:"negated,omitempty"`
}

// errBadNarrow is Zulip's BadNarrowOperatorError: BAD_NARROW with the description in desc.
func errBadNarrow(format string, args ...any) *engine.Error {
	desc := fmt.Sprintf(format, args...)
	return engine.Errorf(engine.CodeBadNarrow, "Invalid narrow operator: %s", desc).With("desc", desc)
}

// errUnknownName marks the BAD_NARROW errors of unknown channels and users.
var errUnknownName = errors.New("unknown name")

// errUnknown is errBadNarrow for an unknown channel or user.
func errUnknown(format string, args ...any) *engine.Error {
	e := errBadNarrow(format, args...)
	e.Err = errUnknownName
	return e
}

// errBadNarrowCombination is Zulip's InvalidOperatorCombinationError.
func errBadNarrowCombination(desc string) *engine.Error {
	return engine.Errorf(engine.CodeBadNarrow, "Invalid narrow operator combination: %s", desc).With("desc", desc)
}

// narrowSide says whether a narrow's non-negated terms ask for channel messages or for direct
// messages; asking for both is Zulip's "No message can be both a channel message and direct
// message".
type narrowSide struct{ channel, direct bool }

func (s *narrowSide) note(op messages.Operator, text string, negated bool) error {
	switch {
	case op == messages.OpIs && text == messages.IsDM:
		if negated {
			s.channel = true
		} else {
			s.direct = true
		}
	case negated:
		return nil
	case op == messages.OpChannel || op == messages.OpChannels || op == messages.OpTopic:
		s.channel = true
	case op == messages.OpDM || op == messages.OpDMIncluding || op == messages.OpGroupDMWith:
		s.direct = true
	}
	if s.channel && s.direct {
		return errBadNarrow("No message can be both a channel message and direct message")
	}
	return nil
}

// Resolve turns the client's narrow into terms: channel names and emails become ids,
// with becomes its message's conversation, near (an anchor only) and in:all disappear, in:home
// becomes -is:muted, and is:followed and is:muted carry the viewer's topic settings (read
// through ut). Unknown operators, operands, channels and users are BAD_NARROW; a channel the
// user may not see is reported as unknown.
func Resolve(w *world.World, ut storage.UserTopicReader, me users.User, narrow []Term) ([]messages.Term, error) {
	return resolveTerms(w, ut, me, narrow, false)
}

// resolveTerms is Resolve; lenient keeps a term naming an unknown channel or user with a
// zero id, which matches no message (an event queue's narrow is not checked, as in Zulip).
func resolveTerms(w *world.World, ut storage.UserTopicReader, me users.User, narrow []Term, lenient bool) ([]messages.Term, error) {
	for _, n := range narrow {
		if err := checkOperand(n); err != nil {
			return nil, err
		}
	}
	narrow, err := expandWith(w, me, narrow)
	if err != nil {
		return nil, err
	}
	var side narrowSide
	var prefs *topicPrefs
	terms := make([]messages.Term, 0, len(narrow))
	for _, n := range narrow {
		op, ok := messages.CanonicalOperator(n.Operator)
		if !ok {
			return nil, errBadNarrow("unknown operator %s", n.Operator)
		}
		t := messages.Term{Operator: op, Negated: n.Negated}
		keep, err := resolveOperand(w, me, n, &t)
		if err != nil && lenient && errors.Is(err, errUnknownName) {
			t = messages.Term{Operator: t.Operator, Negated: t.Negated}
			keep, err = true, nil
		}
		if err != nil {
			return nil, err
		}
		if err := side.note(t.Operator, t.Text, t.Negated); err != nil {
			return nil, err
		}
		if !keep {
			continue
		}
		if t.Operator == messages.OpIs && (t.Text == messages.IsFollowed || t.Text == messages.IsMuted) {
			if prefs == nil {
				if prefs, err = topicPrefsOf(w, ut, me); err != nil {
					return nil, err
				}
			}
			prefs.fill(&t)
		}
		terms = append(terms, t)
	}
	return terms, nil
}

// resolveOperand fills t from the client's term; false when the term selects nothing more
// (near, in:all).
func resolveOperand(w *world.World, me users.User, n Term, t *messages.Term) (bool, error) {
	var err error
	switch t.Operator {
	case messages.OpChannel, messages.OpChannels:
		err = resolveChannelOperand(w, me, n, t)
	case messages.OpTopic, messages.OpSearch, messages.OpIs, messages.OpHas, messages.OpIn:
		return resolveTextOperand(w, n, t)
	case messages.OpSender, messages.OpDMIncluding, messages.OpGroupDMWith, messages.OpDM:
		err = resolveUserOperand(w, me, n, t)
	case messages.OpID:
		id, ok := intOperand(n.Operand)
		if !ok || id < 0 {
			return false, errBadNarrow("Invalid message ID")
		}
		t.Message = messages.ID(id)
	case messages.OpNear:
		return false, nil
	}
	return err == nil, err
}

// resolveChannelOperand fills t for channel (one the user may read the messages of, by id or
// name) and channels (public or web-public).
func resolveChannelOperand(w *world.World, me users.User, n Term, t *messages.Term) error {
	if t.Operator == messages.OpChannel {
		c, ok := channelOperand(w, me, n.Operand)
		if !ok {
			return errUnknown("unknown channel %s", operandText(n.Operand))
		}
		t.Channel = c
		return nil
	}
	s, _ := n.Operand.(string)
	if s != messages.ChannelsPublic && s != messages.ChannelsWebPublic {
		return errBadNarrow("unknown channels operand %s", s)
	}
	t.Channels = publicChannels(w, s == messages.ChannelsWebPublic)
	t.Text = s
	return nil
}

// HistoryChannels is Zulip's ok_to_include_history: the channels whose messages me reads
// without having received them. A narrow reaches history only through a term, not negated,
// on a channel whose history me may read, or on channels:public for a user who may read
// public channels (not a guest); an is: term on me's own flags (every is: but resolved,
// followed and muted, which are properties of the topic, in:home included) turns it off. An
// empty narrow is what me received and nothing else.
func HistoryChannels(w *world.World, me users.User, terms []messages.Term) []channels.ID {
	// The last channel or channels term decides; the channels are listed only when it can
	// hold (listing them looks up me's subscription to every channel).
	include, channel := false, channels.ID(0)
	for _, t := range terms {
		switch {
		case t.Negated:
		case t.Operator == messages.OpChannel:
			include, channel = true, t.Channel
		case t.Operator == messages.OpChannels && t.Text == messages.ChannelsPublic && me.Role != users.RoleGuest:
			include, channel = true, 0
		}
	}
	for _, t := range terms {
		if t.Operator == messages.OpIs && t.Text != messages.IsResolved && t.Text != messages.IsFollowed && t.Text != messages.IsMuted {
			include = false
		}
	}
	if !include {
		return nil
	}
	readable := w.HistoryChannels(me)
	if channel != 0 && !slices.Contains(readable, channel) {
		return nil
	}
	return readable
}

// resolveTextOperand fills t for the operators with a text operand: topic, search, is, has and
// in (in:home is is:muted negated; in:all selects nothing more).
func resolveTextOperand(w *world.World, n Term, t *messages.Term) (bool, error) {
	text := n.Operand.(string)
	switch t.Operator {
	case messages.OpTopic:
		clean, err := topics.CleanOperand(text, w.Org().EmptyTopicDisplayName)
		if err != nil {
			return false, errBadNarrow("invalid operand")
		}
		t.Text = clean
	case messages.OpSearch:
		t.Text = text
		t.Search = messages.ParseSearch(t.Text)
	case messages.OpIs:
		is, ok := messages.CanonicalIs(text)
		if !ok {
			return false, errBadNarrow("unknown 'is' operand %s", operandText(n.Operand))
		}
		t.Text = is
	case messages.OpHas:
		if !messages.ValidHas(text) {
			return false, errBadNarrow("unknown 'has' operand %s", text)
		}
		t.Text = text
	case messages.OpIn:
		switch text {
		case "home":
			t.Operator, t.Text, t.Negated = messages.OpIs, messages.IsMuted, !t.Negated
		case "all":
			return false, nil
		default:
			return false, errBadNarrow("unknown 'in' operand %s", operandText(n.Operand))
		}
	}
	return true, nil
}

// resolveUserOperand fills t for the operators naming users: sender, dm-including (the user
// themselves: is:dm), group-pm-with and dm (an empty list matches nothing).
func resolveUserOperand(w *world.World, me users.User, n Term, t *messages.Term) error {
	if t.Operator == messages.OpDM {
		ids, ok := usersOperand(w, n.Operand)
		if !ok {
			return errUnknown("unknown user in %s", operandText(n.Operand))
		}
		if len(ids) > 0 {
			t.Users = messages.Participants(me.ID, ids)
		}
		return nil
	}
	u, ok := userOperand(w, n.Operand)
	if !ok {
		return errUnknown("unknown user %s", operandText(n.Operand))
	}
	t.User = u
	if t.Operator == messages.OpDMIncluding && u == me.ID {
		t.Operator, t.Text = messages.OpIs, messages.IsDM
	}
	return nil
}

// expandWith replaces a with term by its message's conversation (channel and topic, or the
// direct-message participants), dropping the narrow's own conversation terms, as Zulip does.
// A message the user may not read leaves the narrow as it is when it names a conversation
// already, and is BAD_NARROW otherwise.
func expandWith(w *world.World, me users.User, narrow []Term) ([]Term, error) {
	at := -1
	for i, n := range narrow {
		if n.Operator != string(messages.OpWith) {
			continue
		}
		if at >= 0 {
			return nil, errBadNarrowCombination("Duplicate 'with' operators.")
		}
		at = i
	}
	if at < 0 {
		return narrow, nil
	}
	id, ok := intOperand(narrow[at].Operand)
	rest := slices.Delete(slices.Clone(narrow), at, at+1)
	if !ok {
		return nil, errBadNarrow("Invalid 'with' operator")
	}
	m, _, err := ReadableMessage(w, w.MessageReader(), me, messages.ID(id))
	if err != nil {
		var ce *engine.Error
		if !errors.As(err, &ce) || ce.Code != engine.CodeBadRequest {
			return nil, err
		}
		if definesConversation(rest) {
			return rest, nil
		}
		return nil, errBadNarrow("Invalid 'with' operator")
	}
	out := make([]Term, 0, len(rest)+2)
	if m.IsDirect() {
		ids := make([]any, 0, len(m.Recipients))
		for _, u := range m.Recipients {
			ids = append(ids, float64(u))
		}
		out = append(out, Term{Operator: "dm", Operand: ids})
	} else {
		out = append(out, Term{Operator: "channel", Operand: float64(m.ChannelID)},
			Term{Operator: "topic", Operand: m.Topic})
	}
	for _, n := range rest {
		switch n.Operator {
		case "stream", "channel", "topic", "subject", "dm", "pm-with", "pm_with":
			continue
		}
		out = append(out, n)
	}
	return out, nil
}

// definesConversation reports whether a narrow names one conversation (dm, or channel and
// topic).
func definesConversation(narrow []Term) bool {
	var channel, topic bool
	for _, n := range narrow {
		switch n.Operator {
		case "dm", "pm-with":
			return true
		case "stream", "channel":
			channel = true
		case "topic":
			topic = true
		}
		if channel && topic {
			return true
		}
	}
	return false
}

// publicChannels lists the organization's public channels (not invite-only; web-public ones
// only with webPublic), ascending.
func publicChannels(w *world.World, webPublic bool) []channels.ID {
	out := []channels.ID{}
	for _, c := range w.AllChannels() {
		if (webPublic && c.IsWebPublic) || (!webPublic && !c.InviteOnly) {
			out = append(out, c.ID)
		}
	}
	slices.Sort(out)
	return out
}

// topicPrefs are the viewer's settings that is:followed and is:muted read.
type topicPrefs struct {
	mutedChannels         []channels.ID
	followed, muted, open []messages.TopicRef
}

func topicPrefsOf(w *world.World, ut storage.UserTopicReader, me users.User) (*topicPrefs, error) {
	p := &topicPrefs{}
	rows, err := ut.ListForUser(me.ID)
	if err != nil {
		return nil, err
	}
	for _, r := range rows {
		ref := messages.TopicRef{Channel: r.ChannelID, Topic: r.Topic}
		switch r.Policy {
		case topics.PolicyFollowed:
			p.followed = append(p.followed, ref)
			p.open = append(p.open, ref)
		case topics.PolicyUnmuted:
			p.open = append(p.open, ref)
		case topics.PolicyMuted:
			p.muted = append(p.muted, ref)
		}
	}
	subs, err := w.SubscriptionRows(me.ID)
	if err != nil {
		return nil, err
	}
	for _, s := range subs {
		if s.Active && s.IsMuted {
			p.mutedChannels = append(p.mutedChannels, s.ChannelID)
		}
	}
	return p, nil
}

func (p *topicPrefs) fill(t *messages.Term) {
	if t.Text == messages.IsFollowed {
		t.Topics = p.followed
		return
	}
	t.Channels, t.Topics, t.Unmuted = p.mutedChannels, p.muted, p.open
}

// Queue resolves register's narrow ([operator, operand] pairs, "-operator" negated) for
// me: the operators of GET /messages, with unknown channels and users matching nothing. An
// unknown operator is Zulip's "Operator ... not supported.".
func Queue(o *engine.ReadOp, narrow [][]string) ([]messages.Term, error) {
	if len(narrow) == 0 {
		return nil, nil
	}
	list := make([]Term, len(narrow))
	for i, pair := range narrow {
		op, negated := strings.CutPrefix(pair[0], "-")
		if _, ok := messages.CanonicalOperator(op); !ok {
			return nil, engine.BadRequest("Operator %s not supported.", op)
		}
		list[i] = Term{Operator: op, Operand: pair[1], Negated: negated}
	}
	return resolveTerms(o.World(), o.Tx.UserTopics(), o.Me, list, true)
}
