package compose

import (
	"context"
	"errors"
	"time"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/conversations"
	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/internal/world"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/topics"
	"github.com/teamchat/chat/users"
)

// ScheduledTo is the "to" of a scheduled message as the client sent it: an integer (a channel
// id) or a JSON list of user ids. Which one is needed depends on the message's type, which an
// edit may leave unchanged, so the Service decides.
type ScheduledTo struct {
	// ChannelID is set when to was an integer.
	ChannelID *channels.ID
	// UserIDs is non-nil when to was a JSON list of integers.
	UserIDs []users.ID
	// NotIDs is set when to was a JSON list holding something other than integers.
	NotIDs bool
}

// ScheduledMessageRecord is a scheduled message as the API returns it. To is the channel id of
// a channel message and the list of user ids of a direct message; Topic is only present for
// channel messages.
type ScheduledMessageRecord struct {
	ScheduledMessageID         messages.ScheduledID `json:"scheduled_message_id"`
	Type                       string               `json:"type"`
	To                         any                  `json:"to"`
	Topic                      *string              `json:"topic,omitempty"`
	Content                    string               `json:"content"`
	RenderedContent            string               `json:"rendered_content"`
	ScheduledDeliveryTimestamp int64                `json:"scheduled_delivery_timestamp"`
	Failed                     bool                 `json:"failed"`
}

func scheduledMessageRecord(m messages.Scheduled) ScheduledMessageRecord {
	r := ScheduledMessageRecord{
		ScheduledMessageID: m.ID, Type: "private", To: m.To(), Content: m.Content, RenderedContent: m.Rendered,
		ScheduledDeliveryTimestamp: m.DeliverAt, Failed: m.Failed,
	}
	if !m.IsDirect() {
		topic := m.Topic
		r.Type, r.To, r.Topic = "stream", int64(m.ChannelID), &topic
	}
	return r
}

// ScheduledMessagesEvent is a scheduled_messages event: op add (ScheduledMessages), update
// (ScheduledMessage) or remove (ScheduledMessageID).
type ScheduledMessagesEvent struct {
	Type               string                   `json:"type"`
	Op                 string                   `json:"op"`
	ScheduledMessages  []ScheduledMessageRecord `json:"scheduled_messages,omitempty"`
	ScheduledMessage   *ScheduledMessageRecord  `json:"scheduled_message,omitempty"`
	ScheduledMessageID messages.ScheduledID     `json:"scheduled_message_id,omitempty"`
}

// Errors of scheduled messages; their texts are Zulip's.
var (
	errDeliveryNotInFuture = engine.BadRequest("Scheduled delivery time must be in the future.")
	errAlreadySent         = engine.BadRequest("Scheduled message was already sent")
	errScheduledChannelTo  = engine.BadRequest("Invalid data type for channel ID")
	errScheduledDirectTo   = engine.BadRequest("Invalid data type for recipients")
	errScheduledNotIDs     = engine.BadRequest("Recipient list may only contain user IDs")
)

func errScheduledNotFound() *engine.Error {
	return &engine.Error{Code: engine.CodeBadRequest, Status: 404, Msg: "Scheduled message does not exist"}
}

// maxScheduledTimestamp is the last second of year 9999, the latest time Zulip can store.
const maxScheduledTimestamp = 253402300799

// checkDeliveryTime refuses a delivery time that is not after now (Zulip compares with the
// current instant, so the current second is already past) or that no calendar holds.
func checkDeliveryTime(ts int64, now time.Time) error {
	if ts > maxScheduledTimestamp {
		return engine.InvalidArgument("scheduled_delivery_timestamp", "")
	}
	if !time.Unix(ts, 0).After(now) {
		return errDeliveryNotInFuture
	}
	return nil
}

// scheduledType normalises the type of a scheduled message to "stream" or "private".
func scheduledType(t string) (string, error) {
	switch t {
	case "stream", "channel":
		return "stream", nil
	case "direct", "private":
		return "private", nil
	}
	return "", engine.InvalidArgument("type", "")
}

// GetScheduledMessagesParams are the parameters of GET /scheduled_messages (none).
type GetScheduledMessagesParams struct{}

// GetScheduledMessagesResult lists the actor's undelivered scheduled messages by delivery time.
type GetScheduledMessagesResult struct {
	ScheduledMessages []ScheduledMessageRecord `json:"scheduled_messages"`
}

