package chat_test

import (
	"path/filepath"
	"testing"
	"time"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/storage/sqlstore"
)

// TestQueuesSurviveRestartOnSQLite restarts the whole stack, store included: a Service on an
// SQLite file is closed, the file closed and reopened, and a new Service continues the same
// queue from the client's last_event_id without losing or repeating an event.
func TestQueuesSurviveRestartOnSQLite(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	dsn := "sqlite:" + filepath.Join(t.TempDir(), "chat.db")
	store, err := sqlstore.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	f := newFixtureOn(t, store)
	q := f.register(t, "admin", "realm_user", "restart")
	for _, email := range []string{"a@example.com", "b@example.com"} {
		mustProvision(t, f, chat.ProvisionUserParams{Email: email, FullName: "Before Restart"})
	}
	before := f.poll(t, "admin", q, -1, true)
	if len(before) != 2 {
		t.Fatalf("before restart: %d events, want 2", len(before))
	}
	acked := before[0].ID
	f.poll(t, "admin", q, acked, true)
	if err := f.svc.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if err := store.Close(); err != nil {
		t.Fatal(err)
	}

	store2, err := sqlstore.Open(ctx, dsn)
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	t.Cleanup(func() { store2.Close() })
	svc2, err := chat.New(chat.Options{Store: store2, Now: f.clock.Now, HeartbeatWait: time.Hour})
	if err != nil {
		t.Fatalf("restart: %v", err)
	}
	t.Cleanup(func() { svc2.Close() })
	got, err := svc2.GetEvents(ctx, f.actor("admin"), chat.GetEventsParams{QueueID: q, LastEventID: &acked, DontBlock: true})
	if err != nil {
		t.Fatalf("polling the old queue after restart: %v", err)
	}
	evs := eventJSON(t, got.Events)
	if len(evs) != 2 || evs[0]["id"] != float64(before[1].ID) || evs[0]["type"] != "realm_user" || evs[1]["type"] != "restart" {
		t.Fatalf("after restart got %v; want the unacknowledged realm_user event, then restart", evs)
	}
	if want := eventJSON(t, before[1:2])[0]; evs[0]["person"].(map[string]any)["email"] != want["person"].(map[string]any)["email"] {
		t.Errorf("restored event %v differs from the one before the restart %v", evs[0], want)
	}
	last := got.Events[1].ID
	mustDo(t, "ProvisionUser", errOf(svc2.ProvisionUser(ctx, chat.ProvisionUserParams{Email: "c@example.com", FullName: "After Restart"})))
	got, err = svc2.GetEvents(ctx, f.actor("admin"), chat.GetEventsParams{QueueID: q, LastEventID: &last, DontBlock: true})
	if err != nil || len(got.Events) != 1 || got.Events[0].ID != last+1 {
		t.Fatalf("after restart: %+v, %v; want one new event with id %d", got.Events, err, last+1)
	}
}
