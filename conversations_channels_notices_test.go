package chat_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/users"
)

// botMessage is a notification bot's message as a user fetches it.
type botMessage struct {
	To, Topic, Content string
	Read               bool
}

// botMessages lists the notification bot's messages viewer can read, oldest first.
func botMessages(t *testing.T, f *fixture, viewer string) []botMessage {
	t.Helper()
	res := fetch(t, f, viewer, chat.GetMessagesParams{Anchor: "oldest", NumAfter: 1000, ApplyMarkdown: ptr(false)})
	var out []botMessage
	for _, m := range res.Messages {
		if m.SenderID != chat.NotificationBotID {
			continue
		}
		to, _ := m.DisplayRecipient.(string)
		if m.Type == "private" {
			to = "dm"
		}
		out = append(out, botMessage{To: to, Topic: m.Subject, Content: m.Content, Read: slices.Contains(*m.Flags, "read")})
	}
	return out
}

func TestNotificationBotMessages(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	f := newFixture(t)
	f.mustSubscribe(t, "admin", chat.SubscribeParams{Subscriptions: subs("announce", "old")})
	if _, err := f.svc.UpdateRealm(ctx, f.actor("admin"), chat.UpdateRealmParams{NewStreamAnnouncementsStreamID: ptr(int64(f.mustChannel(t, "announce").ID))}); err != nil {
		t.Fatal(err)
	}
	f.mustSubscribe(t, "member", chat.SubscribeParams{Subscriptions: subs("announce")})
	desc := "Plans for **launch**"
	res := f.mustSubscribe(t, "admin", chat.SubscribeParams{
		Subscriptions: []chat.SubscriptionRequest{{Name: "launch", Description: &desc}, {Name: "old"}, {Name: "x*y"}},
		Principals:    chat.Principals{IDs: []users.ID{f.ids["admin"], f.ids["member"], f.ids["bot"]}},
		Announce:      true, NewChannelSettings: chat.NewChannelSettings{InviteOnly: true},
	})
	if res.NewSubscriptionMessagesSent == nil || !*res.NewSubscriptionMessagesSent {
		t.Fatalf("new_subscription_messages_sent = %v", res.NewSubscriptionMessagesSent)
	}
	admin := fmt.Sprintf("@_**Adam Admin|%d**", f.ids["admin"])
	xy := f.mustChannel(t, "x*y").ID
	// The combined feed holds what the member received: not the history of announce and old,
	// created before they joined (Zulip's ok_to_include_history).
	want := []botMessage{
		// Only the channel that existed before; the bot is not told, nor the admin.
		{To: "dm", Content: admin + " subscribed you to #**old**."},
		{To: "announce", Topic: "new channels", Content: admin + fmt.Sprintf(" created the following channels: #**launch**, [#x&#42;y](#narrow/channel/%d-x*y).", xy)},
		{To: "launch", Topic: "channel events", Content: "**Private, protected history** channel created by " + admin + ". **Description:**\n```` quote\nPlans for **launch**\n````"},
		{To: "x*y", Topic: "channel events", Content: "**Private, protected history** channel created by " + admin + ". **Description:**\n```` quote\n*No description.*\n````"},
	}
	if diff := cmp.Diff(want, botMessages(t, f, "member")); diff != "" {
		t.Errorf("member's notices (-want +got):\n%s", diff)
	}
	// The creator has read what their request caused.
	for _, m := range botMessages(t, f, "admin")[2:] {
		if !m.Read {
			t.Errorf("admin: unread notice %+v", m)
		}
	}

	// Several channels at once in a direct message; none with send_new_subscription_messages
	// false, and then no key either.
	f.mustSubscribe(t, "admin", chat.SubscribeParams{Subscriptions: subs("b2", "a1")})
	res = f.mustSubscribe(t, "admin", chat.SubscribeParams{Subscriptions: subs("b2", "a1"), Principals: chat.Principals{IDs: []users.ID{f.ids["owner"]}}})
	got := botMessages(t, f, "owner")
	if last := got[len(got)-1]; last.Content != admin+" subscribed you to the following channels:\n\n* #**a1**\n* #**b2**\n" {
		t.Errorf("owner's last notice = %+v", last)
	}
	res = f.mustSubscribe(t, "admin", chat.SubscribeParams{Subscriptions: subs("announce"), Principals: chat.Principals{IDs: []users.ID{f.ids["owner"]}},
		SendNewSubscriptionMessages: ptr(false)})
	if res.NewSubscriptionMessagesSent != nil || len(botMessages(t, f, "owner")) != len(got) {
		t.Errorf("send_new_subscription_messages false: key %v, messages %v", res.NewSubscriptionMessagesSent, botMessages(t, f, "owner"))
	}
}

func TestNewSubscriptionMessagesBulkLimit(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.mustSubscribe(t, "admin", chat.SubscribeParams{Subscriptions: subs("big")})
	var ids []users.ID
	for i := range chat.MaxBulkNewSubscriptionMessages + 1 {
		ids = append(ids, mustProvision(t, f, chat.ProvisionUserParams{Email: fmt.Sprintf("u%d@example.com", i), FullName: fmt.Sprintf("User %d", i)}).UserID)
	}
	res := f.mustSubscribe(t, "admin", chat.SubscribeParams{Subscriptions: subs("big"), Principals: chat.Principals{IDs: ids}})
	if res.NewSubscriptionMessagesSent == nil || *res.NewSubscriptionMessagesSent || len(res.Subscribed) != len(ids) {
		t.Fatalf("new_subscription_messages_sent = %v for %d users", res.NewSubscriptionMessagesSent, len(res.Subscribed))
	}
	f.ids["u0"] = ids[0]
	for _, m := range botMessages(t, f, "u0") {
		if m.To == "dm" {
			t.Fatalf("a direct message despite the bulk limit: %+v", m)
		}
	}
}