// GetScheduledMessages returns the actor's undelivered scheduled messages, failed ones
// included, ordered by delivery time.
func (s *Service) GetScheduledMessages(ctx context.Context, actor engine.Actor, _ GetScheduledMessagesParams) (GetScheduledMessagesResult, error) {
	var res GetScheduledMessagesResult
	err := s.eng.Read(ctx, actor, engine.SignedIn, func(o *engine.ReadOp) error {
		var err error
		res.ScheduledMessages, err = scheduledMessagesState(o.Tx.ScheduledMessages(), o.Me)
		return err
	})
	return res, err
}

// scheduledMessagesState is register's scheduled_messages.
func scheduledMessagesState(r storage.ScheduledMessageReader, viewer users.User) ([]ScheduledMessageRecord, error) {
	out := []ScheduledMessageRecord{}
	if viewer.ID == 0 {
		return out, nil
	}
	list, err := r.ListPending(viewer.ID, messages.SendLater)
	for _, m := range list {
		out = append(out, scheduledMessageRecord(m))
	}
	return out, err
}

// CreateScheduledMessageParams are the parameters of POST /scheduled_messages.
type CreateScheduledMessageParams struct {
	// Type is "stream" or "channel" for a channel message, "direct" or "private" for a direct
	// message.
	Type string
	To   ScheduledTo
	// Topic is nil when absent (the empty topic where allowed).
	Topic                      *string
	Content                    string
	ScheduledDeliveryTimestamp int64
	// ReadBySender marks the sent message read for its sender; nil guesses from Client and
	// the recipients, as Zulip does.
	ReadBySender *bool
	// Client names the scheduling client; the sent message carries it.
	Client string
}

// CreateScheduledMessageResult is the new scheduled message's id.
type CreateScheduledMessageResult struct {
	ScheduledMessageID messages.ScheduledID `json:"scheduled_message_id"`
}

// CreateScheduledMessage schedules a message of the actor for a later time, after the checks
// sending it now would pass, and sends a scheduled_messages add event to the actor. The
// checks run again when it is sent.
func (s *Service) CreateScheduledMessage(ctx context.Context, actor engine.Actor, p CreateScheduledMessageParams) (CreateScheduledMessageResult, error) {
	typ, err := scheduledType(p.Type)
	if err != nil {
		return CreateScheduledMessageResult{}, err
	}
	client := p.Client
	if client == "" {
		client = "API"
	}
	var res CreateScheduledMessageResult
	err = s.eng.Mutate(ctx, actor, engine.SignedIn, func(o *engine.WriteOp) error {
		if err := checkDeliveryTime(p.ScheduledDeliveryTimestamp, o.Now); err != nil {
			return err
		}
		tx, ev, me, w := o.Tx, o.Ev, o.Me, o.World()
		m, err := checkScheduled(w, tx.Messages(), me, typ, p.To, p.Topic, p.Content)
		if err != nil {
			return err
		}
		m.Kind, m.DeliverAt, m.Client = messages.SendLater, p.ScheduledDeliveryTimestamp, client
		m.ReadBySender = conversations.ReadBySenderDefault(client) && !(m.IsDirect() && len(m.Recipients) == 1)
		if p.ReadBySender != nil {
			m.ReadBySender = *p.ReadBySender
		}
		if m.ID, err = tx.ScheduledMessages().Create(m); err != nil {
			return err
		}
		res.ScheduledMessageID = m.ID
		ev.Emit(ScheduledMessagesEvent{Type: "scheduled_messages", Op: "add",
			ScheduledMessages: []ScheduledMessageRecord{scheduledMessageRecord(m)}}, []int64{int64(me.ID)})
		return nil
	})
	if err != nil {
		return CreateScheduledMessageResult{}, err
	}
	return res, nil
}

