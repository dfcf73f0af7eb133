package chat_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/storage/sqlstore"
)

// TestGroupCommit holds SQLite's writes while nine mutations start, the first alone (it
// leads a group of its own, taken before the others start), so that the other eight join
// that group while its transaction runs (groupRun's join slots) and all nine share one
// commit: six sends, a send refused (an unknown channel), a mutation that panics after
// writing (so the group runs again with savepoints, each joined mutation in the same slot)
// and a new user. Each gets its own outcome
// (the panic in its own goroutine, its write undone), the others' writes and events all
// land, and a queue registered before gets every event once, in the group's order.
func TestGroupCommit(t *testing.T) {
	t.Parallel()
	store, err := sqlstore.Open(t.Context(), "sqlite:"+filepath.Join(t.TempDir(), "chat.db"))
	if err != nil {
		t.Fatal(err)
	}
	f := newFixtureOn(t, store)
	ch := mustChannel(t, f, "grouped", chat.NewChannelSettings{}, "admin", "member", "owner")
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	admin := f.actor("admin")
	reg, err := f.svc.RegisterQueue(ctx, admin, chat.RegisterQueueParams{EventTypes: []string{"message", "realm_user"}})
	if err != nil {
		t.Fatal(err)
	}

	release := f.svc.HoldWrites()
	var wg sync.WaitGroup
	results := make([]error, 9)
	var panicked any
	start := func(i int, run func() error) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = run()
		}()
	}
	for i := range 6 {
		if i == 1 {
			// The first send leads a group of its own, held, before the others start.
			for !f.svc.LeadingAlone() {
				if ctx.Err() != nil {
					release()
					t.Fatal("the first send did not take the lead")
				}
				runtime.Gosched()
			}
		}
		start(i, func() error {
			_, err := f.svc.SendMessage(ctx, f.actor([]string{"member", "owner"}[i%2]), chat.SendMessageParams{
				Type: "stream", ChannelID: &ch, Topic: ptr("grouped"), Content: fmt.Sprintf("grouped %d", i),
			})
			return err
		})
	}
	missing := channels.ID(999999)
	start(6, func() error {
		_, err := f.svc.SendMessage(ctx, f.actor("member"), chat.SendMessageParams{Type: "stream", ChannelID: &missing, Topic: ptr("x"), Content: "lost"})
		return err
	})
	start(7, func() (err error) {
		defer func() { panicked = recover() }()
		return f.svc.PanickingMutation(ctx, f.ids["member"], "boom")
	})
	start(8, func() error {
		_, err := f.svc.ProvisionUser(ctx, chat.ProvisionUserParams{Email: "grouped@example.com", FullName: "Grouped User"})
		return err
	})
	for f.svc.WaitingWrites() < 8 { // the first leads a group of its own, held
		if ctx.Err() != nil {
			release()
			t.Fatalf("only %d mutations waiting", f.svc.WaitingWrites())
		}
		runtime.Gosched()
	}
	release()
	wg.Wait()

	if groups, shared := f.svc.SharedCommits(); groups != 1 || shared != 9 {
		t.Errorf("shared commits: %d groups of %d mutations, want 1 of 9", groups, shared)
	}
	for i, err := range results {
		switch i {
		case 6:
			var e *chat.Error
			if !errors.As(err, &e) || e.Code != chat.CodeStreamDoesNotExist {
				t.Errorf("send to an unknown channel: %v, want STREAM_DOES_NOT_EXIST", err)
			}
		case 7:
			if panicked != "boom" {
				t.Errorf("panicking mutation: recovered %v (err %v), want boom", panicked, err)
			}
		default:
			if err != nil {
				t.Errorf("mutation %d: %v", i, err)
			}
		}
	}
	if err := store.View(ctx, func(tx storage.ReadTx) error {
		disabled, err := tx.Drafts().SyncDisabled(f.ids["member"])
		if err == nil && disabled {
			t.Error("the panicking mutation's write was committed")
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}

	// The queue gets the six messages and the new user, each once.
	last := reg.LastEventID
	sent, newUsers := map[messages.ID]bool{}, 0
	for len(sent) < 6 || newUsers < 1 {
		got, err := f.svc.GetEvents(ctx, admin, chat.GetEventsParams{QueueID: *reg.QueueID, LastEventID: &last})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range got.Events {
			if e.ID <= last {
				t.Fatalf("event id %d after %d", e.ID, last)
			}
			last = e.ID
			switch e.Type {
			case "message":
				id := e.Payload.(chat.MessageEvent).Message.ID
				if sent[id] {
					t.Fatalf("message %d twice", id)
				}
				sent[id] = true
			case "realm_user":
				newUsers++
			}
		}
	}
	got, err := f.svc.GetEvents(ctx, admin, chat.GetEventsParams{QueueID: *reg.QueueID, LastEventID: &last, DontBlock: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range got.Events {
		if e.Type != "heartbeat" {
			t.Errorf("extra event %s", e.Type)
		}
	}
	if newUsers != 1 {
		t.Errorf("%d realm_user events, want 1", newUsers)
	}
}

// TestGroupCommitLonePanicPassesTheLead: a mutation that panics while it leads a group of its
// own (its panic leaves through the store's Update) still hands the lead on, so the writes
// after it commit instead of waiting forever for a leader that has left.
func TestGroupCommitLonePanicPassesTheLead(t *testing.T) {
	t.Parallel()
	store, err := sqlstore.Open(t.Context(), "sqlite:"+filepath.Join(t.TempDir(), "chat.db"))
	if err != nil {
		t.Fatal(err)
	}
	f := newFixtureOn(t, store)
	ch := mustChannel(t, f, "after a panic", chat.NewChannelSettings{}, "member")
	ctx := t.Context()
	func() {
		defer func() {
			if p := recover(); p != "boom" {
				t.Fatalf("recovered %v, want boom", p)
			}
		}()
		_ = f.svc.PanickingMutation(ctx, f.ids["member"], "boom")
	}()
	done := make(chan error, 1)
	go func() {
		_, err := f.svc.SendMessage(ctx, f.actor("member"), chat.SendMessageParams{
			Type: "stream", ChannelID: &ch, Topic: ptr("after"), Content: "still writing",
		})
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("send after the panic: %v", err)
		}
	case <-time.After(30 * time.Second): // a deadlock detector, not a time budget
		t.Fatal("a send after a lone panicking mutation never committed: the lead was kept")
	}
}
