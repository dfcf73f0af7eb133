package sqlstore_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/storage/sqlstore"
	"github.com/teamchat/chat/users"
)

// TestActivityWrittenOnce pins the activity floor on both dialects: a time this Store has
// written for a user is not written again (no statement), a later one is, a transaction
// that rolls back or a group's closure that fails raises nothing, and a second Store on the
// same database (another process) neither misses a write nor moves a time back.
func TestActivityWrittenOnce(t *testing.T) {
	t.Parallel()
	for name, dsn := range databases() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			src := dsn(t)
			s, other := mustOpen(t, src), mustOpen(t, src)
			ctx := t.Context()
			boom := errors.New("boom")
			set := func(s *sqlstore.Store, at int64, fail bool, ids ...users.ID) uint64 {
				t.Helper()
				before := s.Statements()
				err := s.Update(ctx, func(tx storage.Tx) error {
					if err := tx.Users().SetLastActive(at, ids...); err != nil {
						return err
					}
					if fail {
						return boom
					}
					return nil
				})
				if fail != errors.Is(err, boom) {
					t.Fatalf("SetLastActive(%d, %v): %v", at, ids, err)
				}
				return s.Statements() - before
			}
			active := func(s *sqlstore.Store, since int64, want ...users.ID) {
				t.Helper()
				var got []users.ID
				if err := s.View(ctx, func(tx storage.ReadTx) error {
					var err error
					got, err = tx.Users().ActiveSince(since)
					return err
				}); err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(got, want) {
					t.Errorf("ActiveSince(%d) = %v, want %v", since, got, want)
				}
			}
			empty := set(s, 100, false) // BEGIN and COMMIT, no write: what a transaction costs
			if n := set(s, 100, false, 1, 2); n <= empty {
				t.Fatalf("the first write of 1 and 2 at 100 took %d statements, the empty transaction %d", n, empty)
			}
			if n := set(s, 100, false, 1, 2); n != empty {
				t.Errorf("1 and 2 again at 100: %d statements, want %d (nothing written)", n, empty)
			}
			if n := set(s, 90, false, 2); n != empty {
				t.Errorf("2 at 90, below what was written: %d statements, want %d", n, empty)
			}
			active(s, 100, 1, 2)

			// A transaction that rolls back raises nothing: 200 is written again.
			set(s, 200, true, 1)
			active(s, 200)
			if n := set(s, 200, false, 1); n <= empty {
				t.Errorf("1 at 200 after a rolled-back write at 200 took %d statements: not written", n)
			}
			active(s, 200, 1)

			// A group's closure that fails after its write (undone in a savepoint) raises nothing.
			errs, err := s.UpdateGroup(ctx, []func(storage.Tx) error{
				func(tx storage.Tx) error { return tx.Users().SetLastActive(300, 1) },
				func(tx storage.Tx) error {
					if err := tx.Users().SetLastActive(300, 2); err != nil {
						return err
					}
					return boom
				},
			})
			if err != nil || errs[0] != nil || !errors.Is(errs[1], boom) {
				t.Fatalf("group: %v, %v", errs, err)
			}
			active(s, 300, 1)
			if n := set(s, 300, false, 2); n <= empty {
				t.Errorf("2 at 300 after its failed closure took %d statements: not written", n)
			}
			active(s, 300, 1, 2)

			// Another Store writes later times; this one's older write changes nothing.
			set(other, 500, false, 1)
			set(s, 400, false, 1)
			active(s, 500, 1)
			active(other, 400, 1)
		})
	}
}
