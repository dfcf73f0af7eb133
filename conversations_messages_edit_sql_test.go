package chat_test

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/storage/memory"
	"github.com/teamchat/chat/storage/sqlstore"
	"github.com/teamchat/chat/storage/storagetest"
)

// editScenario edits and moves messages of the edit world and returns every message as the
// admin and the guest read them afterwards.
func editScenario(t *testing.T, f *fixture) map[string][]chat.MessageRecord {
	t.Helper()
	w := seedEditWorld(t, f)
	mustEdit(t, f, "admin", chat.UpdateMessageParams{MessageID: w.party[0], Content: ptr("edited **once**"), Topic: ptr("renamed"), PropagateMode: "change_later"})
	mustEdit(t, f, "member", chat.UpdateMessageParams{MessageID: w.party[1], Topic: ptr(messages.ResolvedPrefix + "renamed"), PropagateMode: "change_all"})
	mustEdit(t, f, "admin", chat.UpdateMessageParams{MessageID: w.party[2], StreamID: &w.private, PropagateMode: "change_all", SendNotificationToOldThread: ptr(true)})
	out := map[string][]chat.MessageRecord{}
	for _, who := range []string{"admin", "guest"} {
		res, err := f.svc.GetMessages(t.Context(), f.actor(who), chat.GetMessagesParams{Anchor: "oldest", NumAfter: 100, AllowEmptyTopicName: true})
		if err != nil {
			t.Fatal(err)
		}
		out[who] = res.Messages
	}
	return out
}

// TestUpdateMessageSameOnSQLite runs the same edits on the memory store and on SQLite and
// compares what users read afterwards (the conformance suite pins Move and DeleteRows on
// PostgreSQL too).
func TestUpdateMessageSameOnSQLite(t *testing.T) {
	t.Parallel()
	want := editScenario(t, newFixtureOn(t, memory.New()))
	if len(want["admin"]) < 8 || len(want["admin"][0].EditHistory) != 3 {
		t.Fatalf("the scenario left too little to compare: %+v", want["admin"])
	}
	store, err := sqlstore.Open(t.Context(), "sqlite:"+filepath.Join(t.TempDir(), "chat.db"))
	if err != nil {
		t.Fatal(err)
	}
	got := editScenario(t, newFixtureOn(t, store))
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("messages differ from the memory store's (-memory +sqlite):\n%s", diff)
	}
}

// TestUpdateMessageFailedWrite: a move whose second write fails changes nothing and publishes
// nothing.
func TestUpdateMessageFailedWrite(t *testing.T) {
	t.Parallel()
	faulty := storagetest.NewFaulty(memory.New())
	f := newFixtureOn(t, faulty)
	w := seedEditWorld(t, f)
	before := editSnapshot(t, f)
	q := f.register(t, "member")
	boom := errors.New("disk on fire")
	faulty.FailWritesAfter(1, boom)
	_, err := f.svc.UpdateMessage(t.Context(), f.actor("admin"), chat.UpdateMessageParams{
		MessageID: w.party[0], StreamID: &w.private, Topic: ptr("moved"), PropagateMode: "change_all",
	})
	faulty.FailWritesAfter(-1, nil)
	if !errors.Is(err, boom) {
		t.Fatalf("error = %v, want the storage failure", err)
	}
	if diff := cmp.Diff(before, editSnapshot(t, f)); diff != "" {
		t.Errorf("a failed move changed messages or rows (-before +after):\n%s", diff)
	}
	if evs := f.poll(t, "member", q, -1, true); len(evs) != 0 {
		t.Errorf("events after a failed write: %v", wireEvents(t, evs))
	}
}

// editSnapshot is every message and row of the store.
func editSnapshot(t *testing.T, f *fixture) [2]any {
	t.Helper()
	var out [2]any
	err := f.store.View(t.Context(), func(tx storage.ReadTx) error {
		ids := make([]messages.ID, 100)
		for i := range ids {
			ids[i] = messages.ID(i + 1)
		}
		msgs, err := tx.Messages().GetMany(ids)
		if err != nil {
			return err
		}
		rows, err := tx.Messages().Rows(ids)
		out = [2]any{msgs, rows}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
