package conversations

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/internal/world"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/narrows"
	"github.com/teamchat/chat/realms"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/topics"
	"github.com/teamchat/chat/users"
)

// UpdateMessageParams are the parameters of PATCH /messages/{message_id}. Nil fields are not
// changed.
type UpdateMessageParams struct {
	MessageID messages.ID
	Content   *string
	Topic     *string
	StreamID  *channels.ID
	// PropagateMode is change_one (also ""), change_later or change_all.
	PropagateMode string
	// SendNotificationToOldThread defaults to false, SendNotificationToNewThread to true.
	SendNotificationToOldThread *bool
	SendNotificationToNewThread *bool
	// PrevContentSHA256 is the hex SHA-256 of the content the client edited, if given.
	PrevContentSHA256 *string
}

// UpdateMessageResult lists the uploads the edit detached (always empty: uploads are not
// tracked).
type UpdateMessageResult struct {
	DetachedUploads []any `json:"detached_uploads"`
}

// editLimitBuffer is the grace Zulip adds to every edit and move time limit, in seconds.
const editLimitBuffer = 20

// Errors of editing and moving messages; their text is Zulip's.
var (
	errEditingDisabled     = &engine.Error{Code: engine.CodeBadRequest, Msg: "Your organization has turned off message editing"}
	errCannotEdit          = &engine.Error{Code: engine.CodeBadRequest, Msg: "You don't have permission to edit this message"}
	errEditTimeLimit       = &engine.Error{Code: engine.CodeBadRequest, Msg: "The time limit for editing this message has passed"}
	errTopicEditTimeLimit  = &engine.Error{Code: engine.CodeBadRequest, Msg: "The time limit for editing this message's topic has passed."}
	errStreamEditTimeLimit = &engine.Error{Code: engine.CodeBadRequest, Msg: "The time limit for editing this message's channel has passed"}
	ErrNothingToChange     = &engine.Error{Code: engine.CodeBadRequest, Msg: "Nothing to change"}
	errDirectToChannel     = &engine.Error{Code: engine.CodeBadRequest, Msg: "Direct messages cannot be moved to channels."}
	errDirectTopic         = &engine.Error{Code: engine.CodeBadRequest, Msg: "Direct messages cannot have topics."}
	errPropagateWithout    = &engine.Error{Code: engine.CodeBadRequest, Msg: "Invalid propagate_mode without topic edit"}
	errResolveGeneralChat  = &engine.Error{Code: engine.CodeBadRequest, Msg: "General chat cannot be marked as resolved"}
	errContentAndChannel   = &engine.Error{Code: engine.CodeBadRequest, Msg: "Cannot change message content while changing channel"}
	errCannotResolve       = &engine.Error{Code: engine.CodeBadRequest, Msg: "You don't have permission to resolve topics in this channel."}
	errCannotMove          = &engine.Error{Code: engine.CodeBadRequest, Msg: "You don't have permission to move this message"}
	errPrevContentMismatch = &engine.Error{Code: engine.CodeExpectationMismatch, Msg: "'prev_content_sha256' value does not match the expected value."}
)

// errMoveTimeLimit is MOVE_MESSAGES_TIME_LIMIT_EXCEEDED: only the newest allowed of the total
// messages of the topic may be moved (first is the oldest of those, 0 when none).
func errMoveTimeLimit(first messages.ID, allowed, total int) *engine.Error {
	var firstID any
	if first != 0 {
		firstID = first
	}
	return engine.Errorf(engine.CodeMoveMessagesTimeLimitExceeded,
		"You only have permission to move the %d/%d most recent messages in this topic.", allowed, total).
		With("first_message_id_allowed_to_move", firstID).
		With("total_messages_in_topic", total).
		With("total_messages_allowed_to_move", allowed)
}

// editPlan is a validated and permitted edit: what changes and which messages it touches.
type editPlan struct {
	me  users.User
	m   messages.Message // the target message before the edit
	now int64

	content *string // the new content; nil when unchanged

	topicEdited          bool
	topic                string // the target topic (the message's own when not edited)
	resolved, unresolved bool
	streamEdited         bool
	orig, target         channels.Channel
	mode                 messages.PropagateMode
	notifyOld, notifyNew bool
}

func (p editPlan) moved() bool { return p.topicEdited || p.streamEdited }

// resolveToggle reports whether the move only marks the topic resolved or unresolved.
func (p editPlan) resolveToggle() bool { return p.resolved || p.unresolved }

