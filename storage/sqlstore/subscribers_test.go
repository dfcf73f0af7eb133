package sqlstore_test

import (
	"errors"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// TestSubscribersCacheFollowsWrites pins the kept active subscriptions per channel (SQLite,
// subscribers.go; the same reads on PostgreSQL): a second store on the same database
// (another process) sees every write of the first, a transaction sees its own writes, a
// rolled-back write leaves no trace, and a read does not answer with statements when
// nothing changed.
func TestSubscribersCacheFollowsWrites(t *testing.T) {
	t.Parallel()
	for name := range openers(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var a, b storage.Storage
			if name == "sqlite" {
				src := "sqlite:" + filepath.Join(t.TempDir(), "chat.db")
				a, b = mustOpen(t, src), mustOpen(t, src)
			} else {
				src := freshSchema(t, postgresURL(t))
				a, b = mustOpen(t, src), mustOpen(t, src)
			}
			ctx := t.Context()
			sub := func(u users.ID, c channels.ID, active bool) channels.Subscription {
				return channels.Subscription{UserID: u, ChannelID: c, Active: active, Color: "#c2c2c2"}
			}
			read := func(tx storage.ReadTx, list ...channels.ID) (string, error) {
				subs, err := tx.Subscriptions().ListForChannels(list, true)
				var got []string
				for _, s := range subs {
					got = append(got, fmt.Sprintf("%d:%d", s.ChannelID, s.UserID))
				}
				return fmt.Sprint(got), err
			}
			want := func(s storage.Storage, what, want string, list ...channels.ID) {
				t.Helper()
				err := s.View(ctx, func(tx storage.ReadTx) error {
					got, err := read(tx, list...)
					if got != want {
						t.Errorf("%s: %s, want %s", what, got, want)
					}
					return err
				})
				if err != nil {
					t.Fatal(err)
				}
			}
			put := func(s storage.Storage, subs ...channels.Subscription) {
				t.Helper()
				if err := s.Update(ctx, func(tx storage.Tx) error { return tx.Subscriptions().Put(subs) }); err != nil {
					t.Fatal(err)
				}
			}
			put(a, sub(1, 10, true), sub(2, 10, true), sub(3, 10, false), sub(1, 20, true))
			want(a, "first read", "[10:1 10:2 20:1]", 20, 10, 10)
			want(a, "kept", "[10:1 10:2 20:1]", 10, 20)
			want(a, "a channel without subscribers, kept or not", "[10:1 10:2]", 30, 10)
			want(b, "the other store", "[10:1 10:2]", 10)
			put(b, sub(3, 10, true), sub(1, 20, false))
			want(a, "after the other store's write", "[10:1 10:2 10:3]", 10, 20)
			err := a.Update(ctx, func(tx storage.Tx) error {
				if err := tx.Subscriptions().Put([]channels.Subscription{sub(2, 10, false)}); err != nil {
					return err
				}
				got, err := read(storage.ReadsOf(tx), 10)
				if got != "[10:1 10:3]" {
					t.Errorf("own write: %s, want [10:1 10:3]", got)
				}
				if err != nil {
					return err
				}
				return errRolledBack
			})
			if !errors.Is(err, errRolledBack) {
				t.Fatal(err)
			}
			want(a, "after a rolled-back write", "[10:1 10:2 10:3]", 10)
			want(b, "after a rolled-back write, other store", "[10:1 10:2 10:3]", 10)
			counter := a.(interface{ Statements() uint64 })
			before := counter.Statements()
			want(a, "kept again", "[10:1 10:2 10:3]", 10)
			// BEGIN, the versions, COMMIT on SQLite; the read itself on PostgreSQL.
			if n := counter.Statements() - before; name == "sqlite" && n != 3 {
				t.Errorf("a kept read took %d statements, want 3", n)
			}
		})
	}
}

var errRolledBack = errors.New("rolled back")
