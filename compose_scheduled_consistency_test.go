package chat_test

import (
	"cmp"
	"slices"
	"testing"
	"time"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/users"
)

// applyScheduled applies a scheduled_messages or reminders event to register's list of the
// same name (ordered by delivery time, then id).
func applyScheduled(t *testing.T, state, ev map[string]any) {
	t.Helper()
	key, idKey, one := "scheduled_messages", "scheduled_message_id", "scheduled_message"
	if ev["type"] == "reminders" {
		key, idKey, one = "reminders", "reminder_id", ""
	}
	if _, ok := state[key]; !ok {
		return
	}
	l := list(state, key)
	switch ev["op"] {
	case "add":
		for _, m := range list(ev, key) {
			if findByID(l, idKey, num(m.(map[string]any)[idKey])) >= 0 {
				t.Fatalf("%s add of a known id: %v", key, ev)
			}
			l = append(l, m)
		}
	case "update":
		if one == "" {
			t.Fatalf("reminders have no update op: %v", ev)
		}
		m := ev[one].(map[string]any)
		i := findByID(l, idKey, num(m[idKey]))
		if i < 0 {
			t.Fatalf("%s update of an unknown id: %v", key, ev)
		}
		l[i] = m
	case "remove":
		l = removeByID(l, idKey, num(ev[idKey]))
	default:
		t.Fatalf("unknown %s op in %v", key, ev)
	}
	slices.SortStableFunc(l, func(a, b any) int {
		x, y := a.(map[string]any), b.(map[string]any)
		return cmp.Or(cmp.Compare(num(x["scheduled_delivery_timestamp"]), num(y["scheduled_delivery_timestamp"])), cmp.Compare(num(x[idKey]), num(y[idKey])))
	})
	if l == nil {
		l = []any{}
	}
	state[key] = l
}

// scheduledConsistencyCases are the consistency cases of scheduled messages and reminders.
func scheduledConsistencyCases() []consistencyCase {
	seed := func(t *testing.T, f *fixture) {
		ch := mustChannel(t, f, "plans", chat.NewChannelSettings{}, "member", "admin", "guest")
		f.mustSchedule(t, "member", chat.CreateScheduledMessageParams{Type: "stream", To: channelTo(ch), Topic: ptr("t"), Content: "first", ScheduledDeliveryTimestamp: f.at(2 * time.Hour)})
		f.mustSchedule(t, "member", chat.CreateScheduledMessageParams{Type: "direct", To: usersTo(f, "admin"), Content: "second", ScheduledDeliveryTimestamp: f.at(time.Hour)})
		msg := mustSendToChannel(t, f, "admin", ch, "t", "remember me")
		mustDo(t, "CreateMessageReminder", errOf(f.svc.CreateMessageReminder(t.Context(), f.actor("member"), chat.CreateMessageReminderParams{
			MessageID: msg, ScheduledDeliveryTimestamp: f.at(90 * time.Minute),
		})))
	}
	first := func(t *testing.T, f *fixture) chat.ScheduledMessageRecord { return f.scheduledOf(t, "member")[0] }
	reminder := func(t *testing.T, f *fixture) chat.ReminderRecord {
		res, err := f.svc.GetReminders(t.Context(), f.actor("member"), chat.GetRemindersParams{})
		mustDo(t, "GetReminders", err)
		return res.Reminders[0]
	}
	return []consistencyCase{
		{method: "CreateScheduledMessage", name: "channel message", setup: seed, run: func(t *testing.T, f *fixture) {
			ch := f.mustChannel(t, "plans").ID
			f.mustSchedule(t, "member", chat.CreateScheduledMessageParams{Type: "channel", To: channelTo(ch), Topic: ptr("u"), Content: "third", ScheduledDeliveryTimestamp: f.at(30 * time.Minute)})
		}},
		{method: "UpdateScheduledMessage", name: "moves in the order", setup: seed, run: func(t *testing.T, f *fixture) {
			mustDo(t, "UpdateScheduledMessage", errOf(f.svc.UpdateScheduledMessage(t.Context(), f.actor("member"), chat.UpdateScheduledMessageParams{
				ScheduledMessageID: first(t, f).ScheduledMessageID, Content: ptr("edited"), ScheduledDeliveryTimestamp: ptr(f.at(3 * time.Hour)),
			})))
		}},
		{method: "DeleteScheduledMessage", name: "one", setup: seed, run: func(t *testing.T, f *fixture) {
			mustDo(t, "DeleteScheduledMessage", errOf(f.svc.DeleteScheduledMessage(t.Context(), f.actor("member"), chat.DeleteScheduledMessageParams{
				ScheduledMessageID: first(t, f).ScheduledMessageID,
			})))
		}},
		{method: "CreateMessageReminder", name: "with a note", setup: seed, run: func(t *testing.T, f *fixture) {
			mustDo(t, "CreateMessageReminder", errOf(f.svc.CreateMessageReminder(t.Context(), f.actor("member"), chat.CreateMessageReminderParams{
				MessageID: reminder(t, f).ReminderTargetMessageID, ScheduledDeliveryTimestamp: f.at(10 * time.Minute), Note: ptr("soon"),
			})))
		}},
		{method: "DeleteReminder", name: "one", setup: seed, run: func(t *testing.T, f *fixture) {
			mustDo(t, "DeleteReminder", errOf(f.svc.DeleteReminder(t.Context(), f.actor("member"), chat.DeleteReminderParams{ReminderID: reminder(t, f).ReminderID})))
		}},
		{method: "DeliverScheduledMessages", name: "messages and a reminder", setup: seed, run: func(t *testing.T, f *fixture) {
			f.clock.Advance(2 * time.Hour)
			f.mustDeliver(t)
		}},
		{method: "DeliverScheduledMessages", name: "a failure told to its author", setup: seed, run: func(t *testing.T, f *fixture) {
			mustDo(t, "Unsubscribe", errOf(f.svc.Unsubscribe(t.Context(), f.actor("member"), chat.UnsubscribeParams{
				Subscriptions: []string{"plans"}, Principals: chat.Principals{IDs: []users.ID{f.ids["member"]}},
			})))
			mustDo(t, "ArchiveStream", errOf(f.svc.ArchiveStream(t.Context(), f.actor("owner"), chat.ArchiveStreamParams{StreamID: f.mustChannel(t, "plans").ID})))
			f.clock.Advance(2 * time.Hour)
			if res := f.mustDeliver(t); res.Failed == 0 {
				t.Fatalf("deliver: %+v, want a failure", res)
			}
		}},
	}
}

