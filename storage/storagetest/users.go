package storagetest

import (
	"errors"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

func testUsers(t *testing.T, open Opener) {
	t.Run("Create assigns ids and Get returns every field", func(t *testing.T) {
		s := open(t)
		want := newUser(1)
		want.Role = users.RoleOwner
		want.PasswordHash = "$argon2id$..."
		want.IsImportedStub = true
		want.CanCreateUsers = true
		want.CanChangeUserEmails = true
		want.EmailVisibility = users.EmailVisibleModerators
		bot := newUser(2)
		bot.BotType = users.BotIncomingWebhook
		var id1, id2 users.ID
		mustUpdate(t, s, func(tx storage.Tx) (err error) {
			if id1, err = tx.Users().Create(want); err != nil {
				return err
			}
			bot.BotOwnerID = id1
			id2, err = tx.Users().Create(bot)
			return err
		})
		if id1 <= 0 || id2 <= id1 {
			t.Fatalf("ids = %d, %d; want positive and increasing", id1, id2)
		}
		want.ID, bot.ID = id1, id2
		mustView(t, s, func(tx storage.ReadTx) error {
			got, err := tx.Users().Get(id1)
			if err != nil {
				return err
			}
			wantEqual(t, "user", want, got)
			got, err = tx.Users().Get(id2)
			if err != nil {
				return err
			}
			wantEqual(t, "bot", bot, got)
			return nil
		})
	})

	t.Run("Update sets and clears the deleted marker", func(t *testing.T) {
		s := open(t)
		u := newUser(1)
		mustUpdate(t, s, func(tx storage.Tx) (err error) {
			u.ID, err = tx.Users().Create(u)
			return err
		})
		for _, deleted := range []bool{true, false} {
			u.IsDeleted, u.IsActive = deleted, !deleted
			mustUpdate(t, s, func(tx storage.Tx) error { return tx.Users().Update(u) })
			mustView(t, s, func(tx storage.ReadTx) error {
				got, err := tx.Users().Get(u.ID)
				if err != nil {
					return err
				}
				wantEqual(t, "user", u, got)
				return nil
			})
		}
	})

	t.Run("ListShared lists what List does, after writes and rollbacks", func(t *testing.T) {
		s := open(t)
		sameLists := func(what string) {
			t.Helper()
			mustView(t, s, func(tx storage.ReadTx) error {
				want, err := tx.Users().List()
				if err != nil {
					return err
				}
				for range 2 { // the second read may be the kept list
					got, err := tx.Users().ListShared()
					if err != nil {
						return err
					}
					wantEqual(t, what, want, got, cmpopts.EquateEmpty())
				}
				return nil
			})
		}
		sameLists("empty")
		var ids []users.ID
		mustUpdate(t, s, func(tx storage.Tx) error {
			for n := range 2 {
				id, err := tx.Users().Create(newUser(n + 1))
				if err != nil {
					return err
				}
				ids = append(ids, id)
			}
			return nil
		})
		sameLists("after Create")
		renamed := newUser(1)
		renamed.ID, renamed.FullName = ids[0], "Renamed"
		mustUpdate(t, s, func(tx storage.Tx) error { return tx.Users().Update(renamed) })
		sameLists("after Update")
		err := s.Update(t.Context(), func(tx storage.Tx) error {
			gone := renamed
			gone.IsActive = false
			if err := tx.Users().Update(gone); err != nil {
				return err
			}
			got, err := tx.Users().ListShared()
			if err != nil {
				return err
			}
			if len(got) != 2 || got[0].IsActive {
				t.Errorf("ListShared after a write in the same transaction: %+v", got)
			}
			return errRollback
		})
		wantIs(t, "Update", err, errRollback)
		sameLists("after a rolled-back Update")
		mustView(t, s, func(tx storage.ReadTx) error {
			got, err := tx.Users().ListShared()
			if err != nil {
				return err
			}
			if len(got) != 2 || got[0].FullName != "Renamed" || !got[0].IsActive {
				t.Errorf("ListShared after the rollback: %+v", got)
			}
			return nil
		})
	})

	t.Run("ReserveIDs keeps reserved ids from Create", func(t *testing.T) {
		s := open(t)
		var ids []users.ID
		create := func(n int) {
			mustUpdate(t, s, func(tx storage.Tx) error {
				id, err := tx.Users().Create(newUser(n))
				ids = append(ids, id)
				return err
			})
		}
		mustUpdate(t, s, func(tx storage.Tx) error { return tx.Users().ReserveIDs(5) })
		create(1)
		// A reservation below the ids handed out changes nothing.
		mustUpdate(t, s, func(tx storage.Tx) error { return tx.Users().ReserveIDs(3) })
		create(2)
		mustUpdate(t, s, func(tx storage.Tx) error { return tx.Users().ReserveIDs(10) })
		create(3)
		if want := []users.ID{6, 7, 11}; !slices.Equal(ids, want) {
			t.Errorf("ids after reservations = %v, want %v", ids, want)
		}
		mustView(t, s, func(tx storage.ReadTx) error {
			list, err := tx.Users().List()
			if len(list) != 3 {
				t.Errorf("reservations created users: %+v", list)
			}
			return err
		})
	})

	t.Run("lookups by email are case-insensitive and by key exact", func(t *testing.T) {
		s := open(t)
		u := newUser(1)
		u.Email = "Mixed.Case@Example.com"
		mustUpdate(t, s, func(tx storage.Tx) error { _, err := tx.Users().Create(u); return err })
		mustView(t, s, func(tx storage.ReadTx) error {
			got, err := tx.Users().GetByEmail("mixed.case@EXAMPLE.COM")
			if err != nil {
				return err
			}
			wantEqual(t, "stored email keeps its case", "Mixed.Case@Example.com", got.Email)
			if _, err := tx.Users().GetByAPIKey(u.APIKey); err != nil {
				return err
			}
			_, err = tx.Users().GetByAPIKey("X" + u.APIKey[1:])
			wantIs(t, "GetByAPIKey(other)", err, storage.ErrNotFound)
			_, err = tx.Users().GetByEmail("nobody@example.com")
			wantIs(t, "GetByEmail(unknown)", err, storage.ErrNotFound)
			_, err = tx.Users().Get(9999)
			wantIs(t, "Get(unknown)", err, storage.ErrNotFound)
			return nil
		})
	})

	t.Run("duplicate email or API key is a conflict", func(t *testing.T) {
		s := open(t)
		mustUpdate(t, s, func(tx storage.Tx) error { _, err := tx.Users().Create(newUser(1)); return err })
		dupEmail := newUser(2)
		dupEmail.Email = "USER1@example.com"
		dupKey := newUser(3)
		dupKey.APIKey = newUser(1).APIKey
		for name, u := range map[string]users.User{"email": dupEmail, "key": dupKey} {
			err := s.Update(t.Context(), func(tx storage.Tx) error { _, err := tx.Users().Create(u); return err })
			wantIs(t, "Create with duplicate "+name, err, storage.ErrConflict)
		}
		var id2 users.ID
		mustUpdate(t, s, func(tx storage.Tx) (err error) { id2, err = tx.Users().Create(newUser(2)); return err })
		err := s.Update(t.Context(), func(tx storage.Tx) error {
			u, err := tx.Users().Get(id2)
			if err != nil {
				return err
			}
			u.Email = "user1@EXAMPLE.com"
			return tx.Users().Update(u)
		})
		wantIs(t, "Update to a taken email", err, storage.ErrConflict)
	})

	t.Run("Update replaces the record and re-indexes", func(t *testing.T) {
		s := open(t)
		var id users.ID
		mustUpdate(t, s, func(tx storage.Tx) (err error) { id, err = tx.Users().Create(newUser(1)); return err })
		mustUpdate(t, s, func(tx storage.Tx) error {
			u, err := tx.Users().Get(id)
			if err != nil {
				return err
			}
			u.Email, u.APIKey, u.IsActive, u.Role = "new@example.com", "NEWKEY0000000000000000000000000", false, users.RoleGuest
			return tx.Users().Update(u)
		})
		mustView(t, s, func(tx storage.ReadTx) error {
			u, err := tx.Users().GetByEmail("new@example.com")
			if err != nil {
				return err
			}
			if u.IsActive || u.Role != users.RoleGuest || u.ID != id {
				t.Errorf("updated user = %+v", u)
			}
			_, err = tx.Users().GetByEmail("user1@example.com")
			wantIs(t, "old email", err, storage.ErrNotFound)
			_, err = tx.Users().GetByAPIKey(newUser(1).APIKey)
			wantIs(t, "old key", err, storage.ErrNotFound)
			return nil
		})
		err := s.Update(t.Context(), func(tx storage.Tx) error { return tx.Users().Update(users.User{ID: 777, Email: "x@y.z"}) })
		wantIs(t, "Update(unknown)", err, storage.ErrNotFound)
	})

	t.Run("List and GetMany are ordered by id", func(t *testing.T) {
		s := open(t)
		var ids []users.ID
		mustUpdate(t, s, func(tx storage.Tx) error {
			for i := range 5 {
				id, err := tx.Users().Create(newUser(i))
				if err != nil {
					return err
				}
				ids = append(ids, id)
			}
			return nil
		})
		mustView(t, s, func(tx storage.ReadTx) error {
			all, err := tx.Users().List()
			if err != nil {
				return err
			}
			var got []users.ID
			for _, u := range all {
				got = append(got, u.ID)
			}
			wantEqual(t, "List ids", ids, got)
			some, err := tx.Users().GetMany([]users.ID{ids[3], 12345, ids[1], ids[3]})
			if err != nil {
				return err
			}
			got = nil
			for _, u := range some {
				got = append(got, u.ID)
			}
			wantEqual(t, "GetMany ids", []users.ID{ids[1], ids[3]}, got)
			return nil
		})
	})

	t.Run("SetLastActive keeps the latest time and ActiveSince lists by it", func(t *testing.T) {
		s := open(t)
		mustView(t, s, func(tx storage.ReadTx) error {
			got, err := tx.Users().ActiveSince(0)
			wantEqual(t, "ActiveSince on an empty store", 0, len(got))
			return err
		})
		mustUpdate(t, s, func(tx storage.Tx) error {
			for _, a := range []struct {
				id users.ID
				t  int64
			}{{3, 100}, {1, 500}, {2, 300}, {3, 50}, {2, 700}} {
				if err := tx.Users().SetLastActive(a.t, a.id); err != nil {
					return err
				}
			}
			// Visible later in the same transaction.
			got, err := tx.Users().ActiveSince(600)
			wantEqual(t, "ActiveSince(600) inside the transaction", []users.ID{2}, got)
			if err != nil {
				return err
			}
			// Several users at once, one of them twice, one with a newer time already.
			if err := tx.Users().SetLastActive(650, 4, 5, 4, 2); err != nil {
				return err
			}
			got, err = tx.Users().ActiveSince(650)
			wantEqual(t, "ActiveSince(650) after SetLastActive(650, 4, 5, 4, 2)", []users.ID{2, 4, 5}, got)
			if err != nil {
				return err
			}
			if err := tx.Users().SetLastActive(1000); err != nil {
				return err
			}
			got, err = tx.Users().ActiveSince(700)
			wantEqual(t, "ActiveSince(700): user 2 kept 700, SetLastActive without users changed nothing", []users.ID{2}, got)
			return err
		})
		mustView(t, s, func(tx storage.ReadTx) error {
			got, err := tx.Users().ActiveSince(100)
			wantEqual(t, "ActiveSince(100): an older time does not replace a newer one", []users.ID{1, 2, 3, 4, 5}, got)
			if err != nil {
				return err
			}
			got, err = tx.Users().ActiveSince(101)
			wantEqual(t, "ActiveSince(101)", []users.ID{1, 2, 4, 5}, got)
			return err
		})
		boom := errors.New("boom")
		err := s.Update(t.Context(), func(tx storage.Tx) error {
			if err := tx.Users().SetLastActive(900, 9); err != nil {
				return err
			}
			return boom
		})
		wantIs(t, "rolled-back Update", err, boom)
		mustView(t, s, func(tx storage.ReadTx) error {
			got, err := tx.Users().ActiveSince(800)
			wantEqual(t, "ActiveSince after a rollback", 0, len(got))
			return err
		})
	})
}
