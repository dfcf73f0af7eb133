package compose

import (
	"context"
	"fmt"
	"strings"

	"github.com/teamchat/chat/conversations"
	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/internal/world"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/narrows"
	"github.com/teamchat/chat/people"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// ReminderRecord is a reminder as the API returns it: always a direct message to its owner.
type ReminderRecord struct {
	ReminderID                 messages.ScheduledID `json:"reminder_id"`
	Type                       string               `json:"type"`
	To                         []int64              `json:"to"`
	Content                    string               `json:"content"`
	RenderedContent            string               `json:"rendered_content"`
	ScheduledDeliveryTimestamp int64                `json:"scheduled_delivery_timestamp"`
	Failed                     bool                 `json:"failed"`
	ReminderTargetMessageID    messages.ID          `json:"reminder_target_message_id"`
}

func reminderRecord(m messages.Scheduled) ReminderRecord {
	return ReminderRecord{
		ReminderID: m.ID, Type: "private", To: m.To(), Content: m.Content, RenderedContent: m.Rendered,
		ScheduledDeliveryTimestamp: m.DeliverAt, Failed: m.Failed, ReminderTargetMessageID: m.ReminderTargetID,
	}
}

// RemindersEvent is a reminders event: op add (Reminders) or remove (ReminderID).
type RemindersEvent struct {
	Type       string               `json:"type"`
	Op         string               `json:"op"`
	Reminders  []ReminderRecord     `json:"reminders,omitempty"`
	ReminderID messages.ScheduledID `json:"reminder_id,omitempty"`
}

func errReminderNotFound() *engine.Error {
	return &engine.Error{Code: engine.CodeBadRequest, Status: 404, Msg: "Reminder does not exist"}
}

// GetRemindersParams are the parameters of GET /reminders (none).
type GetRemindersParams struct{}

// GetRemindersResult lists the actor's undelivered reminders by delivery time.
type GetRemindersResult struct {
	Reminders []ReminderRecord `json:"reminders"`
}

// GetReminders returns the actor's undelivered reminders, ordered by delivery time.
func (s *Service) GetReminders(ctx context.Context, actor engine.Actor, _ GetRemindersParams) (GetRemindersResult, error) {
	var res GetRemindersResult
	err := s.eng.Read(ctx, actor, engine.SignedIn, func(o *engine.ReadOp) error {
		var err error
		res.Reminders, err = remindersState(o.Tx.ScheduledMessages(), o.Me)
		return err
	})
	return res, err
}

// remindersState is register's reminders.
func remindersState(r storage.ScheduledMessageReader, viewer users.User) ([]ReminderRecord, error) {
	out := []ReminderRecord{}
	if viewer.ID == 0 {
		return out, nil
	}
	list, err := r.ListPending(viewer.ID, messages.Remind)
	for _, m := range list {
		out = append(out, reminderRecord(m))
	}
	return out, err
}

// CreateMessageReminderParams are the parameters of POST /reminders.
type CreateMessageReminderParams struct {
	MessageID                  messages.ID
	ScheduledDeliveryTimestamp int64
	// Note is shown in the reminder; nil or empty for none.
	Note *string
	// Client names the scheduling client.
	Client string
}

// CreateMessageReminderResult is the new reminder's id.
type CreateMessageReminderResult struct {
	ReminderID messages.ScheduledID `json:"reminder_id"`
}

// CreateMessageReminder schedules a reminder about a message the actor can read: at the
// given time the notification bot sends the actor a direct message quoting it. It sends a
// reminders add event to the actor.
func (s *Service) CreateMessageReminder(ctx context.Context, actor engine.Actor, p CreateMessageReminderParams) (CreateMessageReminderResult, error) {
	client := p.Client
	if client == "" {
		client = "API"
	}
	var res CreateMessageReminderResult
	err := s.eng.Mutate(ctx, actor, engine.SignedIn, func(o *engine.WriteOp) error {
		// The delivery time is checked at the operation's time, then the note (Zulip's order).
		if err := checkDeliveryTime(p.ScheduledDeliveryTimestamp, o.Now); err != nil {
			return err
		}
		var note string
		if p.Note != nil {
			var err error
			if note, err = messages.NormalizeReminderNote(*p.Note); err != nil {
				return engine.RuleError(err)
			}
		}
		tx, ev, me, w := o.Tx, o.Ev, o.Me, o.World()
		target, _, err := narrows.ReadableMessage(w, tx.Messages(), me, p.MessageID)
		if err != nil {
			return err
		}
		content := messages.ReminderContent(reminderTarget(w, target), note)
		rendered, _ := conversations.RenderMessage(w, content, me)
		m := messages.Scheduled{
			Kind: messages.Remind, SenderID: me.ID, Recipients: []users.ID{me.ID}, Content: content, Rendered: rendered,
			DeliverAt: p.ScheduledDeliveryTimestamp, Client: client, ReminderTargetID: target.ID, ReminderNote: note,
		}
		if m.ID, err = tx.ScheduledMessages().Create(m); err != nil {
			return err
		}
		res.ReminderID = m.ID
		ev.Emit(RemindersEvent{Type: "reminders", Op: "add", Reminders: []ReminderRecord{reminderRecord(m)}},
			[]int64{int64(me.ID)})
		return nil
	})
	if err != nil {
		return CreateMessageReminderResult{}, err
	}
	return res, nil
}

// reminderTarget describes message m for a reminder's text.
func reminderTarget(w *world.World, m messages.Message) messages.ReminderTarget {
	base := strings.TrimRight(w.Org().URL, "/") + "/"
	t := messages.ReminderTarget{SenderMention: people.SilentMention(w.User(m.SenderID)), Content: m.Content}
	if m.IsDirect() {
		ids := make([]string, len(m.Recipients))
		for i, id := range m.Recipients {
			ids[i] = fmt.Sprint(id)
		}
		t.URL = fmt.Sprintf("%s#narrow/dm/%s/near/%d", base, strings.Join(ids, ","), m.ID)
		return t
	}
	c, _ := w.Channel(m.ChannelID)
	t.URL = fmt.Sprintf("%s%s/near/%d", base, conversations.TopicNarrow(c, m.Topic), m.ID)
	t.ChannelLink = conversations.MessageLink(c, m.Topic, m.ID)
	return t
}

// DeleteReminderParams are the parameters of DELETE /reminders/{reminder_id}.
type DeleteReminderParams struct {
	ReminderID messages.ScheduledID
}

// DeleteReminderResult is empty.
type DeleteReminderResult struct{}

// DeleteReminder cancels one of the actor's reminders and sends a reminders remove event to
// the actor.
func (s *Service) DeleteReminder(ctx context.Context, actor engine.Actor, p DeleteReminderParams) (DeleteReminderResult, error) {
	removed := RemindersEvent{Type: "reminders", Op: "remove", ReminderID: p.ReminderID}
	err := s.deleteScheduled(ctx, actor, p.ReminderID, messages.Remind, removed)
	return DeleteReminderResult{}, err
}