// checkScheduled runs the checks of sending a message of me now (typ "stream" or "private")
// and returns the scheduled message to store: its address, normalised content and rendering.
func checkScheduled(w *world.World, mr storage.MessageReader, me users.User, typ string, to ScheduledTo, topic *string, content string) (messages.Scheduled, error) {
	p := conversations.SendMessageParams{Type: typ, Topic: topic}
	switch {
	case typ == "stream" && to.ChannelID == nil:
		return messages.Scheduled{}, errScheduledChannelTo
	case typ == "stream":
		p.ChannelID = to.ChannelID
	case to.NotIDs:
		return messages.Scheduled{}, errScheduledNotIDs
	case to.UserIDs == nil:
		return messages.Scheduled{}, errScheduledDirectTo
	case len(to.UserIDs) > conversations.MaxDirectRecipients:
		return messages.Scheduled{}, engine.BadRequest("Too many recipients (limit: %d)", conversations.MaxDirectRecipients)
	default:
		p.UserIDs = to.UserIDs
	}
	normalized, err := messages.NormalizeContent(content)
	if err != nil {
		return messages.Scheduled{}, engine.RuleError(err)
	}
	var m messages.Message
	if _, err := conversations.Address(w, mr, me, p, &m); err != nil {
		return messages.Scheduled{}, err
	}
	rendered, _ := conversations.RenderMessage(w, normalized, me)
	return messages.Scheduled{
		SenderID: me.ID, ChannelID: m.ChannelID, Topic: m.Topic, Recipients: m.Recipients,
		Content: normalized, Rendered: rendered,
	}, nil
}

// UpdateScheduledMessageParams are the parameters of PATCH /scheduled_messages/{id}; nil
// fields are left as they are.
type UpdateScheduledMessageParams struct {
	ScheduledMessageID messages.ScheduledID
	Type               *string
	To                 *ScheduledTo
	Topic              *string
	Content            *string
	// ScheduledDeliveryTimestamp is required for a message whose delivery failed.
	ScheduledDeliveryTimestamp *int64
	Client                     string
}

// UpdateScheduledMessageResult is empty.
type UpdateScheduledMessageResult struct{}

// UpdateScheduledMessage edits one of the actor's scheduled messages (Zulip's rules: a new
// type needs a new to, a new channel type a topic; a failed message needs a new delivery
// time and is no longer failed afterwards) and sends a scheduled_messages update event.
func (s *Service) UpdateScheduledMessage(ctx context.Context, actor engine.Actor, p UpdateScheduledMessageParams) (UpdateScheduledMessageResult, error) {
	if p.Type == nil && p.To == nil && p.Topic == nil && p.Content == nil && p.ScheduledDeliveryTimestamp == nil {
		return UpdateScheduledMessageResult{}, conversations.ErrNothingToChange
	}
	var typ string
	if p.Type != nil {
		if p.To == nil {
			return UpdateScheduledMessageResult{}, engine.BadRequest("Recipient required when updating type of scheduled message.")
		}
		var err error
		if typ, err = scheduledType(*p.Type); err != nil {
			return UpdateScheduledMessageResult{}, err
		}
		if typ == "stream" && p.Topic == nil {
			return UpdateScheduledMessageResult{}, engine.BadRequest("Topic required when updating scheduled message type to stream.")
		}
	}
	err := s.eng.Mutate(ctx, actor, engine.SignedIn, func(o *engine.WriteOp) error {
		if p.ScheduledDeliveryTimestamp != nil {
			if err := checkDeliveryTime(*p.ScheduledDeliveryTimestamp, o.Now); err != nil {
				return err
			}
		}
		tx, ev, me, w := o.Tx, o.Ev, o.Me, o.World()
		m, err := loadScheduled(tx.ScheduledMessages(), me.ID, p.ScheduledMessageID, messages.SendLater)
		if err != nil {
			return err
		}
		if m.Delivered {
			return errAlreadySent
		}
		if m.Failed && p.ScheduledDeliveryTimestamp == nil {
			return errDeliveryNotInFuture
		}
		if m, err = editScheduled(w, tx.Messages(), me, m, typ, p); err != nil {
			return err
		}
		if p.ScheduledDeliveryTimestamp != nil {
			m.DeliverAt = *p.ScheduledDeliveryTimestamp
		}
		if p.Client != "" {
			m.Client = p.Client
		}
		m.Failed, m.FailureMessage = false, ""
		if err := tx.ScheduledMessages().Update(m); err != nil {
			return err
		}
		rec := scheduledMessageRecord(m)
		ev.Emit(ScheduledMessagesEvent{Type: "scheduled_messages", Op: "update", ScheduledMessage: &rec},
			[]int64{int64(me.ID)})
		return nil
	})
	return UpdateScheduledMessageResult{}, err
}

