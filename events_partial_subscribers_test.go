package chat_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/users"
)

func TestPartialSubscribersAreBotsAndRecentlyActive(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	f := newFixture(t)
	var crowd []users.ID
	for i := range chat.PartialSubscribersThreshold {
		crowd = append(crowd, mustProvision(t, f, chat.ProvisionUserParams{Email: fmt.Sprintf("c%d@example.com", i), FullName: fmt.Sprintf("Crowd %d", i)}).UserID)
	}
	f.mustSubscribe(t, "admin", chat.SubscribeParams{Subscriptions: subs("big", "small"), Principals: chat.Principals{IDs: []users.ID{f.ids["admin"], f.ids["member"], f.ids["bot"]}}})
	f.mustSubscribe(t, "admin", chat.SubscribeParams{Subscriptions: subs("big"), Principals: chat.Principals{IDs: crowd}})

	// Two weeks and a day later only the member and one of the crowd have sent messages, and
	// another of the crowd has reported being active.
	f.clock.Advance((chat.PartialSubscribersActiveDays*24 + 1) * time.Hour)
	big := f.mustChannel(t, "big").ID
	mustSendToChannel(t, f, "member", big, "hi", "still here")
	f.ids["c7"] = crowd[7]
	mustSendToChannel(t, f, "c7", big, "hi", "me too")
	if _, err := f.svc.UpdatePresence(ctx, chat.Actor{UserID: crowd[9]}, chat.UpdatePresenceParams{Status: "active"}); err != nil {
		t.Fatal(err)
	}

	got, err := f.svc.GetSubscriptions(ctx, f.actor("member"), chat.GetSubscriptionsParams{IncludeSubscribers: "partial"})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range got.Subscriptions {
		switch s.Name {
		case "big":
			if s.Subscribers != nil || s.PartialSubscribers == nil {
				t.Fatalf("big: subscribers %v, partial %v", s.Subscribers, s.PartialSubscribers)
			}
			want := []users.ID{f.ids["member"], f.ids["bot"], crowd[7], crowd[9]}
			if diff := cmp.Diff(want, *s.PartialSubscribers); diff != "" {
				t.Errorf("big: partial_subscribers (-want +got):\n%s", diff)
			}
		case "small":
			if s.PartialSubscribers != nil || s.Subscribers == nil || len(*s.Subscribers) != 3 {
				t.Errorf("small: subscribers %v, partial %v", s.Subscribers, s.PartialSubscribers)
			}
		}
	}
	// Register gives the same.
	res, err := f.svc.RegisterQueue(ctx, f.actor("member"), chat.RegisterQueueParams{IncludeSubscribers: "partial", FetchEventTypes: []string{"subscription"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Subscriptions == nil {
		t.Fatal("register: no subscriptions")
	}
	for _, s := range *res.Subscriptions {
		if s.Name == "big" && (s.PartialSubscribers == nil || len(*s.PartialSubscribers) != 4) {
			t.Errorf("register: big partial_subscribers = %v", s.PartialSubscribers)
		}
	}
}
