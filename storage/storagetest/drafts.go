package storagetest

import (
	"testing"

	"github.com/teamchat/chat/drafts"
	"github.com/teamchat/chat/storage"
)

func testDrafts(t *testing.T, open Opener) {
	t.Run("Create, Get and ListForUser round-trip, ordered by timestamp", func(t *testing.T) {
		s := open(t)
		in := []drafts.Draft{
			{UserID: 1, Type: drafts.TypeStream, To: []int64{7}, Topic: "t", Content: "late", Timestamp: 300},
			{UserID: 1, Type: drafts.TypePrivate, To: []int64{2, 3}, Content: "early", Timestamp: 100},
			{UserID: 2, Type: drafts.TypeNone, To: []int64{}, Content: "other user", Timestamp: 50},
			{UserID: 1, Type: drafts.TypeNone, To: []int64{}, Content: "tie", Timestamp: 100},
		}
		var ids []drafts.ID
		mustUpdate(t, s, func(tx storage.Tx) (err error) { ids, err = tx.Drafts().Create(in); return err })
		if len(ids) != 4 || ids[0] == ids[1] || ids[1] == ids[3] {
			t.Fatalf("ids = %v", ids)
		}
		want := make([]drafts.Draft, len(in))
		for i := range in {
			want[i] = in[i].Clone()
			want[i].ID = ids[i]
		}
		in[0].To[0] = 99 // the store keeps its own copy
		mustView(t, s, func(tx storage.ReadTx) error {
			got, err := tx.Drafts().Get(1, ids[0])
			if err != nil {
				return err
			}
			wantEqual(t, "Get", want[0], got)
			_, err = tx.Drafts().Get(2, ids[0])
			wantIs(t, "Get(another user's draft)", err, storage.ErrNotFound)
			_, err = tx.Drafts().Get(1, ids[3]+100)
			wantIs(t, "Get(unknown)", err, storage.ErrNotFound)
			list, err := tx.Drafts().ListForUser(1)
			if err != nil {
				return err
			}
			wantEqual(t, "ListForUser (timestamp, then id)", []drafts.Draft{want[1], want[3], want[0]}, list)
			list, err = tx.Drafts().ListForUser(3)
			if err != nil {
				return err
			}
			wantEqual(t, "ListForUser(no drafts)", 0, len(list))
			return nil
		})
	})

	t.Run("Update and Delete only touch the owner's draft", func(t *testing.T) {
		s := open(t)
		var ids []drafts.ID
		mustUpdate(t, s, func(tx storage.Tx) (err error) {
			ids, err = tx.Drafts().Create([]drafts.Draft{
				{UserID: 1, To: []int64{}, Content: "a", Timestamp: 1},
				{UserID: 1, To: []int64{}, Content: "b", Timestamp: 2},
				{UserID: 2, To: []int64{}, Content: "c", Timestamp: 3},
			})
			return err
		})
		changed := drafts.Draft{ID: ids[0], UserID: 1, Type: drafts.TypeStream, To: []int64{5}, Topic: "x", Content: "a2", Timestamp: 9}
		mustUpdate(t, s, func(tx storage.Tx) error { return tx.Drafts().Update(changed) })
		err := s.Update(t.Context(), func(tx storage.Tx) error {
			return tx.Drafts().Update(drafts.Draft{ID: ids[2], UserID: 1, Content: "stolen"})
		})
		wantIs(t, "Update(another user's draft)", err, storage.ErrNotFound)
		err = s.Update(t.Context(), func(tx storage.Tx) error { return tx.Drafts().Delete(1, ids[2]) })
		wantIs(t, "Delete(another user's draft)", err, storage.ErrNotFound)
		mustUpdate(t, s, func(tx storage.Tx) error { return tx.Drafts().Delete(1, ids[1]) })
		err = s.Update(t.Context(), func(tx storage.Tx) error { return tx.Drafts().Delete(1, ids[1]) })
		wantIs(t, "Delete twice", err, storage.ErrNotFound)
		mustView(t, s, func(tx storage.ReadTx) error {
			got, err := tx.Drafts().ListForUser(1)
			if err != nil {
				return err
			}
			wantEqual(t, "user 1 after update and delete", []drafts.Draft{changed}, got)
			got, err = tx.Drafts().ListForUser(2)
			if err != nil {
				return err
			}
			wantEqual(t, "user 2 untouched", []drafts.Draft{{ID: ids[2], UserID: 2, To: []int64{}, Content: "c", Timestamp: 3}}, got)
			return nil
		})
	})

	t.Run("DeleteForUser and the synchronisation flag", func(t *testing.T) {
		s := open(t)
		mustUpdate(t, s, func(tx storage.Tx) error {
			_, err := tx.Drafts().Create([]drafts.Draft{
				{UserID: 1, To: []int64{}, Content: "a"}, {UserID: 1, To: []int64{}, Content: "b"}, {UserID: 2, To: []int64{}, Content: "c"},
			})
			return err
		})
		mustView(t, s, func(tx storage.ReadTx) error {
			off, err := tx.Drafts().SyncDisabled(1)
			wantEqual(t, "SyncDisabled of a new user", false, off)
			return err
		})
		mustUpdate(t, s, func(tx storage.Tx) error {
			if err := tx.Drafts().DeleteForUser(1); err != nil {
				return err
			}
			if err := tx.Drafts().DeleteForUser(3); err != nil {
				return err
			}
			return tx.Drafts().SetSyncDisabled(1, true)
		})
		mustView(t, s, func(tx storage.ReadTx) error {
			mine, err := tx.Drafts().ListForUser(1)
			if err != nil {
				return err
			}
			other, err := tx.Drafts().ListForUser(2)
			if err != nil {
				return err
			}
			wantEqual(t, "drafts left (user 1, user 2)", []int{0, 1}, []int{len(mine), len(other)})
			off, err := tx.Drafts().SyncDisabled(1)
			wantEqual(t, "SyncDisabled after turning it off", true, off)
			return err
		})
		mustUpdate(t, s, func(tx storage.Tx) error { return tx.Drafts().SetSyncDisabled(1, false) })
		mustView(t, s, func(tx storage.ReadTx) error {
			off, err := tx.Drafts().SyncDisabled(1)
			wantEqual(t, "SyncDisabled after turning it back on", false, off)
			return err
		})
	})

	t.Run("a failed transaction leaves no draft", func(t *testing.T) {
		s := open(t)
		err := s.Update(t.Context(), func(tx storage.Tx) error {
			if _, err := tx.Drafts().Create([]drafts.Draft{{UserID: 1, To: []int64{}, Content: "a"}}); err != nil {
				return err
			}
			if err := tx.Drafts().SetSyncDisabled(1, true); err != nil {
				return err
			}
			return tx.Drafts().Delete(1, 12345)
		})
		wantIs(t, "Update", err, storage.ErrNotFound)
		mustView(t, s, func(tx storage.ReadTx) error {
			list, err := tx.Drafts().ListForUser(1)
			if err != nil {
				return err
			}
			off, err := tx.Drafts().SyncDisabled(1)
			wantEqual(t, "after rollback (drafts, sync disabled)", []any{0, false}, []any{len(list), off})
			return err
		})
	})
}

