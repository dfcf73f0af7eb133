package httpapi

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/users"
)

// scheduledTo reads the to of a scheduled message: an integer (a channel id) or a JSON list
// of integers (user ids). Anything else sets neither, and the Service answers as Zulip does
// for the message's type.
func scheduledTo(raw string) chat.ScheduledTo {
	s := strings.TrimSpace(raw)
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		c := channels.ID(n)
		return chat.ScheduledTo{ChannelID: &c}
	}
	d := json.NewDecoder(bytes.NewReader([]byte(s)))
	d.UseNumber()
	var list []any
	if d.Decode(&list) != nil || d.More() {
		return chat.ScheduledTo{}
	}
	to := chat.ScheduledTo{UserIDs: make([]users.ID, 0, len(list))}
	for _, v := range list {
		n, ok := v.(json.Number)
		id, err := n.Int64()
		if !ok || err != nil {
			return chat.ScheduledTo{NotIDs: true}
		}
		to.UserIDs = append(to.UserIDs, users.ID(id))
	}
	return to
}

// getScheduledMessages serves GET /scheduled_messages.
func (h *Handler) getScheduledMessages(r *request) (any, error) {
	return h.svc.GetScheduledMessages(r.ctx, r.actor, chat.GetScheduledMessagesParams{})
}

// createScheduledMessage serves POST /scheduled_messages.
func (h *Handler) createScheduledMessage(r *request) (any, error) {
	var (
		p   chat.CreateScheduledMessageParams
		err error
	)
	if p.Type, err = r.params.requiredStr("type"); err != nil {
		return nil, err
	}
	to, err := r.params.requiredStr("to")
	if err != nil {
		return nil, err
	}
	p.To = scheduledTo(to)
	if p.Topic, err = topicParam(r); err != nil {
		return nil, err
	}
	if p.Content, err = r.params.requiredStr("content"); err != nil {
		return nil, err
	}
	if p.ScheduledDeliveryTimestamp, err = r.params.requiredInt("scheduled_delivery_timestamp"); err != nil {
		return nil, err
	}
	if p.ReadBySender, err = r.params.boolean("read_by_sender"); err != nil {
		return nil, err
	}
	p.Client = clientName(r)
	return h.svc.CreateScheduledMessage(r.ctx, r.actor, p)
}

// updateScheduledMessage serves PATCH /scheduled_messages/{scheduled_message_id}.
func (h *Handler) updateScheduledMessage(r *request) (any, error) {
	p := chat.UpdateScheduledMessageParams{
		ScheduledMessageID: pathID[messages.ScheduledID](r, "scheduled_message_id"),
		Type:               r.params.optStr("type"),
		Content:            r.params.optStr("content"),
		Client:             clientName(r),
	}
	if to := r.params.optStr("to"); to != nil {
		st := scheduledTo(*to)
		p.To = &st
	}
	var err error
	if p.Topic, err = topicParam(r); err != nil {
		return nil, err
	}
	if p.ScheduledDeliveryTimestamp, err = r.params.integer("scheduled_delivery_timestamp"); err != nil {
		return nil, err
	}
	return h.svc.UpdateScheduledMessage(r.ctx, r.actor, p)
}

// deleteScheduledMessage serves DELETE /scheduled_messages/{scheduled_message_id}.
func (h *Handler) deleteScheduledMessage(r *request) (any, error) {
	return h.svc.DeleteScheduledMessage(r.ctx, r.actor, chat.DeleteScheduledMessageParams{
		ScheduledMessageID: pathID[messages.ScheduledID](r, "scheduled_message_id"),
	})
}

// getReminders serves GET /reminders.
func (h *Handler) getReminders(r *request) (any, error) {
	return h.svc.GetReminders(r.ctx, r.actor, chat.GetRemindersParams{})
}

// createMessageReminder serves POST /reminders.
func (h *Handler) createMessageReminder(r *request) (any, error) {
	id, err := r.params.requiredInt("message_id")
	if err != nil {
		return nil, err
	}
	at, err := r.params.requiredInt("scheduled_delivery_timestamp")
	if err != nil {
		return nil, err
	}
	return h.svc.CreateMessageReminder(r.ctx, r.actor, chat.CreateMessageReminderParams{
		MessageID: messages.ID(id), ScheduledDeliveryTimestamp: at, Note: r.params.optStr("note"), Client: clientName(r),
	})
}

// deleteReminder serves DELETE /reminders/{reminder_id}.
func (h *Handler) deleteReminder(r *request) (any, error) {
	return h.svc.DeleteReminder(r.ctx, r.actor, chat.DeleteReminderParams{ReminderID: pathID[messages.ScheduledID](r, "reminder_id")})
}
