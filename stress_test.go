package chat_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/users"
)

// TestEventStress runs concurrent writers against concurrent clients that register at
// different moments and long-poll (blocking, with heartbeats) until they know every user. For
// each client, event ids only increase, no event is delivered twice, and its register state plus
// its events is exactly the final set of users. Run it locally with -race -count=20.
func TestEventStress(t *testing.T) {
	t.Parallel()
	f := newFixture(t, func(o *chat.Options) { o.HeartbeatWait = 20 * time.Millisecond })
	const writers, perWriter, clients = 4, 15, 12
	final := f.userCount(t) + writers*perWriter
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()

	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range perWriter {
				p := chat.ProvisionUserParams{Email: fmt.Sprintf("s%d-%d@example.com", w, i), FullName: "Stress User"}
				if _, err := f.svc.ProvisionUser(ctx, p); err != nil {
					t.Errorf("writer %d: %v", w, err)
					return
				}
			}
		}()
	}
	for c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Stagger registrations across the writes.
			time.Sleep(time.Duration(c) * 2 * time.Millisecond)
			if err := pollUntilComplete(ctx, f, final); err != nil {
				t.Errorf("client %d: %v", c, err)
			}
		}()
	}
	wg.Wait()
}

// pollUntilComplete registers as the administrator and long-polls until the client knows final
// users, checking ids and duplicates on the way.
func pollUntilComplete(ctx context.Context, f *fixture, final int) error {
	admin := f.actor("admin")
	res, err := f.svc.RegisterQueue(ctx, admin, chat.RegisterQueueParams{EventTypes: []string{"realm_user"}})
	if err != nil {
		return err
	}
	known := map[users.ID]bool{}
	for _, u := range append(res.RealmUsers, res.RealmNonActiveUsers...) {
		if known[u.UserID] {
			return fmt.Errorf("register lists user %d twice", u.UserID)
		}
		known[u.UserID] = true
	}
	last := res.LastEventID
	for len(known) < final {
		got, err := f.svc.GetEvents(ctx, admin, chat.GetEventsParams{QueueID: *res.QueueID, LastEventID: &last})
		if err != nil {
			return fmt.Errorf("after %d of %d users: %w", len(known), final, err)
		}
		for _, e := range got.Events {
			if e.ID <= last {
				return fmt.Errorf("event id %d after %d", e.ID, last)
			}
			last = e.ID
			if e.Type == "heartbeat" {
				continue
			}
			id := e.Payload.(chat.RealmUserEvent).Person.(chat.UserRecord).UserID
			if known[id] {
				return fmt.Errorf("user %d delivered twice (state or event)", id)
			}
			known[id] = true
		}
	}
	// Nothing more may arrive: every user is known exactly once.
	got, err := f.svc.GetEvents(ctx, admin, chat.GetEventsParams{QueueID: *res.QueueID, LastEventID: &last, DontBlock: true})
	if err != nil {
		return err
	}
	for _, e := range got.Events {
		if e.Type != "heartbeat" {
			return fmt.Errorf("extra event after the final state: %+v", e)
		}
	}
	return nil
}