func testSavedSnippets(t *testing.T, open Opener) {
	t.Run("Create, Get, ListForUser, Update and Delete", func(t *testing.T) {
		s := open(t)
		var a, b, c drafts.SnippetID
		mustUpdate(t, s, func(tx storage.Tx) (err error) {
			if a, err = tx.SavedSnippets().Create(drafts.SavedSnippet{UserID: 1, Title: "A", Content: "aa", DateCreated: 10}); err != nil {
				return err
			}
			if b, err = tx.SavedSnippets().Create(drafts.SavedSnippet{UserID: 2, Title: "B", Content: "bb", DateCreated: 11}); err != nil {
				return err
			}
			c, err = tx.SavedSnippets().Create(drafts.SavedSnippet{UserID: 1, Title: "C", Content: "cc", DateCreated: 12})
			return err
		})
		if a == b || b == c || a == c {
			t.Fatalf("ids %d %d %d are not distinct", a, b, c)
		}
		mustUpdate(t, s, func(tx storage.Tx) error {
			return tx.SavedSnippets().Update(drafts.SavedSnippet{ID: a, UserID: 1, Title: "A2", Content: "aa2", DateCreated: 999})
		})
		err := s.Update(t.Context(), func(tx storage.Tx) error {
			return tx.SavedSnippets().Update(drafts.SavedSnippet{ID: b, UserID: 1, Title: "x", Content: "x"})
		})
		wantIs(t, "Update(another user's snippet)", err, storage.ErrNotFound)
		err = s.Update(t.Context(), func(tx storage.Tx) error { return tx.SavedSnippets().Delete(1, b) })
		wantIs(t, "Delete(another user's snippet)", err, storage.ErrNotFound)
		mustView(t, s, func(tx storage.ReadTx) error {
			got, err := tx.SavedSnippets().Get(1, a)
			if err != nil {
				return err
			}
			wantEqual(t, "Get after Update (date_created kept)", drafts.SavedSnippet{ID: a, UserID: 1, Title: "A2", Content: "aa2", DateCreated: 10}, got)
			_, err = tx.SavedSnippets().Get(1, b)
			wantIs(t, "Get(another user's snippet)", err, storage.ErrNotFound)
			list, err := tx.SavedSnippets().ListForUser(1)
			if err != nil {
				return err
			}
			wantEqual(t, "ListForUser", []drafts.SavedSnippet{got, {ID: c, UserID: 1, Title: "C", Content: "cc", DateCreated: 12}}, list)
			return nil
		})
		mustUpdate(t, s, func(tx storage.Tx) error { return tx.SavedSnippets().Delete(1, a) })
		err = s.Update(t.Context(), func(tx storage.Tx) error { return tx.SavedSnippets().Delete(1, a) })
		wantIs(t, "Delete twice", err, storage.ErrNotFound)
		mustView(t, s, func(tx storage.ReadTx) error {
			list, err := tx.SavedSnippets().ListForUser(1)
			if err != nil {
				return err
			}
			wantEqual(t, "left after Delete", 1, len(list))
			return nil
		})
	})
}

