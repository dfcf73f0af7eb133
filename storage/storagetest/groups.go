package storagetest

import (
	"testing"

	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

func testGroups(t *testing.T, open Opener) {
	t.Run("Create, Get and GetByName round-trip", func(t *testing.T) {
		s := open(t)
		want := users.Group{
			Name: "role:members", Description: "Members", IsSystemGroup: true,
			Members: []users.ID{3, 1, 2, 1}, Subgroups: []users.GroupID{9, 4}, CreatorID: 2, DateCreated: 1700000000,
		}
		var id users.GroupID
		mustUpdate(t, s, func(tx storage.Tx) (err error) { id, err = tx.Groups().Create(want); return err })
		want.ID = id
		want.Members = []users.ID{1, 2, 3}
		want.Subgroups = []users.GroupID{4, 9}
		mustView(t, s, func(tx storage.ReadTx) error {
			got, err := tx.Groups().Get(id)
			if err != nil {
				return err
			}
			wantEqual(t, "Get (lists sorted, deduplicated)", want, got)
			got, err = tx.Groups().GetByName("role:members")
			if err != nil {
				return err
			}
			wantEqual(t, "GetByName", want, got)
			_, err = tx.Groups().GetByName("nope")
			wantIs(t, "GetByName(unknown)", err, storage.ErrNotFound)
			_, err = tx.Groups().Get(id + 100)
			wantIs(t, "Get(unknown)", err, storage.ErrNotFound)
			return nil
		})
	})

	t.Run("ListShared lists what List does, after writes and rollbacks", func(t *testing.T) {
		s := open(t)
		sameLists := func(what string) {
			t.Helper()
			mustView(t, s, func(tx storage.ReadTx) error {
				want, err := tx.Groups().List()
				if err != nil {
					return err
				}
				for range 2 { // the second read may be the kept list
					got, err := tx.Groups().ListShared()
					if err != nil {
						return err
					}
					wantEqual(t, what, want, got, cmpopts.EquateEmpty())
				}
				return nil
			})
		}
		sameLists("empty")
		var a users.GroupID
		mustUpdate(t, s, func(tx storage.Tx) (err error) {
			a, err = tx.Groups().Create(users.Group{Name: "a", Members: []users.ID{2, 1}})
			return err
		})
		sameLists("after Create")
		mustUpdate(t, s, func(tx storage.Tx) error { return tx.Groups().AddMembers(a, []users.ID{3}) })
		sameLists("after AddMembers")
		err := s.Update(t.Context(), func(tx storage.Tx) error {
			if err := tx.Groups().RemoveMembers(a, []users.ID{1}); err != nil {
				return err
			}
			got, err := tx.Groups().ListShared()
			if err != nil {
				return err
			}
			wantEqual(t, "ListShared after a write in the same transaction",
				[]users.Group{{ID: a, Name: "a", Members: []users.ID{2, 3}}}, got, cmpopts.EquateEmpty())
			return errRollback
		})
		wantIs(t, "Update", err, errRollback)
		sameLists("after a rolled-back RemoveMembers")
		mustView(t, s, func(tx storage.ReadTx) error {
			got, err := tx.Groups().ListShared()
			if err != nil {
				return err
			}
			wantEqual(t, "ListShared after the rollback",
				[]users.Group{{ID: a, Name: "a", Members: []users.ID{1, 2, 3}}}, got, cmpopts.EquateEmpty())
			return nil
		})
	})

	t.Run("names are unique", func(t *testing.T) {
		s := open(t)
		mustUpdate(t, s, func(tx storage.Tx) error { _, err := tx.Groups().Create(users.Group{Name: "a"}); return err })
		err := s.Update(t.Context(), func(tx storage.Tx) error { _, err := tx.Groups().Create(users.Group{Name: "a"}); return err })
		wantIs(t, "Create duplicate", err, storage.ErrConflict)
		err = s.Update(t.Context(), func(tx storage.Tx) error {
			id, err := tx.Groups().Create(users.Group{Name: "b"})
			if err != nil {
				return err
			}
			g, err := tx.Groups().Get(id)
			if err != nil {
				return err
			}
			g.Name = "a"
			return tx.Groups().Update(g)
		})
		wantIs(t, "rename onto a taken name", err, storage.ErrConflict)
	})

	t.Run("membership changes and ListForUser", func(t *testing.T) {
		s := open(t)
		var a, b users.GroupID
		mustUpdate(t, s, func(tx storage.Tx) (err error) {
			if a, err = tx.Groups().Create(users.Group{Name: "a", Members: []users.ID{1}}); err != nil {
				return err
			}
			if b, err = tx.Groups().Create(users.Group{Name: "b"}); err != nil {
				return err
			}
			if err := tx.Groups().AddMembers(a, []users.ID{5, 1, 3}); err != nil {
				return err
			}
			if err := tx.Groups().AddMembers(b, []users.ID{3}); err != nil {
				return err
			}
			return tx.Groups().RemoveMembers(a, []users.ID{5, 42})
		})
		mustView(t, s, func(tx storage.ReadTx) error {
			g, err := tx.Groups().Get(a)
			if err != nil {
				return err
			}
			wantEqual(t, "members of a", []users.ID{1, 3}, g.Members)
			mine, err := tx.Groups().ListForUser(3)
			if err != nil {
				return err
			}
			var got []users.GroupID
			for _, g := range mine {
				got = append(got, g.ID)
			}
			wantEqual(t, "groups of user 3", []users.GroupID{a, b}, got)
			return nil
		})
		err := s.Update(t.Context(), func(tx storage.Tx) error { return tx.Groups().AddMembers(999, []users.ID{1}) })
		wantIs(t, "AddMembers(unknown group)", err, storage.ErrNotFound)
	})

	t.Run("members come ascending, whatever order they were written in", func(t *testing.T) {
		s := open(t)
		var a users.GroupID
		mustUpdate(t, s, func(tx storage.Tx) (err error) {
			if a, err = tx.Groups().Create(users.Group{Name: "a", Members: []users.ID{8, 2, 6}}); err != nil {
				return err
			}
			return tx.Groups().AddMembers(a, []users.ID{9, 1, 7})
		})
		want := []users.ID{1, 2, 6, 7, 8, 9}
		mustView(t, s, func(tx storage.ReadTx) error {
			g, err := tx.Groups().Get(a)
			if err != nil {
				return err
			}
			wantEqual(t, "members of a (Get)", want, g.Members)
			for name, list := range map[string]func() ([]users.Group, error){"List": tx.Groups().List, "ListShared": tx.Groups().ListShared} {
				all, err := list()
				if err != nil {
					return err
				}
				for _, g := range all {
					if g.ID == a {
						wantEqual(t, "members of a ("+name+")", want, g.Members)
					}
				}
			}
			return nil
		})
	})

	t.Run("Update replaces description, subgroups and deactivation", func(t *testing.T) {
		s := open(t)
		var id users.GroupID
		mustUpdate(t, s, func(tx storage.Tx) (err error) { id, err = tx.Groups().Create(users.Group{Name: "x"}); return err })
		mustUpdate(t, s, func(tx storage.Tx) error {
			g, err := tx.Groups().Get(id)
			if err != nil {
				return err
			}
			g.Name, g.Description, g.Subgroups, g.Deactivated = "y", "new", []users.GroupID{7}, true
			return tx.Groups().Update(g)
		})
		mustView(t, s, func(tx storage.ReadTx) error {
			g, err := tx.Groups().GetByName("y")
			if err != nil {
				return err
			}
			wantEqual(t, "updated", users.Group{ID: id, Name: "y", Description: "new", Subgroups: []users.GroupID{7}, Deactivated: true}, g)
			_, err = tx.Groups().GetByName("x")
			wantIs(t, "old name", err, storage.ErrNotFound)
			return nil
		})
	})

	t.Run("permission settings round-trip in both forms", func(t *testing.T) {
		s := open(t)
		want := users.Group{
			Name: "settings", CreatorID: 4, DateCreated: 1700000001,
			CanAddMembersGroup:    users.GroupSetting{Members: []users.ID{4}},
			CanJoinGroup:          users.Named(1),
			CanLeaveGroup:         users.Named(7),
			CanManageGroup:        users.GroupSetting{Members: []users.ID{2, 4}, Subgroups: []users.GroupID{3}},
			CanMentionGroup:       users.Named(7),
			CanRemoveMembersGroup: users.GroupSetting{Subgroups: []users.GroupID{1}},
		}
		var id users.GroupID
		mustUpdate(t, s, func(tx storage.Tx) (err error) { id, err = tx.Groups().Create(want); return err })
		want.ID = id
		mustView(t, s, func(tx storage.ReadTx) error {
			got, err := tx.Groups().Get(id)
			if err != nil {
				return err
			}
			wantEqual(t, "group with settings", want, got, cmpopts.EquateEmpty())
			return nil
		})
		mustUpdate(t, s, func(tx storage.Tx) error {
			g, err := tx.Groups().Get(id)
			if err != nil {
				return err
			}
			g.CanManageGroup = users.Named(2)
			g.CanAddMembersGroup.Members = append(g.CanAddMembersGroup.Members, 9)
			return tx.Groups().Update(g)
		})
		want.CanManageGroup = users.Named(2)
		want.CanAddMembersGroup = users.GroupSetting{Members: []users.ID{4, 9}}
		mustView(t, s, func(tx storage.ReadTx) error {
			got, err := tx.Groups().Get(id)
			if err != nil {
				return err
			}
			wantEqual(t, "group after settings update", want, got, cmpopts.EquateEmpty())
			return nil
		})
	})
}
