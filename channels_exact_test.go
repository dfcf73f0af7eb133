package chat_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	chat "github.com/teamchat/chat"
)

// An empty subscription_data is a successful no-op, as in Zulip: nothing changes and no
// event is sent.
func TestUpdateSubscriptionSettingsEmptyIsNoOp(t *testing.T) {
	t.Parallel()
	for _, b := range testBackends() {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			f := newFixtureOn(t, b.open(t))
			f.mustSubscribe(t, "member", chat.SubscribeParams{Subscriptions: subs("a")})
			before := f.channelSnapshot(t)
			q := f.register(t, "member")
			_, err := f.svc.UpdateSubscriptionSettings(context.Background(), f.actor("member"), chat.UpdateSubscriptionSettingsParams{SubscriptionData: []chat.SubscriptionPropertyChange{}})
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
}

// message_retention_days="forever" was renamed "unlimited" at feature level 91; Zulip refuses
// the old word when a channel is created and when it is changed, and so do we.
func TestMessageRetentionForeverRefused(t *testing.T) {
	t.Parallel()
	forever := `"forever"`
	for _, b := range testBackends() {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			f := newFixtureOn(t, b.open(t))
			ctx := context.Background()
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
}