func testNavigationViews(t *testing.T, open Opener) {
	name := func(s string) *string { return &s }
	t.Run("Create, Get, ListForUser in insertion order", func(t *testing.T) {
		s := open(t)
		views := []drafts.NavigationView{
			{UserID: 1, Fragment: "narrow/is/alerted", IsPinned: true, Name: name("Alerts")},
			{UserID: 1, Fragment: "inbox", IsPinned: false},
			{UserID: 2, Fragment: "inbox", IsPinned: true},
			{UserID: 1, Fragment: "feed", IsPinned: true},
		}
		mustUpdate(t, s, func(tx storage.Tx) error {
			for _, v := range views {
				if err := tx.NavigationViews().Create(v); err != nil {
					return err
				}
			}
			return nil
		})
		mustView(t, s, func(tx storage.ReadTx) error {
			got, err := tx.NavigationViews().Get(1, "narrow/is/alerted")
			if err != nil {
				return err
			}
			wantEqual(t, "Get", views[0], got)
			_, err = tx.NavigationViews().Get(3, "inbox")
			wantIs(t, "Get(another user)", err, storage.ErrNotFound)
			list, err := tx.NavigationViews().ListForUser(1)
			if err != nil {
				return err
			}
			wantEqual(t, "ListForUser", []drafts.NavigationView{views[0], views[1], views[3]}, list)
			return nil
		})
	})

	t.Run("fragments and names are unique per user", func(t *testing.T) {
		s := open(t)
		mustUpdate(t, s, func(tx storage.Tx) error {
			if err := tx.NavigationViews().Create(drafts.NavigationView{UserID: 1, Fragment: "narrow/a", Name: name("A")}); err != nil {
				return err
			}
			if err := tx.NavigationViews().Create(drafts.NavigationView{UserID: 1, Fragment: "narrow/b", Name: name("B")}); err != nil {
				return err
			}
			// Another user may use the same fragment and name.
			return tx.NavigationViews().Create(drafts.NavigationView{UserID: 2, Fragment: "narrow/a", Name: name("A")})
		})
		for what, fn := range map[string]func(storage.Tx) error{
			"Create with a taken fragment": func(tx storage.Tx) error {
				return tx.NavigationViews().Create(drafts.NavigationView{UserID: 1, Fragment: "narrow/a", Name: name("Z")})
			},
			"Create with a taken name": func(tx storage.Tx) error {
				return tx.NavigationViews().Create(drafts.NavigationView{UserID: 1, Fragment: "narrow/c", Name: name("A")})
			},
			"Update onto a taken name": func(tx storage.Tx) error {
				return tx.NavigationViews().Update(drafts.NavigationView{UserID: 1, Fragment: "narrow/b", Name: name("A")})
			},
		} {
			wantIs(t, what, s.Update(t.Context(), fn), storage.ErrConflict)
		}
		err := s.Update(t.Context(), func(tx storage.Tx) error {
			return tx.NavigationViews().Update(drafts.NavigationView{UserID: 1, Fragment: "narrow/zzz", IsPinned: true})
		})
		wantIs(t, "Update(unknown)", err, storage.ErrNotFound)
		mustUpdate(t, s, func(tx storage.Tx) error {
			return tx.NavigationViews().Update(drafts.NavigationView{UserID: 1, Fragment: "narrow/b", IsPinned: true, Name: name("B2")})
		})
		mustUpdate(t, s, func(tx storage.Tx) error { return tx.NavigationViews().Delete(1, "narrow/a") })
		err = s.Update(t.Context(), func(tx storage.Tx) error { return tx.NavigationViews().Delete(1, "narrow/a") })
		wantIs(t, "Delete twice", err, storage.ErrNotFound)
		mustView(t, s, func(tx storage.ReadTx) error {
			list, err := tx.NavigationViews().ListForUser(1)
			if err != nil {
				return err
			}
			wantEqual(t, "user 1's views", []drafts.NavigationView{{UserID: 1, Fragment: "narrow/b", IsPinned: true, Name: name("B2")}}, list)
			list, err = tx.NavigationViews().ListForUser(2)
			if err != nil {
				return err
			}
			wantEqual(t, "user 2's views", []drafts.NavigationView{{UserID: 2, Fragment: "narrow/a", Name: name("A")}}, list)
			return nil
		})
	})
}
