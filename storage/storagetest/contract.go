package storagetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/teamchat/chat/realms"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// newUser is a valid user record with a unique email and API key derived from n.
func newUser(n int) users.User {
	return users.User{
		Email:           fmt.Sprintf("user%d@example.com", n),
		FullName:        fmt.Sprintf("User %d", n),
		Role:            users.RoleMember,
		IsActive:        true,
		APIKey:          fmt.Sprintf("%032d", n),
		Timezone:        "UTC",
		DateJoined:      time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
		AvatarSource:    users.AvatarGravatar,
		AvatarVersion:   1,
		EmailVisibility: users.EmailVisibleEveryone,
	}
}

func testContract(t *testing.T, open Opener) {
	t.Run("rollback on error leaves no rows", func(t *testing.T) {
		s := open(t)
		boom := errors.New("boom")
		err := s.Update(t.Context(), func(tx storage.Tx) error {
			if _, err := tx.Users().Create(newUser(1)); err != nil {
				return err
			}
			if err := tx.Realm().Put(realms.Realm{Name: "R"}); err != nil {
				return err
			}
			if _, err := tx.Groups().Create(users.Group{Name: "g"}); err != nil {
				return err
			}
			// Lists read inside the transaction see its writes (and must not outlive it in
			// any cache the store keeps).
			inside, err := tx.Users().List()
			if err != nil {
				return err
			}
			if len(inside) != 1 {
				t.Errorf("users inside the transaction = %d, want 1", len(inside))
			}
			return fmt.Errorf("wrapped: %w", boom)
		})
		wantIs(t, "Update", err, boom)
		mustView(t, s, func(tx storage.ReadTx) error {
			all, err := tx.Users().List()
			if err != nil {
				return err
			}
			if len(all) != 0 {
				t.Errorf("users after rollback = %v, want none", all)
			}
			_, err = tx.Realm().Get()
			wantIs(t, "Realm().Get after rollback", err, storage.ErrNotFound)
			groups, err := tx.Groups().List()
			if len(groups) != 0 {
				t.Errorf("groups after rollback = %v, want none", groups)
			}
			return err
		})
	})

	t.Run("rollback restores updated rows", func(t *testing.T) {
		s := open(t)
		var id users.ID
		mustUpdate(t, s, func(tx storage.Tx) (err error) { id, err = tx.Users().Create(newUser(1)); return err })
		boom := errors.New("boom")
		err := s.Update(t.Context(), func(tx storage.Tx) error {
			u, err := tx.Users().Get(id)
			if err != nil {
				return err
			}
			u.FullName = "Changed"
			u.Email = "changed@example.com"
			if err := tx.Users().Update(u); err != nil {
				return err
			}
			return boom
		})
		wantIs(t, "Update", err, boom)
		mustView(t, s, func(tx storage.ReadTx) error {
			u, err := tx.Users().GetByEmail("user1@example.com")
			if err != nil {
				return err
			}
			wantEqual(t, "user after rollback", "User 1", u.FullName)
			_, err = tx.Users().GetByEmail("changed@example.com")
			wantIs(t, "GetByEmail(changed)", err, storage.ErrNotFound)
			return nil
		})
	})

	t.Run("writes are visible later in the same Update", func(t *testing.T) {
		s := open(t)
		mustUpdate(t, s, func(tx storage.Tx) error {
			id, err := tx.Users().Create(newUser(1))
			if err != nil {
				return err
			}
			u, err := tx.Users().Get(id)
			if err != nil {
				return err
			}
			wantEqual(t, "email", "user1@example.com", u.Email)
			return nil
		})
	})

	t.Run("a panic in Update rolls back", func(t *testing.T) {
		s := open(t)
		func() {
			defer func() { _ = recover() }()
			_ = s.Update(t.Context(), func(tx storage.Tx) error {
				if _, err := tx.Users().Create(newUser(1)); err != nil {
					return err
				}
				panic("boom")
			})
		}()
		mustView(t, s, func(tx storage.ReadTx) error {
			all, err := tx.Users().List()
			if len(all) != 0 {
				t.Errorf("users after panic = %d, want 0", len(all))
			}
			return err
		})
	})

	t.Run("concurrent updates lose nothing", func(t *testing.T) {
		s := open(t)
		var gid users.GroupID
		mustUpdate(t, s, func(tx storage.Tx) (err error) { gid, err = tx.Groups().Create(users.Group{Name: "all"}); return err })
		const n = 40
		var wg sync.WaitGroup
		errs := make(chan error, 2*n)
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs <- s.Update(t.Context(), func(tx storage.Tx) error {
					id, err := tx.Users().Create(newUser(i))
					if err != nil {
						return err
					}
					return tx.Groups().AddMembers(gid, []users.ID{id})
				})
			}()
			if i%4 == 0 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					errs <- s.View(t.Context(), func(tx storage.ReadTx) error {
						_, err := tx.Users().List()
						return err
					})
				}()
			}
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatalf("concurrent transaction: %v", err)
			}
		}
		mustView(t, s, func(tx storage.ReadTx) error {
			all, err := tx.Users().List()
			if err != nil {
				return err
			}
			g, err := tx.Groups().Get(gid)
			if err != nil {
				return err
			}
			if len(all) != n || len(g.Members) != n {
				t.Errorf("users = %d, group members = %d, want %d each", len(all), len(g.Members), n)
			}
			return nil
		})
	})

	t.Run("a cancelled context stops the work", func(t *testing.T) {
		s := open(t)
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		called := false
		err := s.Update(ctx, func(tx storage.Tx) error {
			called = true
			_, err := tx.Users().Create(newUser(1))
			return err
		})
		wantIs(t, "Update with cancelled context", err, context.Canceled)
		err = s.View(ctx, func(tx storage.ReadTx) error {
			called = true
			_, err := tx.Users().List()
			return err
		})
		wantIs(t, "View with cancelled context", err, context.Canceled)
		_ = called // a backend may or may not enter fn; either way the error must surface
		mustView(t, s, func(tx storage.ReadTx) error {
			all, err := tx.Users().List()
			if len(all) != 0 {
				t.Errorf("users = %d after cancelled Update, want 0", len(all))
			}
			return err
		})
	})

	t.Run("cancellation during a transaction fails the next access", func(t *testing.T) {
		s := open(t)
		ctx, cancel := context.WithCancel(t.Context())
		err := s.Update(ctx, func(tx storage.Tx) error {
			if _, err := tx.Users().Create(newUser(1)); err != nil {
				return err
			}
			cancel()
			_, err := tx.Users().Create(newUser(2))
			return err
		})
		wantIs(t, "Update", err, context.Canceled)
		mustView(t, s, func(tx storage.ReadTx) error {
			all, err := tx.Users().List()
			if len(all) != 0 {
				t.Errorf("users = %d after cancelled Update, want 0", len(all))
			}
			return err
		})
	})
}
