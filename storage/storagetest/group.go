package storagetest

import (
	"errors"
	"testing"

	"github.com/teamchat/chat/storage"
)

// testGroupUpdate pins storage.GroupUpdater on the stores that offer it: closures share one
// transaction, each sees those before it, and a failed or panicking closure loses its own
// writes only (and the cached lists do not keep them).
func testGroupUpdate(t *testing.T, open Opener) {
	s := open(t)
	g, ok := s.(storage.GroupUpdater)
	if !ok {
		t.Skip("the store does not group updates")
	}
	ctx := t.Context()
	boom := errors.New("boom")
	var seen int
	errs, err := g.UpdateGroup(ctx, []func(storage.Tx) error{
		func(tx storage.Tx) error { _, err := tx.Users().Create(newUser(1)); return err },
		func(tx storage.Tx) error {
			if _, err := tx.Users().Create(newUser(2)); err != nil {
				return err
			}
			return boom
		},
		func(tx storage.Tx) error {
			if _, err := tx.Users().Create(newUser(3)); err != nil {
				return err
			}
			panic("closure 3")
		},
		// A uniqueness violation (user 1's email): on PostgreSQL a failed statement, which the
		// closure's savepoint undoes so that the transaction goes on.
		func(tx storage.Tx) error { _, err := tx.Users().Create(newUser(1)); return err },
		func(tx storage.Tx) error {
			all, err := tx.Users().List()
			seen = len(all)
			if err != nil {
				return err
			}
			_, err = tx.Users().Create(newUser(5))
			return err
		},
	})
	if err != nil {
		t.Fatalf("UpdateGroup: %v", err)
	}
	wantIs(t, "closure 2", errs[1], boom)
	var p *storage.Panic
	if !errors.As(errs[2], &p) || p.Value != "closure 3" {
		t.Errorf("closure 3: %v, want the panic", errs[2])
	}
	wantIs(t, "closure 4", errs[3], storage.ErrConflict)
	if errs[0] != nil || errs[4] != nil {
		t.Errorf("closures 1 and 5: %v, %v", errs[0], errs[4])
	}
	if seen != 1 {
		t.Errorf("closure 5 saw %d users, want 1 (closure 1's)", seen)
	}
	wantEmails := func(what string, want ...string) {
		t.Helper()
		mustView(t, s, func(tx storage.ReadTx) error {
			all, err := tx.Users().List()
			var got []string
			for _, u := range all {
				got = append(got, u.Email)
			}
			wantEqual(t, what, want, got)
			return err
		})
	}
	wantEmails("after the group", newUser(1).Email, newUser(5).Email)

	// A closure that fails before writing anything, between two that write: the others keep
	// their writes, each sees those before it.
	errs, err = g.UpdateGroup(ctx, []func(storage.Tx) error{
		func(tx storage.Tx) error { _, err := tx.Users().Create(newUser(7)); return err },
		func(tx storage.Tx) error {
			if _, err := tx.Users().List(); err != nil {
				return err
			}
			return boom
		},
		func(tx storage.Tx) error {
			all, err := tx.Users().List()
			seen = len(all)
			if err != nil {
				return err
			}
			_, err = tx.Users().Create(newUser(8))
			return err
		},
	})
	if err != nil {
		t.Fatalf("UpdateGroup: %v", err)
	}
	wantIs(t, "closure failing before writing", errs[1], boom)
	if errs[0] != nil || errs[2] != nil {
		t.Errorf("closures 1 and 3: %v, %v", errs[0], errs[2])
	}
	if seen != 3 {
		t.Errorf("closure 3 saw %d users, want 3", seen)
	}
	wantEmails("after the second group", newUser(1).Email, newUser(5).Email, newUser(7).Email, newUser(8).Email)

	// A group whose every closure fails commits nothing and reports no error of its own.
	errs, err = g.UpdateGroup(ctx, []func(storage.Tx) error{
		func(tx storage.Tx) error {
			if _, err := tx.Users().Create(newUser(6)); err != nil {
				return err
			}
			return boom
		},
		func(storage.Tx) error { return boom },
	})
	if err != nil {
		t.Fatalf("UpdateGroup: %v", err)
	}
	wantIs(t, "failing closure", errs[0], boom)
	wantIs(t, "failing closure", errs[1], boom)
	wantEmails("after the failed group", newUser(1).Email, newUser(5).Email, newUser(7).Email, newUser(8).Email)
}