// goldenScheduled schedules, edits, cancels and delivers scheduled messages and a reminder
// of the member, and fails one.
func goldenScheduled(t *testing.T, f *fixture) {
	ctx := t.Context()
	ch := mustChannel(t, f, "plans", chat.NewChannelSettings{}, "member", "admin")
	id := f.mustSchedule(t, "member", chat.CreateScheduledMessageParams{Type: "stream", To: channelTo(ch), Topic: ptr("launch"), Content: "Launch **now**", ScheduledDeliveryTimestamp: f.at(time.Hour)})
	gone := f.mustSchedule(t, "member", chat.CreateScheduledMessageParams{Type: "direct", To: usersTo(f, "admin"), Content: "never", ScheduledDeliveryTimestamp: f.at(time.Hour)})
	mustDo(t, "UpdateScheduledMessage", errOf(f.svc.UpdateScheduledMessage(ctx, f.actor("member"), chat.UpdateScheduledMessageParams{ScheduledMessageID: id, Topic: ptr("liftoff")})))
	mustDo(t, "DeleteScheduledMessage", errOf(f.svc.DeleteScheduledMessage(ctx, f.actor("member"), chat.DeleteScheduledMessageParams{ScheduledMessageID: gone})))
	msg := mustSendToChannel(t, f, "admin", ch, "launch", "Check the *fuel*")
	res, err := f.svc.CreateMessageReminder(ctx, f.actor("member"), chat.CreateMessageReminderParams{MessageID: msg, ScheduledDeliveryTimestamp: f.at(2 * time.Hour), Note: ptr("before launch")})
	mustDo(t, "CreateMessageReminder", err)
	mustDo(t, "DeleteReminder", errOf(f.svc.DeleteReminder(ctx, f.actor("member"), chat.DeleteReminderParams{ReminderID: res.ReminderID})))
	mustDo(t, "CreateMessageReminder", errOf(f.svc.CreateMessageReminder(ctx, f.actor("member"), chat.CreateMessageReminderParams{MessageID: msg, ScheduledDeliveryTimestamp: f.at(time.Hour)})))
	f.mustSchedule(t, "member", chat.CreateScheduledMessageParams{Type: "direct", To: usersTo(f, "guest"), Content: "to be refused", ScheduledDeliveryTimestamp: f.at(time.Hour)})
	mustDo(t, "DeactivateUser", errOf(f.svc.DeactivateUser(ctx, f.actor("owner"), chat.DeactivateUserParams{UserID: f.ids["guest"]})))
	f.clock.Advance(time.Hour)
	f.mustDeliver(t)
}
