package storagetest

import (
	"testing"

	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

func testInvites(t *testing.T, open Opener) {
	text := func(s string) *string { return &s }
	t.Run("Create, Get, GetByKey, List, Revoke", func(t *testing.T) {
		s := open(t)
		a := users.Invite{Key: "abcdefghijklmnopqrstuvwx", InvitedBy: 3, InvitedAs: users.RoleModerator, ChannelIDs: []int64{4, 2},
			GroupIDs: []users.GroupID{9}, IncludeRealmDefaultSubscriptions: true, WelcomeMessageCustomText: text("Hi!"), Created: 1000, ExpiresAt: 2000}
		b := users.Invite{Key: "zyxwvutsrqponmlkjihgfedc", InvitedBy: 1, InvitedAs: users.RoleMember, ChannelIDs: []int64{}, GroupIDs: []users.GroupID{}, Created: 1500}
		var ida, idb users.InviteID
		mustUpdate(t, s, func(tx storage.Tx) (err error) {
			if ida, err = tx.Invites().Create(a); err != nil {
				return err
			}
			idb, err = tx.Invites().Create(b)
			return err
		})
		a.ID, b.ID = ida, idb
		mustView(t, s, func(tx storage.ReadTx) error {
			got, err := tx.Invites().Get(ida)
			if err != nil {
				return err
			}
			wantEqual(t, "Get", a, got)
			got, err = tx.Invites().GetByKey(b.Key)
			if err != nil {
				return err
			}
			wantEqual(t, "GetByKey", b, got)
			_, err = tx.Invites().GetByKey("aaaaaaaaaaaaaaaaaaaaaaaa")
			wantIs(t, "GetByKey(unknown)", err, storage.ErrNotFound)
			_, err = tx.Invites().Get(idb + 10)
			wantIs(t, "Get(unknown)", err, storage.ErrNotFound)
			list, err := tx.Invites().List()
			if err != nil {
				return err
			}
			wantEqual(t, "List", []users.Invite{a, b}, list)
			return nil
		})
		err := s.Update(t.Context(), func(tx storage.Tx) error {
			_, err := tx.Invites().Create(users.Invite{Key: a.Key, InvitedAs: users.RoleMember})
			return err
		})
		wantIs(t, "Create with a taken key", err, storage.ErrConflict)
		mustUpdate(t, s, func(tx storage.Tx) error { return tx.Invites().Revoke(ida) })
		err = s.Update(t.Context(), func(tx storage.Tx) error { return tx.Invites().Revoke(idb + 10) })
		wantIs(t, "Revoke(unknown)", err, storage.ErrNotFound)
		mustView(t, s, func(tx storage.ReadTx) error {
			got, err := tx.Invites().Get(ida)
			if err != nil {
				return err
			}
			a.Revoked = true
			wantEqual(t, "after Revoke", a, got)
			got, err = tx.Invites().Get(idb)
			wantEqual(t, "other invitation untouched", b, got)
			return err
		})
	})
	t.Run("Edit replaces what the invitation grants", func(t *testing.T) {
		s := open(t)
		a := users.Invite{Key: "abcdefghijklmnopqrstuvwx", InvitedBy: 3, InvitedAs: users.RoleMember, ChannelIDs: []int64{2},
			GroupIDs: []users.GroupID{}, Created: 1000, ExpiresAt: 2000}
		mustUpdate(t, s, func(tx storage.Tx) (err error) {
			a.ID, err = tx.Invites().Create(a)
			return err
		})
		edited := a
		edited.InvitedAs, edited.ChannelIDs, edited.GroupIDs = users.RoleModerator, []int64{5, 7}, []users.GroupID{9}
		edited.IncludeRealmDefaultSubscriptions, edited.WelcomeMessageCustomText = true, text("Welcome!")
		// Edit leaves the key, times and state alone.
		change := edited
		change.Key, change.Created, change.ExpiresAt, change.Revoked = "zzzzzzzzzzzzzzzzzzzzzzzz", 1, 1, true
		mustUpdate(t, s, func(tx storage.Tx) error { return tx.Invites().Edit(change) })
		mustView(t, s, func(tx storage.ReadTx) error {
			got, err := tx.Invites().Get(a.ID)
			wantEqual(t, "after Edit", edited, got)
			return err
		})
		mustUpdate(t, s, func(tx storage.Tx) error {
			back := a
			back.WelcomeMessageCustomText = nil
			return tx.Invites().Edit(back)
		})
		mustView(t, s, func(tx storage.ReadTx) error {
			got, err := tx.Invites().Get(a.ID)
			wantEqual(t, "after a second Edit", a, got)
			return err
		})
		err := s.Update(t.Context(), func(tx storage.Tx) error { return tx.Invites().Edit(users.Invite{ID: a.ID + 10}) })
		wantIs(t, "Edit(unknown)", err, storage.ErrNotFound)
	})
}