// UpdateMessage edits a message's content (its sender, within the organization's edit
// window) and/or moves it, and with propagate_mode the rest of its topic, to another topic
// and/or channel (can_move_messages_* permissions and the move time limits), and delivers
// update_message events to the users who can see the messages (delete_message to those who
// lose access).
func (s *Service) UpdateMessage(ctx context.Context, actor engine.Actor, p UpdateMessageParams) (UpdateMessageResult, error) {
	mode, ok := messages.ParsePropagateMode(p.PropagateMode)
	if !ok {
		return UpdateMessageResult{}, engine.InvalidArgument("propagate_mode", "")
	}
	var content *string
	if p.Content != nil {
		c := "(deleted)"
		if !messages.IsBlank(*p.Content) {
			var err error
			if c, err = messages.NormalizeContent(*p.Content); err != nil {
				return UpdateMessageResult{}, engine.RuleError(err)
			}
		}
		content = &c
	}
	err := s.eng.Mutate(ctx, actor, engine.SignedIn, func(o *engine.WriteOp) error {
		tx, ev, me, w := o.Tx, o.Ev, o.Me, o.World()
		plan, err := planEdit(w, tx.Messages(), me, o.Now.Unix(), mode, content, p)
		if err != nil {
			return err
		}
		return s.applyEdit(tx, ev, w, plan)
	})
	if err != nil {
		return UpdateMessageResult{}, err
	}
	return UpdateMessageResult{DetachedUploads: []any{}}, nil
}

// planEdit validates the request and checks the actor's permissions, in Zulip's order.
func planEdit(w *world.World, r storage.MessageReader, me users.User, now int64, mode messages.PropagateMode, content *string, p UpdateMessageParams) (editPlan, error) {
	m, _, err := narrows.ReadableMessage(w, r, me, p.MessageID)
	if err != nil {
		return editPlan{}, err
	}
	if c, ok := w.Channel(m.ChannelID); ok && c.IsArchived {
		return editPlan{}, errInvalidMessage // messages of archived channels are not modified
	}
	if p.StreamID != nil && !m.IsDirect() && *p.StreamID == m.ChannelID {
		p.StreamID = nil // the message's own channel is no move (feature level 509)
	}
	plan := editPlan{me: me, m: m, now: now, content: content, mode: mode, topic: m.Topic,
		notifyOld: p.SendNotificationToOldThread != nil && *p.SendNotificationToOldThread,
		notifyNew: p.SendNotificationToNewThread == nil || *p.SendNotificationToNewThread}
	if content != nil {
		if err := checkCanEditContent(w, me, m, now); err != nil {
			return plan, err
		}
	}
	topic, err := editedTopic(w, m, p.Topic)
	if err != nil {
		return plan, err
	}
	if err := checkEditShape(m, topic, content, mode, p); err != nil {
		return plan, err
	}
	if m.IsDirect() {
		return plan, nil
	}
	plan.orig, _ = w.Channel(m.ChannelID)
	plan.target = plan.orig
	if topic != nil {
		plan.topicEdited = true
		plan.topic = topics.Truncate(*topic)
		plan.resolved, plan.unresolved = messages.ResolveChange(m.Topic, plan.topic, *topic)
	}
	if p.StreamID != nil && *p.StreamID != m.ChannelID {
		c, ok := w.Channel(*p.StreamID)
		if !ok || c.IsArchived || !w.Content(c, me) {
			return plan, ErrInvalidChannelID
		}
		plan.target, plan.streamEdited = c, true
	}
	if !plan.moved() {
		plan.mode = messages.ChangeOne
	}
	if err := checkTopicsPolicy(plan); err != nil {
		return plan, err
	}
	if err := checkCanMove(w, r, plan); err != nil {
		return plan, err
	}
	if plan.moved() {
		return plan, checkCanCreateTopic(w, r, me, plan.target, plan.topic)
	}
	return plan, nil
}

// editedTopic is the topic an edit asks for, cleaned; nil when it asks for none or for the
// message's own.
func editedTopic(w *world.World, m messages.Message, given *string) (*string, error) {
	if given == nil {
		return nil, nil
	}
	t, err := topics.Clean(*given, w.Org().EmptyTopicDisplayName)
	if err != nil {
		return nil, TopicError("topic", err)
	}
	if t == m.Topic {
		return nil, nil
	}
	return &t, nil
}

