package chat_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/storage/memory"
	"github.com/teamchat/chat/storage/sqlstore"
	"github.com/teamchat/chat/users"
)

// scheduledBackends are the stores the scheduler tests run on: memory, SQLite and, when
// CHAT_TEST_POSTGRES_URL is set, PostgreSQL (a fresh schema).
func scheduledBackends(t *testing.T) map[string]func(t *testing.T) storage.Storage {
	t.Helper()
	list := map[string]func(t *testing.T) storage.Storage{
		"memory": func(t *testing.T) storage.Storage { return memory.New() },
		"sqlite": func(t *testing.T) storage.Storage {
			s, err := sqlstore.Open(t.Context(), "sqlite:"+filepath.Join(t.TempDir(), "chat.db"))
			if err != nil {
				t.Fatal(err)
			}
			return s
		},
	}
	if base := os.Getenv("CHAT_TEST_POSTGRES_URL"); base != "" {
		list["postgres"] = func(t *testing.T) storage.Storage {
			s, err := sqlstore.Open(t.Context(), benchSchema(t, base))
			if err != nil {
				t.Fatal(err)
			}
			return s
		}
	}
	return list
}

// at is the UNIX time d after the fixture's clock.
func (f *fixture) at(d time.Duration) int64 { return f.clock.Now().Add(d).Unix() }

// mustSchedule schedules a message as sender and returns its id.
func (f *fixture) mustSchedule(t *testing.T, sender string, p chat.CreateScheduledMessageParams) messages.ScheduledID {
	t.Helper()
	res, err := f.svc.CreateScheduledMessage(t.Context(), f.actor(sender), p)
	if err != nil {
		t.Fatalf("CreateScheduledMessage(%s): %v", sender, err)
	}
	return res.ScheduledMessageID
}

// mustDeliver runs the scheduler once and returns what it did.
func (f *fixture) mustDeliver(t *testing.T) chat.DeliverScheduledMessagesResult {
	t.Helper()
	res, err := f.svc.DeliverScheduledMessages(t.Context(), chat.DeliverScheduledMessagesParams{})
	if err != nil {
		t.Fatalf("DeliverScheduledMessages: %v", err)
	}
	return res
}

// scheduledOf returns the sender's scheduled messages.
func (f *fixture) scheduledOf(t *testing.T, sender string) []chat.ScheduledMessageRecord {
	t.Helper()
	res, err := f.svc.GetScheduledMessages(t.Context(), f.actor(sender), chat.GetScheduledMessagesParams{})
	if err != nil {
		t.Fatal(err)
	}
	return res.ScheduledMessages
}

func channelTo(c channels.ID) chat.ScheduledTo { return chat.ScheduledTo{ChannelID: &c} }

func usersTo(f *fixture, names ...string) chat.ScheduledTo {
	to := chat.ScheduledTo{UserIDs: []users.ID{}}
	for _, n := range names {
		to.UserIDs = append(to.UserIDs, f.ids[n])
	}
	return to
}

