package typing

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/conversations"
	"github.com/teamchat/chat/internal/clients"
	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/internal/world"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/narrows"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/topics"
	"github.com/teamchat/chat/users"
)

// TypingExpiry is how long a start of typing lasts without another start: then the Service
// sends the stop the client did not (register's server_typing_started_expiry_period).
const TypingExpiry = 45 * time.Second

// MaxChannelSizeForTyping is the largest channel whose typing notifications are sent (Zulip's
// max_stream_size_for_typing_notifications).
const MaxChannelSizeForTyping = 100

// SetTypingStatusParams are the parameters of POST /typing.
type SetTypingStatusParams struct {
	// Type is "direct" (the default when empty), "stream" or "channel".
	Type string
	// Op is "start" or "stop".
	Op string
	// To are the recipients of a direct message (nil: absent).
	To []users.ID
	// StreamID and Topic name the conversation of a channel message.
	StreamID *channels.ID
	Topic    *string
}

// SetTypingStatusForMessageEditParams are the parameters of POST /messages/{message_id}/typing.
type SetTypingStatusForMessageEditParams struct {
	MessageID messages.ID
	Op        string
}

// TypingUser is a user in a typing event.
type TypingUser struct {
	UserID users.ID `json:"user_id"`
	Email  string   `json:"email"`
}

// TypingEvent is a typing event (op start or stop). A channel's typing goes only to clients
// with the stream_typing_notifications capability, its topic shown per client.
type TypingEvent struct {
	Type        string       `json:"type"`
	Op          string       `json:"op"`
	MessageType string       `json:"message_type"`
	Sender      TypingUser   `json:"sender"`
	Recipients  []TypingUser `json:"recipients,omitempty"`
	StreamID    *channels.ID `json:"stream_id,omitempty"`
	Topic       *string      `json:"topic,omitempty"`

	topic, emptyTopicLabel string
}

func (e TypingEvent) ForClient(o clients.Options) (any, bool) {
	if e.Topic != nil {
		t := topics.Display(e.topic, e.emptyTopicLabel, o.Capabilities.EmptyTopicName)
		e.Topic = &t
	}
	return e, true
}

// TypingEditMessageEvent is a typing_edit_message event.
type TypingEditMessageEvent struct {
	Type      string              `json:"type"`
	Op        string              `json:"op"`
	SenderID  users.ID            `json:"sender_id"`
	MessageID messages.ID         `json:"message_id"`
	Recipient TypingEditRecipient `json:"recipient"`
}

// TypingEditRecipient is the conversation of an edited message in a typing_edit_message event.
type TypingEditRecipient struct {
	Type      string       `json:"type"`
	ChannelID *channels.ID `json:"channel_id,omitempty"`
	Topic     *string      `json:"topic,omitempty"`
	UserIDs   []users.ID   `json:"user_ids,omitempty"`
}

// Errors of typing notifications; their text is Zulip's.
var (
	errTypingDirectOff  = engine.BadRequest("User has disabled typing notifications for direct messages")
	errTypingChannelOff = engine.BadRequest("User has disabled typing notifications for channel messages")
)

// SetTypingStatusResult is SetTypingStatus's answer: nothing beyond success.
type SetTypingStatusResult struct{}

// SetTypingStatus tells the recipients of the message the actor is composing that they
// started or stopped typing. A start that is not renewed within TypingExpiry ends with a stop
// sent by the Service.
func (s *Service) SetTypingStatus(ctx context.Context, actor engine.Actor, p SetTypingStatusParams) (SetTypingStatusResult, error) {
	if err := checkTypingOp(p.Op); err != nil {
		return SetTypingStatusResult{}, err
	}
	channel := false
	switch p.Type {
	case "", "direct":
	case "stream", "channel":
		channel = true
	default:
		return SetTypingStatusResult{}, engine.InvalidArgument("type", "")
	}
	if channel && p.StreamID == nil {
		return SetTypingStatusResult{}, engine.BadRequest("Missing channel ID")
	}
	if channel && p.Topic == nil {
		return SetTypingStatusResult{}, engine.BadRequest("Missing topic")
	}
	if !channel {
		switch {
		case p.To == nil:
			return SetTypingStatusResult{}, engine.MissingArgument("to")
		case len(p.To) == 0:
			return SetTypingStatusResult{}, engine.BadRequest("Empty 'to' list")
		case len(p.To) > narrows.MaxDirectRecipients:
			return SetTypingStatusResult{}, engine.BadRequest("Too many recipients (limit: %d)", narrows.MaxDirectRecipients)
		}
	}
	err := s.eng.Mutate(ctx, actor, engine.SignedIn, func(o *engine.WriteOp) error {
		tx, ev, me, w := o.Tx, o.Ev, o.Me, o.World()
		settings, err := tx.UserSettings().Get(me.ID)
		if err != nil {
			return err
		}
		var n engine.Pending
		var key string
		if channel {
			if settings.Value("send_stream_typing_notifications") != true {
				return errTypingChannelOff
			}
			n, key, err = channelTyping(w, tx, me, p)
		} else {
			if settings.Value("send_private_typing_notifications") != true {
				return errTypingDirectOff
			}
			n, key, err = directTyping(w, tx, me, p)
		}
		if err != nil {
			return err
		}
		ev.Add(n.Type, n.Payload, n.Recipients)
		ev.AfterCommit(func() { s.typing.note(key, p.Op, n, s.now()) })
		return nil
	})
	return SetTypingStatusResult{}, err
}

// SetTypingStatusForMessageEditResult is SetTypingStatusForMessageEdit's answer: nothing beyond success.
type SetTypingStatusForMessageEditResult struct{}