// checkEditShape refuses the combinations of an edit that no permission allows, in Zulip's
// order.
func checkEditShape(m messages.Message, topic, content *string, mode messages.PropagateMode, p UpdateMessageParams) error {
	switch {
	case topic == nil && content == nil && p.StreamID == nil:
		return ErrNothingToChange
	case m.IsDirect() && p.StreamID != nil:
		return errDirectToChannel
	case m.IsDirect() && topic != nil:
		return errDirectTopic
	case mode != messages.ChangeOne && topic == nil && p.StreamID == nil:
		return errPropagateWithout
	case topic != nil && messages.IsUnresolvableTopic(*topic):
		return errResolveGeneralChat
	case p.StreamID != nil && content != nil:
		return errContentAndChannel
	case p.PrevContentSHA256 != nil && *p.PrevContentSHA256 != sha256Hex(m.Content):
		return errPrevContentMismatch
	}
	return nil
}

func sha256Hex(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// checkCanEditContent: editing allowed in the organization, the sender only, within the
// content edit limit.
func checkCanEditContent(w *world.World, me users.User, m messages.Message, now int64) error {
	if !w.Org().AllowMessageEditing {
		return errEditingDisabled
	}
	if m.SenderID != me.ID {
		return errCannotEdit
	}
	if limit := w.Org().MessageContentEditLimitSeconds; limit > 0 && now-m.Timestamp > int64(limit+editLimitBuffer) {
		return errEditTimeLimit
	}
	return nil
}

// checkTopicsPolicy applies the target channel's topics policy to a move.
func checkTopicsPolicy(p editPlan) error {
	policy := effectiveTopicsPolicy(p.target)
	if p.topic == "" && p.moved() && policy == channels.TopicsDisableEmpty {
		return errTopicsRequired
	}
	if policy == channels.TopicsEmptyTopicOnly && p.topic != "" {
		return errGeneralChatOnly
	}
	return nil
}

// checkCanMove checks the permissions and time limits of a topic change (or resolve) and of a
// channel change, and with change_all that every message of the topic is within the limit.
// A change_all move of a message past its limit in a topic where some messages are within
// it answers MOVE_MESSAGES_TIME_LIMIT_EXCEEDED, which says how many may move (feature level
// 505); when none may, the message's own time limit error.
func checkCanMove(w *world.World, r storage.MessageReader, p editPlan) error {
	me := p.me
	if p.topicEdited {
		if p.resolveToggle() {
			if !canResolveTopics(w, me, p.orig, p.target) {
				return errCannotResolve
			}
		} else if !canMoveWithinChannels(w, me, p.orig, p.target) {
			return errCannotEdit
		}
	}
	if p.streamEdited {
		if !canMoveOutOf(w, me, p.orig) {
			return errCannotMove
		}
		if !channels.CanPost(w.Membership(), p.target, w.Viewer(p.target.ID, me)) {
			return errCannotPost
		}
	}
	moderator := me.Role.AtLeast(users.RoleModerator)
	changeAll := p.mode == messages.ChangeAll && !moderator && p.moved() && !p.resolveToggle()
	if err := checkMoveAge(w, p, moderator); err != nil {
		if changeAll {
			allowed, topicErr := checkTopicMoveLimit(w, r, p)
			var coded *engine.Error
			if topicErr != nil && (allowed > 0 || !errors.As(topicErr, &coded)) {
				return topicErr // some may move, or the read failed
			}
		}
		return err
	}
	if changeAll {
		_, err := checkTopicMoveLimit(w, r, p)
		return err
	}
	return nil
}

// checkMoveAge applies the move time limits to the edited message itself.
func checkMoveAge(w *world.World, p editPlan, moderator bool) error {
	if moderator {
		return nil
	}
	age := p.now - p.m.Timestamp
	if p.topicEdited && !p.resolveToggle() {
		if limit := w.Org().MoveMessagesWithinStreamLimitSeconds; limit > 0 && age > int64(limit+editLimitBuffer) {
			return errTopicEditTimeLimit
		}
	}
	if p.streamEdited {
		if limit := w.Org().MoveMessagesBetweenStreamsLimitSeconds; limit > 0 && age > int64(limit+editLimitBuffer) {
			return errStreamEditTimeLimit
		}
	}
	return nil
}

// checkTopicMoveLimit refuses a change_all move when some of the topic's messages the actor
// can read are older than the strictest applicable move limit; allowed is how many are not.
func checkTopicMoveLimit(w *world.World, r storage.MessageReader, p editPlan) (allowed int, err error) {
	deadline := 0
	for _, l := range []struct {
		applies bool
		limit   int
	}{{p.topicEdited, w.Org().MoveMessagesWithinStreamLimitSeconds}, {p.streamEdited, w.Org().MoveMessagesBetweenStreamsLimitSeconds}} {
		if l.applies && l.limit > 0 && (deadline == 0 || l.limit+editLimitBuffer < deadline) {
			deadline = l.limit + editLimitBuffer
		}
	}
	if deadline == 0 {
		return 0, nil
	}
	ids, err := movableTopicMessages(w, r, p.me, p.orig, p.m.Topic)
	if err != nil {
		return 0, err
	}
	msgs, err := r.GetMany(ids)
	if err != nil {
		return 0, err
	}
	var ok []messages.ID
	for _, m := range msgs {
		if m.Timestamp > p.now-int64(deadline) {
			ok = append(ok, m.ID)
		}
	}
	if len(ok) == len(msgs) {
		return len(ok), nil
	}
	var first messages.ID
	if len(ok) > 0 {
		first = ok[0]
	}
	return len(ok), errMoveTimeLimit(first, len(ok), len(msgs))
}

// movableTopicMessages lists, ascending, the messages of a topic that me may read: all of
// them where me may read the channel's history, else those me has a row for.
func movableTopicMessages(w *world.World, r storage.MessageReader, me users.User, c channels.Channel, topic string) ([]messages.ID, error) {
	ids, err := r.TopicMessageIDs(c.ID, topic, 0)
	if err != nil {
		return nil, err
	}
	if (!c.InviteOnly || c.HistoryPublicToSubscribers) && w.Content(c, me) {
		out := make([]messages.ID, len(ids))
		for i, id := range ids {
			out[len(ids)-1-i] = id
		}
		return out, nil
	}
	rows, err := r.UserRows(me.ID, ids)
	if err != nil {
		return nil, err
	}
	out := make([]messages.ID, len(rows))
	for i, row := range rows {
		out[i] = row.MessageID
	}
	return out, nil
}

// realmAllows evaluates an organization permission; the zero setting (an organization stored
// before the setting existed) means the system group def.
func realmAllows(w *world.World, s users.GroupSetting, def string, u users.ID) bool {
	if channels.IsZeroSetting(s) {
		s = users.Named(w.GroupID(def))
	}
	return w.Membership().Allows(s, u)
}

// canMoveWithin: moving messages between topics of c (can_move_messages_within_channel_group,
// administrators of the organization or of the channel).
func canMoveWithin(w *world.World, me users.User, c channels.Channel) bool {
	return me.Role.IsAdmin() || channels.CanAdminister(w.Membership(), c, w.Viewer(c.ID, me)) ||
		w.Membership().Allows(c.CanMoveMessagesWithinChannelGroup, me.ID)
}

// canMoveWithinChannels: the organization's can_move_messages_between_topics_group, or
// moving within the original or the target channel.
func canMoveWithinChannels(w *world.World, me users.User, orig, target channels.Channel) bool {
	return realmAllows(w, w.Org().CanMoveMessagesBetweenTopicsGroup, realms.DefaultMoveGroups[0], me.ID) ||
		canMoveWithin(w, me, orig) || orig.ID != target.ID && canMoveWithin(w, me, target)
}

// canMoveOutOf: moving messages out of c.
func canMoveOutOf(w *world.World, me users.User, c channels.Channel) bool {
	return me.Role.IsAdmin() ||
		realmAllows(w, w.Org().CanMoveMessagesBetweenChannelsGroup, realms.DefaultMoveGroups[1], me.ID) ||
		channels.CanAdminister(w.Membership(), c, w.Viewer(c.ID, me)) ||
		w.Membership().Allows(c.CanMoveMessagesOutOfChannelGroup, me.ID)
}

// canResolveTopics: the organization's can_resolve_topics_group, or the channel's (original
// or target).
func canResolveTopics(w *world.World, me users.User, orig, target channels.Channel) bool {
	return realmAllows(w, w.Org().CanResolveTopicsGroup, realms.DefaultMoveGroups[2], me.ID) ||
		w.Membership().Allows(orig.CanResolveTopicsGroup, me.ID) ||
		orig.ID != target.ID && w.Membership().Allows(target.CanResolveTopicsGroup, me.ID)
}