func TestScheduledMessagesLifecycle(t *testing.T) {
	t.Parallel()
	for name, open := range scheduledBackends(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			f := newFixtureOn(t, open(t))
			ctx := t.Context()
			ch := mustChannel(t, f, "plans", chat.NewChannelSettings{}, "member", "admin")
			q := f.register(t, "member", "scheduled_messages", "message")
			adminQ := f.register(t, "admin", "message")

			later := f.mustSchedule(t, "member", chat.CreateScheduledMessageParams{
				Type: "stream", To: channelTo(ch), Topic: ptr("launch"), Content: "Launch **now**", ScheduledDeliveryTimestamp: f.at(2 * time.Hour), Client: "website",
			})
			sooner := f.mustSchedule(t, "member", chat.CreateScheduledMessageParams{
				Type: "direct", To: usersTo(f, "admin"), Content: "hello later", ScheduledDeliveryTimestamp: f.at(time.Hour),
			})
			cancelled := f.mustSchedule(t, "member", chat.CreateScheduledMessageParams{
				Type: "private", To: usersTo(f, "admin"), Content: "never", ScheduledDeliveryTimestamp: f.at(30 * time.Minute),
			})
			topic := "launch"
			want := []chat.ScheduledMessageRecord{
				{ScheduledMessageID: cancelled, Type: "private", To: []int64{int64(f.ids["admin"])}, Content: "never", RenderedContent: "<p>never</p>", ScheduledDeliveryTimestamp: f.at(30 * time.Minute)},
				{ScheduledMessageID: sooner, Type: "private", To: []int64{int64(f.ids["admin"])}, Content: "hello later", RenderedContent: "<p>hello later</p>", ScheduledDeliveryTimestamp: f.at(time.Hour)},
				{ScheduledMessageID: later, Type: "stream", To: int64(ch), Topic: &topic, Content: "Launch **now**", RenderedContent: "<p>Launch <strong>now</strong></p>", ScheduledDeliveryTimestamp: f.at(2 * time.Hour)},
			}
			if diff := cmp.Diff(want, f.scheduledOf(t, "member")); diff != "" {
				t.Fatalf("GetScheduledMessages (-want +got):\n%s", diff)
			}
			if got := f.scheduledOf(t, "admin"); len(got) != 0 {
				t.Errorf("admin sees the member's scheduled messages: %v", got)
			}

			// Edit: new content and an earlier time; cancel one.
			mustDo(t, "UpdateScheduledMessage", errOf(f.svc.UpdateScheduledMessage(ctx, f.actor("member"), chat.UpdateScheduledMessageParams{
				ScheduledMessageID: later, Content: ptr("Launch *soon*"), ScheduledDeliveryTimestamp: ptr(f.at(90 * time.Minute)),
			})))
			mustDo(t, "DeleteScheduledMessage", errOf(f.svc.DeleteScheduledMessage(ctx, f.actor("member"), chat.DeleteScheduledMessageParams{ScheduledMessageID: cancelled})))
			_, err := f.svc.DeleteScheduledMessage(ctx, f.actor("admin"), chat.DeleteScheduledMessageParams{ScheduledMessageID: sooner})
			wantError(t, err, chat.CodeBadRequest, 404, "Scheduled message does not exist")

			// Nothing is due yet.
			if res := f.mustDeliver(t); res != (chat.DeliverScheduledMessagesResult{}) {
				t.Fatalf("delivered before their time: %+v", res)
			}
			f.clock.Advance(time.Hour)
			if res := f.mustDeliver(t); res.Delivered != 1 || res.Failed != 0 {
				t.Fatalf("after 1h: %+v, want the direct message delivered", res)
			}
			f.clock.Advance(30 * time.Minute)
			if res := f.mustDeliver(t); res.Delivered != 1 {
				t.Fatalf("after 90 minutes: %+v, want the channel message delivered", res)
			}
			if res := f.mustDeliver(t); res != (chat.DeliverScheduledMessagesResult{}) {
				t.Fatalf("delivered twice: %+v", res)
			}
			if got := f.scheduledOf(t, "member"); len(got) != 0 {
				t.Errorf("delivered messages still listed: %v", got)
			}
			_, err = f.svc.UpdateScheduledMessage(ctx, f.actor("member"), chat.UpdateScheduledMessageParams{ScheduledMessageID: later, Content: ptr("too late")})
			wantError(t, err, chat.CodeBadRequest, 400, "Scheduled message was already sent")

			// The admin received both, sent by the member at delivery time.
			evs := messageEvents(t, f.poll(t, "admin", adminQ, -1, true), "message")
			if len(evs) != 2 {
				t.Fatalf("admin got %d message events, want 2", len(evs))
			}
			dm := evs[0]["message"].(map[string]any)
			if dm["content"] != "hello later" || dm["sender_id"] != float64(f.ids["member"]) || dm["timestamp"] != float64(f.at(-30*time.Minute)) {
				t.Errorf("direct message = %v", dm)
			}
			cm := evs[1]["message"].(map[string]any)
			if cm["content"] != "Launch *soon*" || cm["subject"] != "launch" || cm["client"] != "website" {
				t.Errorf("channel message = %v", cm)
			}
			// The member's clients saw the whole life: add×3, update, remove (cancel), and a
			// remove with each delivery.
			var ops []string
			for _, e := range f.poll(t, "member", q, -1, true) {
				m := eventJSON(t, []chat.Event{e})[0]
				if m["type"] == "scheduled_messages" {
					ops = append(ops, fmt.Sprint(m["op"]))
				}
			}
			if diff := cmp.Diff([]string{"add", "add", "add", "update", "remove", "remove", "remove"}, ops); diff != "" {
				t.Errorf("scheduled_messages ops (-want +got):\n%s", diff)
			}
		})
	}
}

