package chat_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	chat "github.com/teamchat/chat"
)

// eventJSON renders events as the wire would, so payloads restored from the store (raw JSON)
// compare equal with live ones.
func eventJSON(t *testing.T, evs []chat.Event) []map[string]any {
	t.Helper()
	out := make([]map[string]any, len(evs))
	for i, e := range evs {
		b, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &out[i]); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// TestQueuesSurviveRestart stops a Service gracefully and starts another on the same store: the
// client keeps polling the same queue_id from its last_event_id and loses or repeats nothing.
func TestQueuesSurviveRestart(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	q := f.register(t, "admin", "realm_user", "restart")
	for _, email := range []string{"a@example.com", "b@example.com", "c@example.com"} {
		if _, err := f.svc.ProvisionUser(ctx, chat.ProvisionUserParams{Email: email, FullName: "New User"}); err != nil {
			t.Fatal(err)
		}
	}
	first := f.poll(t, "admin", q, -1, true)
	if len(first) != 3 {
		t.Fatalf("before restart: %d events, want 3", len(first))
	}
	// The client has processed the first event only.
	f.poll(t, "admin", q, first[0].ID, true)
	if err := f.svc.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if _, err := f.svc.ProvisionUser(ctx, chat.ProvisionUserParams{Email: "late@example.com", FullName: "Too Late"}); err == nil {
		t.Fatal("a mutation after Close succeeded; its events would miss the saved queues")
	}

	svc2, err := chat.New(chat.Options{Store: f.store, Now: f.clock.Now, HeartbeatWait: time.Hour})
	if err != nil {
		t.Fatalf("restart: %v", err)
	}
	t.Cleanup(func() { svc2.Close() })
	got, err := svc2.GetEvents(ctx, f.actor("admin"), chat.GetEventsParams{QueueID: q, LastEventID: ptr(first[0].ID), DontBlock: true})
	if err != nil {
		t.Fatalf("polling the old queue after restart: %v", err)
	}
	want := eventJSON(t, first[1:])
	want = append(want, map[string]any{
		"type": "restart", "id": float64(first[2].ID + 1), "zulip_version": chat.ServiceVersion,
		"zulip_merge_base": "", "zulip_feature_level": float64(chat.FeatureLevel),
		"server_generation": float64(f.clock.Now().Unix()),
	})
	if diff := cmp.Diff(want, eventJSON(t, got.Events)); diff != "" {
		t.Fatalf("events after restart (-want +got):\n%s", diff)
	}
	// New events continue the ids after the restart event.
	if _, err := svc2.ProvisionUser(ctx, chat.ProvisionUserParams{Email: "d@example.com", FullName: "After Restart"}); err != nil {
		t.Fatal(err)
	}
	last := got.Events[len(got.Events)-1].ID
	got, err = svc2.GetEvents(ctx, f.actor("admin"), chat.GetEventsParams{QueueID: q, LastEventID: &last, DontBlock: true})
	if err != nil || len(got.Events) != 1 || got.Events[0].ID != last+1 || got.Events[0].Type != "realm_user" {
		t.Fatalf("after restart: %+v, %v; want one realm_user event with id %d", got.Events, err, last+1)
	}

	// The saved copies are gone once restored: a crash now (no Close) loses the queues, and
	// the client gets BAD_EVENT_QUEUE_ID.
	svc3, err := chat.New(chat.Options{Store: f.store, Now: f.clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { svc3.Close() })
	_, err = svc3.GetEvents(ctx, f.actor("admin"), chat.GetEventsParams{QueueID: q, LastEventID: &last, DontBlock: true})
	wantError(t, err, chat.CodeBadEventQueueID, 400, "Bad event queue ID: "+q)
}
