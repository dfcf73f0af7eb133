package chat_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/messages"
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
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
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

// TestEventStressOverlappingWriters runs, on every backend, eight senders to four channels
// and two writers adding users, all at once (on SQLite their writes share commits, each body
// in a savepoint; on PostgreSQL they overlap), against clients that register at different
// moments and long-poll until they know every message. For each client, event ids only
// increase, no message arrives twice (in the register state's unread messages or as an
// event), and state plus events is every message sent.
func TestEventStressOverlappingWriters(t *testing.T) {
	t.Parallel()
	for _, b := range testBackends() {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			f := newFixtureOn(t, b.open(t), func(o *chat.Options) { o.HeartbeatWait = 20 * time.Millisecond })
			var chans []channels.ID
			for i := range 4 {
				chans = append(chans, mustChannel(t, f, fmt.Sprintf("stress %d", i), chat.NewChannelSettings{}, "admin", "member", "owner"))
			}
			const senders, perSender, provisioners, perProvisioner, clients = 8, 12, 2, 5, 6
			ctx, cancel := context.WithTimeout(t.Context(), 120*time.Second)
			defer cancel()
			var wg sync.WaitGroup
			for w := range senders {
				wg.Add(1)
				go func() {
					defer wg.Done()
					who := []string{"member", "owner"}[w%2]
					for i := range perSender {
						if _, err := f.svc.SendMessage(ctx, f.actor(who), chat.SendMessageParams{
							Type: "stream", ChannelID: &chans[w%len(chans)], Topic: ptr("stress"), Content: fmt.Sprintf("message %d of sender %d", i, w),
						}); err != nil {
							t.Errorf("sender %d: %v", w, err)
							return
						}
					}
				}()
			}
			for w := range provisioners {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := range perProvisioner {
						p := chat.ProvisionUserParams{Email: fmt.Sprintf("o%d-%d@example.com", w, i), FullName: "Overlapping User"}
						if _, err := f.svc.ProvisionUser(ctx, p); err != nil {
							t.Errorf("provisioner %d: %v", w, err)
							return
						}
					}
				}()
			}
			for c := range clients {
				wg.Add(1)
				go func() {
					defer wg.Done()
					time.Sleep(time.Duration(c) * 3 * time.Millisecond) // registrations across the writes
					if err := pollMessagesUntil(ctx, f, senders*perSender); err != nil {
						t.Errorf("client %d: %v", c, err)
					}
				}()
			}
			wg.Wait()
		})
	}
}

// pollMessagesUntil registers as the administrator (subscribed to every channel the messages
// go to, none of them read) and long-polls until the client knows final messages, checking
// ids and duplicates on the way.
func pollMessagesUntil(ctx context.Context, f *fixture, final int) error {
	admin := f.actor("admin")
	res, err := f.svc.RegisterQueue(ctx, admin, chat.RegisterQueueParams{EventTypes: []string{"message"}, FetchEventTypes: []string{"message", "update_message_flags"}})
	if err != nil {
		return err
	}
	known := map[messages.ID]bool{}
	if res.UnreadMsgs == nil {
		return fmt.Errorf("register: no unread_msgs")
	}
	for _, s := range res.UnreadMsgs.Streams {
		for _, id := range s.UnreadMessageIDs {
			if known[id] {
				return fmt.Errorf("register lists message %d twice", id)
			}
			known[id] = true
		}
	}
	last := res.LastEventID
	for len(known) < final {
		got, err := f.svc.GetEvents(ctx, admin, chat.GetEventsParams{QueueID: *res.QueueID, LastEventID: &last})
		if err != nil {
			return fmt.Errorf("after %d of %d messages: %w", len(known), final, err)
		}
		for _, e := range got.Events {
			if e.ID <= last {
				return fmt.Errorf("event id %d after %d", e.ID, last)
			}
			last = e.ID
			if e.Type != "message" {
				continue
			}
			id := e.Payload.(chat.MessageEvent).Message.ID
			if known[id] {
				return fmt.Errorf("message %d delivered twice (state or event)", id)
			}
			known[id] = true
		}
	}
	got, err := f.svc.GetEvents(ctx, admin, chat.GetEventsParams{QueueID: *res.QueueID, LastEventID: &last, DontBlock: true})
	if err != nil {
		return err
	}
	for _, e := range got.Events {
		if e.Type == "message" {
			return fmt.Errorf("extra message after the final state: %+v", e)
		}
	}
	return nil
}
