package chat_test

import (
	"testing"
	"time"

	"github.com/teamchat/chat"
	"github.com/teamchat/chat/eventbus/pgbus"
	"github.com/teamchat/chat/internal/pgtest"
	"github.com/teamchat/chat/storage/sqlstore"
)

// TestMissedMessageEmailOnlineElsewhere: two Services (two processes) share one PostgreSQL
// store and its event bus. A user whose only client is connected to process b is not off
// Zulip: a direct message sent and handled through process a sends them no email, as Zulip's
// receiver_is_off_zulip looks at every queue of the user. A user with no client anywhere
// gets one; so does the first user once b has stopped (its report then names nobody).
func TestMissedMessageEmailOnlineElsewhere(t *testing.T) {
	t.Parallel()
	dsn := pgtest.Schema(t)
	ctx := t.Context()
	openBus := func(node string) chat.Bus {
		bus, err := pgbus.Open(ctx, pgbus.Options{
			URL: dsn, Node: node, AdvertiseURL: "http://" + node + ".test:1", Logger: quietLogger(),
			HeartbeatInterval: 100 * time.Millisecond, NodeTimeout: 5 * time.Second,
		})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { bus.Close() })
		return bus
	}
	storeA, err := sqlstore.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	busA := openBus("a")
	sc := newEmailScene(t, storeA, func(o *chat.Options) { o.Bus, o.NodeID = busA, "a" })
	storeB, err := sqlstore.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	b, err := chat.New(chat.Options{Store: storeB, Bus: openBus("b"), NodeID: "b", Now: sc.clock.Now, Logger: quietLogger(), HeartbeatWait: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	closeB := func() { b.Close(); storeB.Close() }
	t.Cleanup(closeB)
	for _, name := range []string{"member", "owner"} {
		sc.set(t, name, map[string]any{"email_notifications_batching_period_seconds": int64(60)})
	}

	reg, err := b.RegisterQueue(ctx, sc.actor("member"), chat.RegisterQueueParams{EventTypes: []string{"message"}})
	mustDo(t, "RegisterQueue on b", err)
	if reg.QueueID == nil {
		t.Fatal("no queue registered on b")
	}
	mustSendDirect(t, sc.fixture, "admin", "seen on b", "member")
	mustSendDirect(t, sc.fixture, "admin", "nobody is here", "owner")
	sc.clock.Advance(60 * time.Second)
	deliverEmails(t, sc.svc, chat.DeliverMissedMessageEmailsResult{Sent: 1, Dropped: 1})
	got := sc.smtp.Wait(1, 10*time.Second)
	if len(got) != 1 || len(got[0].To) != 1 || got[0].To[0] != "owner@example.com" {
		t.Fatalf("emails at the SMTP server: %+v, want one to owner@example.com", got)
	}

	closeB()
	mustSendDirect(t, sc.fixture, "admin", "b is gone", "member")
	sc.clock.Advance(60 * time.Second)
	deliverEmails(t, sc.svc, chat.DeliverMissedMessageEmailsResult{Sent: 1})
	got = sc.smtp.Wait(2, 10*time.Second)
	if len(got) != 2 || len(got[1].To) != 1 || got[1].To[0] != "Member@Example.com" {
		t.Fatalf("emails at the SMTP server: %+v, want a second one to Member@Example.com", got)
	}
}