func TestScheduledMessageFailsWhenItCanNoLongerBeSent(t *testing.T) {
	t.Parallel()
	for name, open := range scheduledBackends(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			f := newFixtureOn(t, open(t))
			ctx := t.Context()
			ch := mustChannel(t, f, "secret", chat.NewChannelSettings{InviteOnly: true}, "member", "admin")
			id := f.mustSchedule(t, "member", chat.CreateScheduledMessageParams{
				Type: "channel", To: channelTo(ch), Topic: ptr("t"), Content: "psst", ScheduledDeliveryTimestamp: f.at(time.Hour),
			})
			q := f.register(t, "member", "scheduled_messages", "message")
			mustDo(t, "Unsubscribe", errOf(f.svc.Unsubscribe(ctx, f.actor("admin"), chat.UnsubscribeParams{
				Subscriptions: []string{"secret"}, Principals: chat.Principals{IDs: []users.ID{f.ids["member"]}},
			})))
			f.clock.Advance(time.Hour)
			if res := f.mustDeliver(t); res.Failed != 1 || res.Delivered != 0 {
				t.Fatalf("deliver: %+v, want one failure", res)
			}
			got := f.scheduledOf(t, "member")
			if len(got) != 1 || !got[0].Failed {
				t.Fatalf("scheduled messages = %+v, want the message marked failed", got)
			}
			var notice map[string]any
			sawUpdate := false
			for _, m := range eventJSON(t, f.poll(t, "member", q, -1, true)) {
				switch {
				case m["type"] == "scheduled_messages" && m["op"] == "update":
					sawUpdate = m["scheduled_message"].(map[string]any)["failed"] == true
				case m["type"] == "message":
					notice = m["message"].(map[string]any)
				}
			}
			if !sawUpdate {
				t.Error("no scheduled_messages update with failed: true")
			}
			if notice == nil || notice["sender_id"] != float64(chat.NotificationBotID) ||
				!strings.Contains(notice["content"].(string), "was not sent because of the following error") ||
				!strings.Contains(notice["content"].(string), fmt.Sprintf("> Channel with ID '%d' does not exist", ch)) {
				t.Errorf("notification = %v", notice)
			}
			// A failed message is not tried again; editing it needs a new time and clears the failure.
			if res := f.mustDeliver(t); res != (chat.DeliverScheduledMessagesResult{}) {
				t.Errorf("failed message tried again: %+v", res)
			}
			_, err := f.svc.UpdateScheduledMessage(ctx, f.actor("member"), chat.UpdateScheduledMessageParams{ScheduledMessageID: id, Content: ptr("again")})
			wantError(t, err, chat.CodeBadRequest, 400, "Scheduled delivery time must be in the future.")
			_, err = f.svc.UpdateScheduledMessage(ctx, f.actor("member"), chat.UpdateScheduledMessageParams{
				ScheduledMessageID: id, Type: ptr("direct"), To: &chat.ScheduledTo{UserIDs: []users.ID{f.ids["admin"]}}, ScheduledDeliveryTimestamp: ptr(f.at(time.Minute)),
			})
			mustDo(t, "UpdateScheduledMessage", err)
			got = f.scheduledOf(t, "member")
			if len(got) != 1 || got[0].Failed || got[0].Type != "private" || got[0].Topic != nil {
				t.Fatalf("after the edit: %+v", got)
			}
			f.clock.Advance(time.Minute)
			if res := f.mustDeliver(t); res.Delivered != 1 {
				t.Errorf("edited message: %+v, want it delivered", res)
			}
		})
	}
}

