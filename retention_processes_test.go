package chat_test

import (
	"os"
	"sync"
	"testing"
	"time"

	chat "github.com/teamchat/chat"
	blobmemory "github.com/teamchat/chat/blobs/memory"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/storage/sqlstore"
)

// TestMessageRetentionTwoProcesses: two Services, each with its own connection pool to one
// PostgreSQL database (two processes, as far as the database can tell), run passes at once in
// small batches: every expired message is archived exactly once.
func TestMessageRetentionTwoProcesses(t *testing.T) {
	base := os.Getenv("CHAT_TEST_POSTGRES_URL")
	if base == "" {
		t.Skip("CHAT_TEST_POSTGRES_URL is unset: concurrent passes need a PostgreSQL server")
	}
	t.Parallel()
	dsn := benchSchema(t, base)
	store, err := sqlstore.Open(t.Context(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	bs := blobmemory.New()
	small := func(o *chat.Options) { o.Blobs, o.RetentionBatchSize = bs, 25 }
	f := newFixtureOn(t, store, small)
	days := `30`
	c := mustChannel(t, f, "short", chat.NewChannelSettings{MessageRetentionDays: &days}, "owner", "member")
	const n = 500
	now := f.clock.Now().Unix()
	if err := store.Update(t.Context(), func(tx storage.Tx) error {
		for i := range n {
			m := messages.Message{SenderID: f.ids["owner"], ChannelID: c, Topic: "t", Content: "old", Rendered: "<p>old</p>", Timestamp: now - 40*86400 + int64(i)}
			if _, err := tx.Messages().Create(m, []messages.UserMessage{{UserID: f.ids["member"]}}); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	expired := fetchIDs(t, f, "owner", chat.NarrowTerm{Operator: "channel", Operand: float64(c)})
	f.clock.Advance(time.Minute)

	other, err := sqlstore.Open(t.Context(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	svc2, err := chat.New(chat.Options{Store: other, Now: f.clock.Now, Blobs: bs, RetentionBatchSize: 25})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { svc2.Close(); other.Close() })

	var (
		wg      sync.WaitGroup
		results [2]chat.ArchiveMessagesResult
		errs    [2]error
	)
	for i, svc := range []*chat.Service{f.svc, svc2} {
		wg.Go(func() { results[i], errs[i] = svc.ArchiveMessages(t.Context(), chat.ArchiveMessagesParams{}) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("pass %d: %v", i, err)
		}
	}
	if got := results[0].Archived + results[1].Archived; got != len(expired) {
		t.Fatalf("the passes archived %d and %d messages, want %d in all", results[0].Archived, results[1].Archived, len(expired))
	}
	seen := map[messages.ID]bool{}
	if err := store.View(t.Context(), func(tx storage.ReadTx) error {
		for _, r := range results {
			for _, id := range r.Archives {
				ar, err := tx.Archives().Get(id)
				if err != nil {
					return err
				}
				for _, m := range ar.Messages {
					if seen[m.ID] {
						t.Errorf("message %d archived twice", m.ID)
					}
					seen[m.ID] = true
				}
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(seen) != len(expired) {
		t.Fatalf("archives hold %d messages, want %d", len(seen), len(expired))
	}
	if left := fetchIDs(t, f, "owner", chat.NarrowTerm{Operator: "channel", Operand: float64(c)}); len(left) != 0 {
		t.Fatalf("channel still holds %v", left)
	}
	t.Logf("the passes archived %d and %d messages", results[0].Archived, results[1].Archived)
}