// SetTypingStatusForMessageEdit tells whoever would see an edit of the message that the
// actor started or stopped editing it.
func (s *Service) SetTypingStatusForMessageEdit(ctx context.Context, actor engine.Actor, p SetTypingStatusForMessageEditParams) (SetTypingStatusForMessageEditResult, error) {
	if err := checkTypingOp(p.Op); err != nil {
		return SetTypingStatusForMessageEditResult{}, err
	}
	err := s.eng.Mutate(ctx, actor, engine.SignedIn, func(o *engine.WriteOp) error {
		tx, ev, me, w := o.Tx, o.Ev, o.Me, o.World()
		m, _, err := conversations.ReactableMessage(w, tx.Messages(), me, p.MessageID)
		if err != nil {
			return err
		}
		e := TypingEditMessageEvent{Type: "typing_edit_message", Op: p.Op, SenderID: me.ID, MessageID: m.ID}
		var to []users.ID
		if m.IsDirect() {
			rows, err := tx.Messages().Rows([]messages.ID{m.ID})
			if err != nil {
				return err
			}
			for _, r := range rows {
				to = append(to, r.UserID)
			}
			e.Recipient = TypingEditRecipient{Type: "direct", UserIDs: slices.Clone(to)}
		} else {
			subs := conversations.ActiveSubscribers(w, m.ChannelID)
			if len(subs) > MaxChannelSizeForTyping {
				return nil
			}
			c, t := m.ChannelID, m.Topic
			e.Recipient = TypingEditRecipient{Type: "channel", ChannelID: &c, Topic: &t}
			to = subs
		}
		recipients, err := typingRecipients(tx, w, to)
		if err != nil {
			return err
		}
		n := pending(e, recipients)
		ev.Add(n.Type, n.Payload, n.Recipients)
		key := "edit:" + strconv.FormatInt(int64(me.ID), 10) + ":" + strconv.FormatInt(int64(m.ID), 10)
		ev.AfterCommit(func() { s.typing.note(key, p.Op, n, s.now()) })
		return nil
	})
	return SetTypingStatusForMessageEditResult{}, err
}

func checkTypingOp(op string) error {
	switch op {
	case "start", "stop":
		return nil
	case "":
		return engine.MissingArgument("op")
	}
	return engine.InvalidArgument("op", "")
}

// directTyping is the typing event of a direct message being composed to p.To, and the key of
// that conversation for the actor.
func directTyping(w *world.World, tx storage.Tx, me users.User, p SetTypingStatusParams) (engine.Pending, string, error) {
	ids := slices.Clone(p.To)
	if !slices.Contains(ids, me.ID) {
		ids = append(ids, me.ID)
	}
	seen := map[users.ID]bool{}
	var list []TypingUser
	var all []users.ID
	for _, id := range ids {
		if seen[id] {
			continue
		}
		seen[id] = true
		u, ok := w.Lookup(id)
		if !ok {
			return engine.Pending{}, "", engine.BadRequest("Invalid user ID %d", id)
		}
		list = append(list, TypingUser{UserID: id, Email: w.APIEmail(u)})
		if u.IsActive {
			all = append(all, id)
		}
	}
	recipients, err := typingRecipients(tx, w, all)
	if err != nil {
		return engine.Pending{}, "", err
	}
	e := TypingEvent{
		Type: "typing", Op: p.Op, MessageType: "direct",
		Sender: TypingUser{UserID: me.ID, Email: w.APIEmail(me)}, Recipients: list,
	}
	key := "dm:" + strconv.FormatInt(int64(me.ID), 10) + ":" + fmt.Sprint(messages.Participants(me.ID, all))
	return pending(e, recipients), key, nil
}

// channelTyping is the typing event of a channel message being composed, for clients with
// the stream_typing_notifications capability.
func channelTyping(w *world.World, tx storage.Tx, me users.User, p SetTypingStatusParams) (engine.Pending, string, error) {
	c, err := conversations.ChannelForSend(w, tx.Messages(), me, conversations.SendMessageParams{ChannelID: p.StreamID})
	if err != nil {
		return engine.Pending{}, "", err
	}
	topic, err := topics.Clean(*p.Topic, w.Org().EmptyTopicDisplayName)
	if err != nil {
		return engine.Pending{}, "", conversations.TopicError("topic", err)
	}
	topic = topics.Truncate(topic)
	var recipients []int64
	if subs := conversations.ActiveSubscribers(w, c.ID); len(subs) <= MaxChannelSizeForTyping {
		if recipients, err = typingRecipients(tx, w, subs); err != nil {
			return engine.Pending{}, "", err
		}
	}
	id := c.ID
	e := TypingEvent{
		Type: "typing", Op: p.Op, MessageType: "stream",
		Sender:   TypingUser{UserID: me.ID, Email: w.APIEmail(me)},
		StreamID: &id, Topic: &topic, topic: topic, emptyTopicLabel: w.Org().EmptyTopicDisplayName,
	}
	key := "channel:" + strconv.FormatInt(int64(me.ID), 10) + ":" + strconv.FormatInt(int64(c.ID), 10) + ":" + topics.Key(topic)
	n := pending(clients.Gated{Payload: e, Capability: "stream_typing_notifications", Declared: true}, recipients)
	return n, key, nil
}

// typingRecipients keeps the active users among ids whose receives_typing_notifications is on.
func typingRecipients(tx storage.Tx, w *world.World, ids []users.ID) ([]int64, error) {
	settings, err := tx.UserSettings().GetMany(ids)
	if err != nil {
		return nil, err
	}
	var out []users.ID
	for _, id := range ids {
		if u, ok := w.Lookup(id); ok && u.IsActive && settings[id].Value("receives_typing_notifications") == true {
			out = append(out, id)
		}
	}
	return engine.Recipients(out), nil
}
