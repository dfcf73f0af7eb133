package chat_test

import (
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/teamchat/chat"
	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/topics"
)

// TestMissedMessageEmailChannelSettings: a channel's email notifications (the subscription's
// email_notifications, else the user's enable_stream_email_notifications) email every message
// of the channel to a subscriber away from every client, batched per conversation as the other
// notifications; never in a muted topic, nor in a muted channel unless the topic is unmuted
// (Zulip's stream_email_notify and user_allows_notifications_in_StreamTopic). The email says
// why it was sent.
func TestMissedMessageEmailChannelSettings(t *testing.T) {
	t.Parallel()
	onEveryBackendWith(t, func(t *testing.T, store storage.Storage) {
		sc := newEmailScene(t, store)
		explicit := mustChannel(t, sc.fixture, "explicit", chat.NewChannelSettings{}, "admin", "member", "owner")
		optout := mustChannel(t, sc.fixture, "optout", chat.NewChannelSettings{}, "admin", "member", "owner")
		muted := mustChannel(t, sc.fixture, "muted", chat.NewChannelSettings{}, "admin", "member", "owner")
		sc.set(t, "owner", map[string]any{"enable_stream_email_notifications": true})
		subProps := func(name string, changes ...chat.SubscriptionPropertyChange) {
			t.Helper()
			mustDo(t, "UpdateSubscriptionSettings", errOf(sc.svc.UpdateSubscriptionSettings(t.Context(), sc.actor(name),
				chat.UpdateSubscriptionSettingsParams{SubscriptionData: changes})))
		}
		prop := func(c channels.ID, name string, v any) chat.SubscriptionPropertyChange {
			return chat.SubscriptionPropertyChange{StreamID: c, Property: name, Value: v}
		}
		subProps("member", prop(explicit, "email_notifications", true), prop(muted, "email_notifications", true), prop(muted, "is_muted", true))
		subProps("owner", prop(optout, "email_notifications", false))
		for _, p := range []chat.UpdateUserTopicParams{
			{StreamID: muted, Topic: "unmuted", VisibilityPolicy: topics.PolicyUnmuted},
			{StreamID: explicit, Topic: "quiet", VisibilityPolicy: topics.PolicyMuted},
		} {
			mustDo(t, "UpdateUserTopic", errOf(sc.svc.UpdateUserTopic(t.Context(), sc.actor("member"), p)))
		}
		for _, m := range []struct {
			c     channels.ID
			topic string
		}{{explicit, "lunch"}, {explicit, "quiet"}, {optout, "lunch"}, {muted, "lunch"}, {muted, "unmuted"}} {
			mustSendToChannel(t, sc.fixture, "admin", m.c, m.topic, "news of "+m.topic)
		}
		mustSendToChannel(t, sc.fixture, "member", explicit, "lunch", "my own message") // not to the sender
		sc.clock.Advance(121 * time.Second)
		deliverEmails(t, sc.svc, chat.DeliverMissedMessageEmailsResult{Sent: 6})

		subject := regexp.MustCompile(`(?m)^Subject: (.*)\r$`)
		got := map[string][]string{}
		for _, m := range sc.smtp.Wait(6, 10*time.Second) {
			data := unfold(m.Data)
			s := subject.FindStringSubmatch(data)
			if len(m.To) != 1 || s == nil {
				t.Fatalf("email without one recipient and a subject:\n%s", data)
			}
			got[m.To[0]] = append(got[m.To[0]], s[1])
			if s[1] == "#explicit > lunch" && !strings.Contains(data, "You are receiving this because you have email notifications enabled for #explicit.") {
				t.Errorf("email to %s does not say why it was sent:\n%s", m.To[0], data)
			}
			if strings.Contains(data, "my own message") && m.To[0] == "Member@Example.com" {
				t.Errorf("the sender's own message emailed to them:\n%s", data)
			}
		}
		for _, v := range got {
			slices.Sort(v)
		}
		want := map[string][]string{
			"Member@Example.com": {"#explicit > lunch", "#muted > unmuted"},
			"owner@example.com":  {"#explicit > lunch", "#explicit > quiet", "#muted > lunch", "#muted > unmuted"},
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("email subjects by recipient (-want +got):\n%s", diff)
		}
	})
}