func TestScheduledMessageLateAndDeactivated(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ch := mustChannel(t, f, "plans", chat.NewChannelSettings{}, "member", "admin")
	late := f.mustSchedule(t, "member", chat.CreateScheduledMessageParams{Type: "stream", To: channelTo(ch), Topic: ptr("t"), Content: "late", ScheduledDeliveryTimestamp: f.at(time.Minute)})
	f.mustSchedule(t, "admin", chat.CreateScheduledMessageParams{Type: "stream", To: channelTo(ch), Topic: ptr("t"), Content: "gone", ScheduledDeliveryTimestamp: f.at(time.Minute)})
	mustDo(t, "DeactivateUser", errOf(f.svc.DeactivateUser(t.Context(), f.actor("owner"), chat.DeactivateUserParams{UserID: f.ids["admin"]})))
	before := f.messageCount(t)
	// The server was down for 11 minutes after the delivery time.
	f.clock.Advance(12 * time.Minute)
	if res := f.mustDeliver(t); res.Failed != 2 {
		t.Fatalf("deliver: %+v, want two failures", res)
	}
	got := f.scheduledOf(t, "member")
	if len(got) != 1 || got[0].ScheduledMessageID != late || !got[0].Failed {
		t.Fatalf("member's = %+v", got)
	}
	// The member is told; the deactivated admin is not.
	if n := f.messageCount(t) - before; n != 1 {
		t.Errorf("%d notices sent, want 1", n)
	}
}

func TestScheduledMessageErrors(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	ch := mustChannel(t, f, "plans", chat.NewChannelSettings{}, "member")
	id := f.mustSchedule(t, "member", chat.CreateScheduledMessageParams{Type: "stream", To: channelTo(ch), Topic: ptr("t"), Content: "x", ScheduledDeliveryTimestamp: f.at(time.Hour)})
	create := func(p chat.CreateScheduledMessageParams) error {
		_, err := f.svc.CreateScheduledMessage(ctx, f.actor("member"), p)
		return err
	}
	update := func(p chat.UpdateScheduledMessageParams) error {
		_, err := f.svc.UpdateScheduledMessage(ctx, f.actor("member"), p)
		return err
	}
	for _, tt := range []struct {
		name   string
		err    error
		status int
		msg    string
	}{
		{"past time", create(chat.CreateScheduledMessageParams{Type: "stream", To: channelTo(ch), Content: "x", ScheduledDeliveryTimestamp: f.at(0)}), 400, "Scheduled delivery time must be in the future."},
		{"bad type", create(chat.CreateScheduledMessageParams{Type: "huddle", To: channelTo(ch), Content: "x", ScheduledDeliveryTimestamp: f.at(time.Hour)}), 400, "Invalid type"},
		{"list for a channel", create(chat.CreateScheduledMessageParams{Type: "stream", To: chat.ScheduledTo{UserIDs: []users.ID{3}}, Content: "x", ScheduledDeliveryTimestamp: f.at(time.Hour)}), 400, "Invalid data type for channel ID"},
		{"integer for users", create(chat.CreateScheduledMessageParams{Type: "direct", To: channelTo(ch), Content: "x", ScheduledDeliveryTimestamp: f.at(time.Hour)}), 400, "Invalid data type for recipients"},
		{"unknown user", create(chat.CreateScheduledMessageParams{Type: "direct", To: chat.ScheduledTo{UserIDs: []users.ID{9999}}, Content: "x", ScheduledDeliveryTimestamp: f.at(time.Hour)}), 400, "Invalid user ID 9999"},
		{"empty content", create(chat.CreateScheduledMessageParams{Type: "stream", To: channelTo(ch), Content: " ", ScheduledDeliveryTimestamp: f.at(time.Hour)}), 400, "Message must not be empty"},
		{"nothing to change", update(chat.UpdateScheduledMessageParams{ScheduledMessageID: id}), 400, "Nothing to change"},
		{"type without to", update(chat.UpdateScheduledMessageParams{ScheduledMessageID: id, Type: ptr("direct")}), 400, "Recipient required when updating type of scheduled message."},
		{"channel type without topic", update(chat.UpdateScheduledMessageParams{ScheduledMessageID: id, Type: ptr("channel"), To: ptr(channelTo(ch))}), 400, "Topic required when updating scheduled message type to stream."},
		{"unknown id", update(chat.UpdateScheduledMessageParams{ScheduledMessageID: id + 100, Content: ptr("y")}), 404, "Scheduled message does not exist"},
		{"edit to the past", update(chat.UpdateScheduledMessageParams{ScheduledMessageID: id, ScheduledDeliveryTimestamp: ptr(f.at(-time.Minute))}), 400, "Scheduled delivery time must be in the future."},
	} {
		t.Run(tt.name, func(t *testing.T) { wantError(t, tt.err, chat.CodeBadRequest, tt.status, tt.msg) })
	}
	err := create(chat.CreateScheduledMessageParams{Type: "stream", To: channelTo(9999), Content: "x", ScheduledDeliveryTimestamp: f.at(time.Hour)})
	wantError(t, err, chat.CodeStreamDoesNotExist, 400, "Channel with ID '9999' does not exist")
	if got := f.scheduledOf(t, "member"); len(got) != 1 || got[0].Content != "x" {
		t.Errorf("refused requests changed something: %+v", got)
	}
}

