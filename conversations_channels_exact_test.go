package chat_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/channels"
)

// An empty subscription_data is a successful no-op, as in Zulip: nothing changes and no
// event is sent.
func TestUpdateSubscriptionSettingsEmptyIsNoOp(t *testing.T) {
	t.Parallel()
	onEveryBackend(t, func(t *testing.T, f *fixture) {
		f.mustSubscribe(t, "member", chat.SubscribeParams{Subscriptions: subs("a")})
		before := f.channelSnapshot(t)
		q := f.register(t, "member")
		_, err := f.svc.UpdateSubscriptionSettings(t.Context(), f.actor("member"), chat.UpdateSubscriptionSettingsParams{SubscriptionData: []chat.SubscriptionPropertyChange{}})
		if err != nil {
			t.Fatalf("UpdateSubscriptionSettings([]) = %v, want success", err)
		}
		if evs := f.poll(t, "member", q, -1, true); len(evs) != 0 {
			t.Fatalf("events = %v, want none", kinds(t, evs))
		}
		if diff := cmp.Diff(before, f.channelSnapshot(t)); diff != "" {
			t.Fatalf("state changed (-before +after):\n%s", diff)
		}
	})
}

// message_retention_days="forever" was renamed "unlimited" at feature level 91; Zulip refuses
// the old word when a channel is created and when it is changed, and so do we.
func TestMessageRetentionForeverRefused(t *testing.T) {
	t.Parallel()
	forever := `"forever"`
	onEveryBackend(t, func(t *testing.T, f *fixture) {
		ctx := t.Context()
		f.mustSubscribe(t, "owner", chat.SubscribeParams{Subscriptions: subs("a")})
		a := f.mustChannel(t, "a")
		before := f.channelSnapshot(t)
		_, err := f.svc.UpdateStream(ctx, f.actor("owner"), chat.UpdateStreamParams{StreamID: a.ID, MessageRetentionDays: &forever})
		wantError(t, err, chat.CodeBadRequest, 400, "Bad value for 'message_retention_days': forever")
		_, err = f.svc.Subscribe(ctx, f.actor("owner"), chat.SubscribeParams{Subscriptions: subs("b"), NewChannelSettings: chat.NewChannelSettings{MessageRetentionDays: &forever}})
		wantError(t, err, chat.CodeBadRequest, 400, "Bad value for 'message_retention_days': forever")
		if diff := cmp.Diff(before, f.channelSnapshot(t)); diff != "" {
			t.Fatalf("state changed (-before +after):\n%s", diff)
		}
		unlimited := `"unlimited"`
		if _, err := f.svc.UpdateStream(ctx, f.actor("owner"), chat.UpdateStreamParams{StreamID: a.ID, MessageRetentionDays: &unlimited}); err != nil {
			t.Fatalf("unlimited: %v", err)
		}
		if d := f.mustChannel(t, "a").MessageRetentionDays; d == nil || *d != -1 {
			t.Fatalf("message_retention_days = %v, want -1", d)
		}
	})
}

// topics_policy=empty_topic_only may be set only when every message of the channel is in the
// empty topic (the spec's rule; Zulip's CannotSetTopicsPolicyError); the refusal changes
// nothing and sends nothing.
func TestUpdateStreamEmptyTopicOnlyNeedsOnlyEmptyTopic(t *testing.T) {
	t.Parallel()
	only, allow := "empty_topic_only", "allow_empty_topic"
	onEveryBackend(t, func(t *testing.T, f *fixture) {
		ctx := t.Context()
		f.mustSubscribe(t, "owner", chat.SubscribeParams{Subscriptions: subs("named")})
		f.mustSubscribe(t, "owner", chat.SubscribeParams{Subscriptions: subs("plain"), NewChannelSettings: chat.NewChannelSettings{TopicsPolicy: &only}})
		named, plain := f.mustChannel(t, "named"), f.mustChannel(t, "plain")
		empty, topic := "", "lunch"
		for _, m := range []chat.SendMessageParams{
			{Type: "stream", ChannelID: &named.ID, Topic: &topic, Content: "named topic"},
			{Type: "stream", ChannelID: &plain.ID, Topic: &empty, Content: "empty topic"},
		} {
			if _, err := f.svc.SendMessage(ctx, f.actor("owner"), m); err != nil {
				t.Fatalf("SendMessage: %v", err)
			}
		}
		if _, err := f.svc.UpdateStream(ctx, f.actor("owner"), chat.UpdateStreamParams{StreamID: plain.ID, TopicsPolicy: &allow}); err != nil {
			t.Fatal(err)
		}
		before := f.channelSnapshot(t)
		q := f.register(t, "owner")
		_, err := f.svc.UpdateStream(ctx, f.actor("owner"), chat.UpdateStreamParams{StreamID: named.ID, TopicsPolicy: &only})
		wantError(t, err, chat.CodeBadRequest, 400,
			`To enable this configuration, all messages in this channel must be in the "general chat" topic. Consider renaming other topics to "general chat".`)
		if diff := cmp.Diff(before, f.channelSnapshot(t)); diff != "" {
			t.Fatalf("state changed (-before +after):\n%s", diff)
		}
		if evs := f.poll(t, "owner", q, -1, true); len(evs) != 0 {
			t.Fatalf("events = %v, want none", kinds(t, evs))
		}
		if _, err := f.svc.UpdateStream(ctx, f.actor("owner"), chat.UpdateStreamParams{StreamID: plain.ID, TopicsPolicy: &only}); err != nil {
			t.Fatalf("empty_topic_only on a channel whose messages are all in the empty topic: %v", err)
		}
		if got := f.mustChannel(t, "plain").TopicsPolicy; got != channels.TopicsEmptyTopicOnly {
			t.Fatalf("topics_policy = %v, want empty_topic_only", got)
		}
	})
}