// editScheduled applies an edit's address and content to m: a new type, to or content runs
// the sending checks again on the result; a new topic alone only has to be a valid topic
// (and is ignored for a direct message).
func editScheduled(w *world.World, mr storage.MessageReader, me users.User, m messages.Scheduled, typ string, p UpdateScheduledMessageParams) (messages.Scheduled, error) {
	if p.Type == nil && p.To == nil && p.Content == nil {
		if p.Topic != nil && !m.IsDirect() {
			topic, err := topics.Clean(*p.Topic, w.Org().EmptyTopicDisplayName)
			if err != nil {
				return m, conversations.TopicError("topic", err)
			}
			m.Topic = topics.Truncate(topic)
		}
		return m, nil
	}
	if typ == "" {
		typ = "private"
		if !m.IsDirect() {
			typ = "stream"
		}
	}
	to := ScheduledTo{}
	switch {
	case p.To != nil:
		to = *p.To
	case m.IsDirect():
		to.UserIDs = m.Recipients
	default:
		c := m.ChannelID
		to.ChannelID = &c
	}
	topic := p.Topic
	if topic == nil && !m.IsDirect() {
		t := m.Topic
		topic = &t
	}
	content := m.Content
	if p.Content != nil {
		content = *p.Content
	}
	checked, err := checkScheduled(w, mr, me, typ, to, topic, content)
	if err != nil {
		return m, err
	}
	if p.Type != nil || p.To != nil {
		m.ChannelID, m.Topic, m.Recipients = checked.ChannelID, checked.Topic, checked.Recipients
	} else if p.Topic != nil && !m.IsDirect() {
		m.Topic = checked.Topic
	}
	if p.Content != nil {
		m.Content, m.Rendered = checked.Content, checked.Rendered
	}
	return m, nil
}

// loadScheduled loads a scheduled message of sender of the kind; anything else (another
// user's, a reminder through the scheduled messages endpoints) does not exist.
func loadScheduled(r storage.ScheduledMessageReader, sender users.ID, id messages.ScheduledID, kind messages.ScheduledKind) (messages.Scheduled, error) {
	notFound := errScheduledNotFound()
	if kind == messages.Remind {
		notFound = errReminderNotFound()
	}
	m, err := r.Get(sender, id)
	switch {
	case errors.Is(err, storage.ErrNotFound):
		return m, notFound
	case err != nil:
		return m, err
	case m.Kind != kind:
		return m, notFound
	}
	return m, nil
}

// DeleteScheduledMessageParams are the parameters of DELETE /scheduled_messages/{id}.
type DeleteScheduledMessageParams struct {
	ScheduledMessageID messages.ScheduledID
}

// DeleteScheduledMessageResult is empty.
type DeleteScheduledMessageResult struct{}

// DeleteScheduledMessage cancels one of the actor's scheduled messages and sends a
// scheduled_messages remove event to the actor.
func (s *Service) DeleteScheduledMessage(ctx context.Context, actor engine.Actor, p DeleteScheduledMessageParams) (DeleteScheduledMessageResult, error) {
	removed := ScheduledMessagesEvent{Type: "scheduled_messages", Op: "remove", ScheduledMessageID: p.ScheduledMessageID}
	err := s.deleteScheduled(ctx, actor, p.ScheduledMessageID, messages.SendLater, removed)
	return DeleteScheduledMessageResult{}, err
}

// deleteScheduled cancels the actor's scheduled message id of the kind (a scheduled message
// or a reminder) and sends the actor the event removed.
func (s *Service) deleteScheduled(ctx context.Context, actor engine.Actor, id messages.ScheduledID, kind messages.ScheduledKind, removed engine.Event) error {
	return s.eng.Mutate(ctx, actor, engine.SignedIn, func(o *engine.WriteOp) error {
		me := o.Me
		if _, err := loadScheduled(o.Tx.ScheduledMessages(), me.ID, id, kind); err != nil {
			return err
		}
		if err := o.Tx.ScheduledMessages().Delete(me.ID, id); err != nil {
			return err
		}
		o.Ev.Emit(removed, []int64{int64(me.ID)})
		return nil
	})
}
