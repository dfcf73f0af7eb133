package sqlstore_test

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/storage/sqlstore"
	"github.com/teamchat/chat/users"
)

// TestDeferredRows pins the deferred inserts: a message's recipient rows, direct-message index
// and search entry wait for the transaction's next statement (SQLite; PostgreSQL writes them
// in the message's own statement), so consecutive sends share their
// inserts; every read sees every earlier write, the commit writes what is still pending, and a
// rolled-back transaction leaves nothing.
func TestDeferredRows(t *testing.T) {
	t.Parallel()
	for name, open := range openers(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s := open(t)
			ctx := context.Background()
			a, b := users.ID(11), users.ID(12)
			send := func(tx storage.Tx, n int) []messages.ID {
				t.Helper()
				var ids []messages.ID
				for i := range n {
					m := messages.Message{SenderID: a, Recipients: []users.ID{a, b}, Content: "hello", Rendered: "<p>hello</p>", Timestamp: int64(1000 + i)}
					id, err := tx.Messages().Create(m, []messages.UserMessage{{UserID: a, Flags: messages.FlagRead}, {UserID: b}})
					if err != nil {
						t.Fatal(err)
					}
					ids = append(ids, id)
				}
				return ids
			}
			var sent []messages.ID
			err := s.Update(ctx, func(tx storage.Tx) error {
				sent = send(tx, 30)
				// SQLite: two user rows, two direct-index rows and a search entry per message.
				// PostgreSQL writes them with the message, in its one statement.
				want := 30 * 4
				if name == "postgres" {
					want = 0
				}
				if got := sqlstore.PendingRows(tx); got < want || name == "postgres" && got != 0 {
					t.Errorf("pending rows after 30 sends = %d, want %d", got, want)
				}
				rows, err := tx.Messages().Rows(sent)
				if err != nil {
					return err
				}
				if len(rows) != 60 || sqlstore.PendingRows(tx) != 0 {
					t.Errorf("a read saw %d rows and left %d pending, want 60 and 0", len(rows), sqlstore.PendingRows(tx))
				}
				sent = append(sent, send(tx, 5)...)
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			errRollback := errors.New("roll back")
			err = s.Update(ctx, func(tx storage.Tx) error {
				send(tx, 3)
				return errRollback
			})
			if !errors.Is(err, errRollback) {
				t.Fatalf("Update = %v, want the closure's error", err)
			}
			err = s.View(ctx, func(tx storage.ReadTx) error {
				rows, err := tx.Messages().UserRows(b, sent)
				if err != nil {
					return err
				}
				direct, err := tx.Messages().DirectWith(b)
				if err != nil {
					return err
				}
				var got []messages.ID
				for _, m := range direct {
					got = append(got, m.ID)
				}
				if len(rows) != len(sent) || !cmp.Equal(got, sent) {
					t.Errorf("after commit: %d rows of b, direct messages %v; want %d and %v", len(rows), got, len(sent), sent)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		})
	}
}
