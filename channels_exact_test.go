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