func TestRemindersLifecycle(t *testing.T) {
	t.Parallel()
	for name, open := range scheduledBackends(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			f := newFixtureOn(t, open(t))
			ctx := t.Context()
			ch := mustChannel(t, f, "Verona", chat.NewChannelSettings{}, "member", "admin")
			msg := mustSendToChannel(t, f, "admin", ch, "test", "Test message")
			res, err := f.svc.CreateMessageReminder(ctx, f.actor("member"), chat.CreateMessageReminderParams{
				MessageID: msg, ScheduledDeliveryTimestamp: f.at(time.Hour), Note: ptr("Reply to this \n"),
			})
			mustDo(t, "CreateMessageReminder", err)
			list, err := f.svc.GetReminders(ctx, f.actor("member"), chat.GetRemindersParams{})
			mustDo(t, "GetReminders", err)
			want := fmt.Sprintf("You requested a reminder for #**Verona>test@%d**. Note:\n > Reply to this\n\n"+
				"@_**Adam Admin|%d** [said](https://chat.example.com/#narrow/channel/%d-Verona/topic/test/near/%d):\n```quote\nTest message\n```",
				msg, f.ids["admin"], ch, msg)
			if len(list.Reminders) != 1 || list.Reminders[0].Content != want || list.Reminders[0].ReminderTargetMessageID != msg ||
				list.Reminders[0].ReminderID != res.ReminderID || fmt.Sprint(list.Reminders[0].To) != fmt.Sprint([]int64{int64(f.ids["member"])}) {
				t.Fatalf("reminders = %+v\nwant content %q", list.Reminders, want)
			}
			if got := f.scheduledOf(t, "member"); len(got) != 0 {
				t.Errorf("a reminder listed as a scheduled message: %v", got)
			}
			_, err = f.svc.DeleteScheduledMessage(ctx, f.actor("member"), chat.DeleteScheduledMessageParams{ScheduledMessageID: res.ReminderID})
			wantError(t, err, chat.CodeBadRequest, 404, "Scheduled message does not exist")
			_, err = f.svc.DeleteReminder(ctx, f.actor("admin"), chat.DeleteReminderParams{ReminderID: res.ReminderID})
			wantError(t, err, chat.CodeBadRequest, 404, "Reminder does not exist")

			q := f.register(t, "member", "reminders", "message")
			f.clock.Advance(2 * time.Hour) // reminders have no late cutoff
			if r := f.mustDeliver(t); r.Delivered != 1 {
				t.Fatalf("deliver: %+v", r)
			}
			var got map[string]any
			var ops []string
			for _, m := range eventJSON(t, f.poll(t, "member", q, -1, true)) {
				switch m["type"] {
				case "message":
					got = m["message"].(map[string]any)
				case "reminders":
					ops = append(ops, fmt.Sprint(m["op"]))
				}
			}
			if got == nil || got["sender_id"] != float64(chat.NotificationBotID) || got["type"] != "private" ||
				!strings.Contains(got["content"].(string), "You requested a reminder for") {
				t.Errorf("reminder message = %v", got)
			}
			if fmt.Sprint(ops) != "[remove]" {
				t.Errorf("reminders events = %v, want [remove]", ops)
			}
			list, _ = f.svc.GetReminders(ctx, f.actor("member"), chat.GetRemindersParams{})
			if len(list.Reminders) != 0 {
				t.Errorf("delivered reminder still listed: %v", list.Reminders)
			}

			// Errors: another reminder and its deletion.
			_, err = f.svc.CreateMessageReminder(ctx, f.actor("member"), chat.CreateMessageReminderParams{MessageID: msg + 1000, ScheduledDeliveryTimestamp: f.at(time.Hour)})
			wantError(t, err, chat.CodeBadRequest, 400, "Invalid message(s)")
			_, err = f.svc.CreateMessageReminder(ctx, f.actor("member"), chat.CreateMessageReminderParams{MessageID: msg, ScheduledDeliveryTimestamp: f.at(-time.Hour)})
			wantError(t, err, chat.CodeBadRequest, 400, "Scheduled delivery time must be in the future.")
			_, err = f.svc.CreateMessageReminder(ctx, f.actor("member"), chat.CreateMessageReminderParams{MessageID: msg, ScheduledDeliveryTimestamp: f.at(time.Hour), Note: ptr(strings.Repeat("n", messages.MaxReminderNoteLength+1))})
			wantError(t, err, chat.CodeBadRequest, 400, fmt.Sprintf("Maximum reminder note length: %d characters", messages.MaxReminderNoteLength))
			dm := mustSendDirect(t, f, "member", "/poll Lunch?", "admin")
			res, err = f.svc.CreateMessageReminder(ctx, f.actor("member"), chat.CreateMessageReminderParams{MessageID: dm, ScheduledDeliveryTimestamp: f.at(time.Hour)})
			mustDo(t, "CreateMessageReminder(poll)", err)
			list, _ = f.svc.GetReminders(ctx, f.actor("member"), chat.GetRemindersParams{})
			ids := []int64{int64(f.ids["admin"]), int64(f.ids["member"])}
			if ids[0] > ids[1] {
				ids[0], ids[1] = ids[1], ids[0]
			}
			wantPoll := fmt.Sprintf("You requested a reminder for the following direct message.\n\n@_**Mia Member|%d** [sent](https://chat.example.com/#narrow/dm/%d,%d/near/%d) a poll.",
				f.ids["member"], ids[0], ids[1], dm)
			if len(list.Reminders) != 1 || list.Reminders[0].Content != wantPoll {
				t.Errorf("poll reminder = %+v\nwant %q", list.Reminders, wantPoll)
			}
			mustDo(t, "DeleteReminder", errOf(f.svc.DeleteReminder(ctx, f.actor("member"), chat.DeleteReminderParams{ReminderID: res.ReminderID})))
			_, err = f.svc.DeleteReminder(ctx, f.actor("member"), chat.DeleteReminderParams{ReminderID: res.ReminderID})
			wantError(t, err, chat.CodeBadRequest, 404, "Reminder does not exist")
		})
	}
}

// TestSchedulerInBackground: StartScheduler delivers due messages without being driven, and
// Close stops it.
func TestSchedulerInBackground(t *testing.T) {
	t.Parallel()
	f := newFixture(t, func(o *chat.Options) { o.SchedulerInterval = 5 * time.Millisecond })
	ch := mustChannel(t, f, "plans", chat.NewChannelSettings{}, "member")
	f.mustSchedule(t, "member", chat.CreateScheduledMessageParams{Type: "stream", To: channelTo(ch), Topic: ptr("t"), Content: "bg", ScheduledDeliveryTimestamp: f.at(time.Minute)})
	before := f.messageCount(t)
	f.svc.StartScheduler()
	f.svc.StartScheduler() // a second call does nothing more
	f.clock.Advance(time.Minute)
	deadline := time.Now().Add(10 * time.Second)
	for f.messageCount(t) == before {
		if time.Now().After(deadline) {
			t.Fatal("the background scheduler did not deliver the due message")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if err := f.svc.Close(); err != nil {
		t.Fatal(err)
	}
}
