package sqlstore_test

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/storage/sqlstore"
	"github.com/teamchat/chat/users"
)

// TestDeferredRows pins the deferred inserts: a message's recipient rows and direct-message
// index wait for the transaction's next statement, its search entry for one that names the
// search table (SQLite; PostgreSQL writes them in the message's own statement), so
// consecutive sends share their inserts; every read sees every earlier write, the commit
// writes what is still pending, and a rolled-back transaction leaves nothing.
func TestDeferredRows(t *testing.T) {
	t.Parallel()
	for name, open := range openers(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s := open(t)
			ctx := t.Context()
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
				// The search entries (SQLite) wait for a statement that names their table.
				late := 30
				if name == "postgres" {
					late = 0
				}
				if len(rows) != 60 || sqlstore.PendingRows(tx) != late {
					t.Errorf("a read saw %d rows and left %d pending, want 60 and %d", len(rows), sqlstore.PendingRows(tx), late)
				}
				found, err := tx.Messages().Query(storage.MessageQuery{User: b, Limit: 100,
					Terms: []messages.Term{{Operator: messages.OpSearch, Search: messages.ParseSearch("hello")}}})
				if err != nil {
					return err
				}
				if len(found) != 30 || sqlstore.PendingRows(tx) != 0 {
					t.Errorf("a search found %d messages and left %d rows pending, want 30 and 0", len(found), sqlstore.PendingRows(tx))
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

// TestGroupDefersAcrossClosures pins UpdateGroup's run without savepoints on SQLite: the
// closures of a group share the deferred rows' statements (three sends: their three inserts,
// then one statement per table for all their rows), and a closure that fails after writing
// makes the group run again with savepoints, which undo its writes only.
func TestGroupDefersAcrossClosures(t *testing.T) {
	t.Parallel()
	s := mustOpen(t, "sqlite:"+filepath.Join(t.TempDir(), "chat.db"))
	ctx := t.Context()
	a, b := users.ID(11), users.ID(12)
	var sent []messages.ID
	send := func(tx storage.Tx) error {
		m := messages.Message{SenderID: a, Recipients: []users.ID{a, b}, Content: "hello", Rendered: "<p>hello</p>", Timestamp: 1000}
		id, err := tx.Messages().Create(m, []messages.UserMessage{{UserID: a, Flags: messages.FlagRead}, {UserID: b}})
		sent = append(sent, id)
		return err
	}
	boom := errors.New("boom")
	group := func(fns ...func(storage.Tx) error) (uint64, []error) {
		t.Helper()
		sent = nil
		before := s.Statements()
		errs, err := s.UpdateGroup(ctx, fns)
		if err != nil {
			t.Fatal(err)
		}
		return s.Statements() - before, errs
	}
	// BEGIN, three messages, their user rows, direct-message index and search entries, COMMIT:
	// a message's insert runs ahead of the pending rows, so the three share each statement.
	if n, _ := group(send, send, send); n != 8 {
		t.Errorf("a group of three sends took %d statements, want 8", n)
	}
	n, errs := group(send, func(tx storage.Tx) error {
		if err := send(tx); err != nil {
			return err
		}
		return boom
	}, send)
	if !errors.Is(errs[1], boom) || errs[0] != nil || errs[2] != nil {
		t.Errorf("errors %v, want boom for the second closure only", errs)
	}
	if n < 8+8 {
		t.Errorf("a group whose closure failed after writing took %d statements: not run again with savepoints", n)
	}
	kept := []messages.ID{sent[len(sent)-3], sent[len(sent)-1]} // the run with savepoints
	err := s.View(ctx, func(tx storage.ReadTx) error {
		direct, err := tx.Messages().DirectWith(b)
		if err != nil {
			return err
		}
		if len(direct) != 5 {
			t.Errorf("%d direct messages of b, want 5 (three, then two)", len(direct))
		}
		rows, err := tx.Messages().UserRows(b, kept)
		if len(rows) != 2 {
			t.Errorf("rows of b of the kept messages %v: %d, want 2", kept, len(rows))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}
