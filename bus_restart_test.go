package chat_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	chat "github.com/teamchat/chat"
)

// startNode starts another Service on the fixture's store and bus as node.
func (f *fixture) startNode(t *testing.T, bus chat.Bus, node string) *chat.Service {
	t.Helper()
	svc, err := chat.New(chat.Options{Store: f.store, Now: f.clock.Now, HeartbeatWait: 50 * time.Millisecond, Bus: bus, NodeID: node,
		PasswordHashing: chat.PasswordHashing{MemoryKiB: 64, Passes: 1, Threads: 1}})
	if err != nil {
		t.Fatalf("starting node %s: %v", node, err)
	}
	t.Cleanup(func() { svc.Close() })
	return svc
}

// addedUsers lists the names of the users whose realm_user add events are in evs, and the
// types of the other events.
func addedUsers(t *testing.T, evs []chat.Event) []string {
	t.Helper()
	var out []string
	for _, e := range eventJSON(t, evs) {
		switch {
		case e["type"] == "realm_user" && e["op"] == "add":
			out = append(out, e["person"].(map[string]any)["full_name"].(string))
		case e["type"] != "heartbeat":
			out = append(out, e["type"].(string))
		}
	}
	return out
}

// TestBusRestartContinuesQueues: a node stopped gracefully and started again with the same id
// continues its queues with exactly the events they lack, in commit order: those committed
// before the stop but not yet delivered, and those committed (through another node) while it
// was down. A queue whose state already included an undelivered commit does not get it again.
func TestBusRestartContinuesQueues(t *testing.T) {
	t.Parallel()
	bus := newFakeBus()
	f := newFixture(t, withBus(bus))
	ctx := t.Context()
	other := f.startNode(t, bus, "n2")
	provision := func(svc *chat.Service, name string) {
		t.Helper()
		if _, err := svc.ProvisionUser(ctx, chat.ProvisionUserParams{Email: name + "@example.com", FullName: name}); err != nil {
			t.Fatal(err)
		}
	}
	early := f.register(t, "admin", "realm_user", "restart")
	provision(f.svc, "Delivered")
	got := f.waitEvents(t, "admin", early, 1)
	f.poll(t, "admin", early, got[0].ID, true) // acknowledged

	// In flight at the stop: committed, not delivered; a queue registered meanwhile has it in
	// its state.
	bus.hold.Lock()
	provision(other, "InFlight")
	late := f.register(t, "admin", "realm_user", "restart")
	closed := make(chan error, 1)
	go func() { closed <- f.svc.Close() }()
	for { // until Close has saved the queues (registrations wait for it, then fail)
		if _, err := f.svc.RegisterQueue(ctx, f.actor("guest"), chat.RegisterQueueParams{}); err != nil {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	bus.hold.Unlock()
	if err := <-closed; err != nil {
		t.Fatalf("Close: %v", err)
	}

	provision(other, "WhileDown1")
	provision(other, "WhileDown2")
	restarted := f.startNode(t, bus, "n1")
	provision(other, "AfterRestart")

	for _, tt := range []struct {
		queue string
		last  int64
		want  []string
	}{
		{early, got[0].ID, []string{"restart", "InFlight", "WhileDown1", "WhileDown2", "AfterRestart"}},
		{late, -1, []string{"restart", "WhileDown1", "WhileDown2", "AfterRestart"}},
	} {
		var names []string
		deadline := time.Now().Add(5 * time.Second)
		last := tt.last
		for len(names) < len(tt.want) && time.Now().Before(deadline) {
			res, err := restarted.GetEvents(ctx, f.actor("admin"), chat.GetEventsParams{QueueID: tt.queue, LastEventID: &last})
			if err != nil {
				t.Fatalf("polling %s after the restart: %v", tt.queue, err)
			}
			names = append(names, addedUsers(t, res.Events)...)
			if n := len(res.Events); n > 0 {
				last = res.Events[n-1].ID
			}
		}
		time.Sleep(50 * time.Millisecond) // lets a duplicate arrive
		res, err := restarted.GetEvents(ctx, f.actor("admin"), chat.GetEventsParams{QueueID: tt.queue, LastEventID: &last, DontBlock: true})
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, addedUsers(t, res.Events)...)
		if diff := cmp.Diff(tt.want, names); diff != "" {
			t.Errorf("queue %s after the restart (-want +got):\n%s", tt.queue, diff)
		}
	}
}
