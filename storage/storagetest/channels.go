package storagetest

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// fullChannel is a channel with every field set, to pin round trips.
func fullChannel(name string) channels.Channel {
	days := 30
	return channels.Channel{
		Name: name, Description: "About **it**", DateCreated: 1700000000, CreatorID: 7,
		InviteOnly: true, IsWebPublic: false, HistoryPublicToSubscribers: true,
		MessageRetentionDays: &days, TopicsPolicy: channels.TopicsDisableEmpty, FolderID: 3,
		IsArchived: false, IsDefault: true, DefaultPushNotifications: true,
		CanAddSubscribersGroup:            users.Named(2),
		CanAdministerChannelGroup:         users.GroupSetting{Members: []users.ID{7, 9}, Subgroups: []users.GroupID{4}},
		CanCreateTopicGroup:               users.Named(5),
		CanDeleteAnyMessageGroup:          users.Named(1),
		CanDeleteOwnMessageGroup:          users.GroupSetting{Members: []users.ID{}, Subgroups: []users.GroupID{}},
		CanMoveMessagesOutOfChannelGroup:  users.Named(1),
		CanMoveMessagesWithinChannelGroup: users.Named(1),
		CanRemoveSubscribersGroup:         users.Named(3),
		CanResolveTopicsGroup:             users.Named(1),
		CanSendMessageGroup:               users.Named(6),
		CanSubscribeGroup:                 users.Named(1),
	}
}

func testChannels(t *testing.T, open Opener) {
	t.Run("Create, Get, GetByName and GetMany round-trip", func(t *testing.T) {
		s := open(t)
		want := fullChannel("Verona")
		var id channels.ID
		mustUpdate(t, s, func(tx storage.Tx) (err error) { id, err = tx.Channels().Create(want); return err })
		want.ID = id
		mustView(t, s, func(tx storage.ReadTx) error {
			got, err := tx.Channels().Get(id)
			if err != nil {
				return err
			}
			wantEqual(t, "Get", want, got, cmpopts.EquateEmpty())
			got, err = tx.Channels().GetByName("  vERONA ")
			if err != nil {
				return err
			}
			wantEqual(t, "GetByName (case-insensitive)", want, got, cmpopts.EquateEmpty())
			many, err := tx.Channels().GetMany([]channels.ID{id + 50, id})
			if err != nil {
				return err
			}
			wantEqual(t, "GetMany", []channels.Channel{want}, many, cmpopts.EquateEmpty())
			_, err = tx.Channels().Get(id + 100)
			wantIs(t, "Get(unknown)", err, storage.ErrNotFound)
			_, err = tx.Channels().GetByName("Venice")
			wantIs(t, "GetByName(unknown)", err, storage.ErrNotFound)
			return nil
		})
	})

	t.Run("ListShared lists what List does, after writes and rollbacks", func(t *testing.T) {
		s := open(t)
		sameLists := func(what string) {
			t.Helper()
			mustView(t, s, func(tx storage.ReadTx) error {
				want, err := tx.Channels().List()
				if err != nil {
					return err
				}
				for range 2 { // the second read may be the kept list
					got, err := tx.Channels().ListShared()
					if err != nil {
						return err
					}
					wantEqual(t, what, want, got, cmpopts.EquateEmpty())
				}
				return nil
			})
		}
		sameLists("empty")
		var a channels.ID
		mustUpdate(t, s, func(tx storage.Tx) (err error) { a, err = tx.Channels().Create(fullChannel("a")); return err })
		sameLists("after Create")
		rename := func(tx storage.Tx, name string) (channels.Channel, error) {
			c, err := tx.Channels().Get(a)
			if err != nil {
				return c, err
			}
			c.Name, c.IsArchived = name, !c.IsArchived
			return c, tx.Channels().Update(c)
		}
		mustUpdate(t, s, func(tx storage.Tx) error { _, err := rename(tx, "b"); return err })
		sameLists("after Update")
		err := s.Update(t.Context(), func(tx storage.Tx) error {
			want, err := rename(tx, "c")
			if err != nil {
				return err
			}
			got, err := tx.Channels().ListShared()
			if err != nil {
				return err
			}
			wantEqual(t, "ListShared after a write in the same transaction", []channels.Channel{want}, got, cmpopts.EquateEmpty())
			return errRollback
		})
		wantIs(t, "Update", err, errRollback)
		sameLists("after a rolled-back Update")
		mustView(t, s, func(tx storage.ReadTx) error {
			got, err := tx.Channels().ListShared()
			if err != nil {
				return err
			}
			if len(got) != 1 || got[0].Name != "b" || !got[0].IsArchived {
				t.Errorf("ListShared after the rollback: %+v", got)
			}
			return nil
		})
	})

	t.Run("names are unique case-insensitively, also on rename", func(t *testing.T) {
		s := open(t)
		mustUpdate(t, s, func(tx storage.Tx) error {
			_, err := tx.Channels().Create(channels.Channel{Name: "Denmark"})
			return err
		})
		err := s.Update(t.Context(), func(tx storage.Tx) error {
			_, err := tx.Channels().Create(channels.Channel{Name: "denmark"})
			return err
		})
		wantIs(t, "Create duplicate", err, storage.ErrConflict)
		err = s.Update(t.Context(), func(tx storage.Tx) error {
			id, err := tx.Channels().Create(channels.Channel{Name: "Rome"})
			if err != nil {
				return err
			}
			return tx.Channels().Update(channels.Channel{ID: id, Name: "DENMARK"})
		})
		wantIs(t, "rename onto a taken name", err, storage.ErrConflict)
		mustView(t, s, func(tx storage.ReadTx) error {
			all, err := tx.Channels().List()
			if err != nil {
				return err
			}
			wantEqual(t, "channels after the refused transactions", 1, len(all))
			return nil
		})
	})

	t.Run("Update renames and replaces every field; List is ordered by id", func(t *testing.T) {
		s := open(t)
		var a, b channels.ID
		mustUpdate(t, s, func(tx storage.Tx) (err error) {
			if a, err = tx.Channels().Create(channels.Channel{Name: "a"}); err != nil {
				return err
			}
			b, err = tx.Channels().Create(channels.Channel{Name: "b"})
			return err
		})
		want := fullChannel("A2")
		want.ID = a
		want.IsArchived = true
		mustUpdate(t, s, func(tx storage.Tx) error { return tx.Channels().Update(want) })
		err := s.Update(t.Context(), func(tx storage.Tx) error { return tx.Channels().Update(channels.Channel{ID: 999, Name: "x"}) })
		wantIs(t, "Update(unknown)", err, storage.ErrNotFound)
		mustView(t, s, func(tx storage.ReadTx) error {
			all, err := tx.Channels().List()
			if err != nil {
				return err
			}
			wantEqual(t, "List", []channels.Channel{want, {ID: b, Name: "b"}}, all, cmpopts.EquateEmpty())
			_, err = tx.Channels().GetByName("a")
			wantIs(t, "old name", err, storage.ErrNotFound)
			return nil
		})
	})

	t.Run("records are values", func(t *testing.T) {
		s := open(t)
		c := fullChannel("x")
		var id channels.ID
		mustUpdate(t, s, func(tx storage.Tx) (err error) { id, err = tx.Channels().Create(c); return err })
		*c.MessageRetentionDays = 99
		c.CanAdministerChannelGroup.Members[0] = 99
		mustView(t, s, func(tx storage.ReadTx) error {
			got, err := tx.Channels().Get(id)
			if err != nil {
				return err
			}
			wantEqual(t, "retention", 30, *got.MessageRetentionDays)
			wantEqual(t, "administer members", []users.ID{7, 9}, got.CanAdministerChannelGroup.Members)
			got.CanAdministerChannelGroup.Members[0] = 42
			again, err := tx.Channels().Get(id)
			if err != nil {
				return err
			}
			wantEqual(t, "administer members after changing a read copy", []users.ID{7, 9}, again.CanAdministerChannelGroup.Members)
			return nil
		})
	})
}

func testSubscriptions(t *testing.T, open Opener) {
	yes, no := true, false
	t.Run("Put creates and replaces rows; Get and the lists read them", func(t *testing.T) {
		s := open(t)
		rows := []channels.Subscription{
			{UserID: 2, ChannelID: 10, Active: true, Color: "#76ce90"},
			{UserID: 1, ChannelID: 10, Active: true, Color: "#fae589", IsMuted: true, PinToTop: true,
				DesktopNotifications: &yes, AudibleNotifications: &no, PushNotifications: &yes, EmailNotifications: &no, WildcardMentionsNotify: &yes},
			{UserID: 1, ChannelID: 5, Active: false, Color: "#a6c7e5"},
			{UserID: 3, ChannelID: 5, Active: true, Color: "#a6c7e5"},
		}
		mustUpdate(t, s, func(tx storage.Tx) error { return tx.Subscriptions().Put(rows) })
		mustView(t, s, func(tx storage.ReadTx) error {
			got, err := tx.Subscriptions().Get(1, 10)
			if err != nil {
				return err
			}
			wantEqual(t, "Get", rows[1], got)
			_, err = tx.Subscriptions().Get(2, 5)
			wantIs(t, "Get(never subscribed)", err, storage.ErrNotFound)
			mine, err := tx.Subscriptions().ListForUsers([]users.ID{1})
			if err != nil {
				return err
			}
			wantEqual(t, "ListForUsers (by channel id, inactive included)", []channels.Subscription{rows[2], rows[1]}, mine)
			two, err := tx.Subscriptions().ListForUsers([]users.ID{3, 1, 3})
			if err != nil {
				return err
			}
			wantEqual(t, "ListForUsers (by user, then channel)", []channels.Subscription{rows[2], rows[1], rows[3]}, two)
			all, err := tx.Subscriptions().ListForChannels([]channels.ID{10, 5, 10, 77}, false)
			if err != nil {
				return err
			}
			wantEqual(t, "ListForChannels", []channels.Subscription{rows[2], rows[3], rows[1], rows[0]}, all)
			active, err := tx.Subscriptions().ListForChannels([]channels.ID{5, 10}, true)
			if err != nil {
				return err
			}
			wantEqual(t, "ListForChannels(activeOnly)", []channels.Subscription{rows[3], rows[1], rows[0]}, active)
			none, err := tx.Subscriptions().ListForUsers([]users.ID{42})
			if err != nil {
				return err
			}
			wantEqual(t, "ListForUsers(nobody)", 0, len(none))
			return nil
		})
		changed := rows[2]
		changed.Active, changed.Color = true, "#000"
		mustUpdate(t, s, func(tx storage.Tx) error { return tx.Subscriptions().Put([]channels.Subscription{changed}) })
		mustView(t, s, func(tx storage.ReadTx) error {
			got, err := tx.Subscriptions().Get(1, 5)
			if err != nil {
				return err
			}
			wantEqual(t, "replaced row", changed, got)
			return nil
		})
	})

	t.Run("a failed transaction leaves no rows", func(t *testing.T) {
		s := open(t)
		err := s.Update(t.Context(), func(tx storage.Tx) error {
			if err := tx.Subscriptions().Put([]channels.Subscription{{UserID: 1, ChannelID: 1, Active: true}}); err != nil {
				return err
			}
			return storage.ErrConflict
		})
		wantIs(t, "Update", err, storage.ErrConflict)
		mustView(t, s, func(tx storage.ReadTx) error {
			_, err := tx.Subscriptions().Get(1, 1)
			wantIs(t, "Get after rollback", err, storage.ErrNotFound)
			rows, err := tx.Subscriptions().ListForChannels([]channels.ID{1}, false)
			if err != nil {
				return err
			}
			wantEqual(t, "rows after rollback", 0, len(rows))
			return nil
		})
	})

	t.Run("many rows in one Put", func(t *testing.T) {
		s := open(t)
		var rows []channels.Subscription
		for u := users.ID(1); u <= 500; u++ {
			for c := channels.ID(1); c <= 4; c++ {
				rows = append(rows, channels.Subscription{UserID: u, ChannelID: c, Active: u%2 == 0, Color: "#abc"})
			}
		}
		mustUpdate(t, s, func(tx storage.Tx) error { return tx.Subscriptions().Put(rows) })
		mustView(t, s, func(tx storage.ReadTx) error {
			active, err := tx.Subscriptions().ListForChannels([]channels.ID{1, 2, 3, 4}, true)
			if err != nil {
				return err
			}
			wantEqual(t, "active rows", 1000, len(active))
			return nil
		})
	})
}

func testSubscriberCounts(t *testing.T, open Opener) {
	s := open(t)
	var u [4]users.ID
	var a, b channels.ID
	mustUpdate(t, s, func(tx storage.Tx) (err error) {
		for i := range u {
			if u[i], err = tx.Users().Create(newUser(i + 1)); err != nil {
				return err
			}
		}
		if a, err = tx.Channels().Create(channels.Channel{Name: "a"}); err != nil {
			return err
		}
		b, err = tx.Channels().Create(channels.Channel{Name: "b"})
		return err
	})
	counts := func(what string, want map[channels.ID]int) {
		t.Helper()
		mustView(t, s, func(tx storage.ReadTx) error {
			got, err := tx.Subscriptions().Counts()
			if err != nil {
				return err
			}
			wantEqual(t, what, want, got)
			for _, ids := range [][]channels.ID{nil, {a}, {b}, {b, a + b + 100, a}} {
				got, err := tx.Subscriptions().CountsOf(ids)
				if err != nil {
					return err
				}
				sub := map[channels.ID]int{}
				for _, id := range ids {
					if n, ok := want[id]; ok {
						sub[id] = n
					}
				}
				wantEqual(t, fmt.Sprintf("%s: CountsOf(%v)", what, ids), sub, got)
			}
			return nil
		})
	}
	setActive := func(tx storage.Tx, id users.ID, active bool) error {
		usr, err := tx.Users().Get(id)
		if err != nil {
			return err
		}
		usr.IsActive = active
		return tx.Users().Update(usr)
	}
	counts("no subscriptions", map[channels.ID]int{})
	mustUpdate(t, s, func(tx storage.Tx) error {
		return tx.Subscriptions().Put([]channels.Subscription{
			{UserID: u[0], ChannelID: a, Active: true}, {UserID: u[1], ChannelID: a, Active: true},
			{UserID: u[2], ChannelID: a, Active: false}, {UserID: u[0], ChannelID: b, Active: true},
			// A row written twice in one Put counts once, as its last version.
			{UserID: u[3], ChannelID: b, Active: false}, {UserID: u[3], ChannelID: b, Active: true},
		})
	})
	counts("active rows counted", map[channels.ID]int{a: 2, b: 2})
	mustUpdate(t, s, func(tx storage.Tx) error { return setActive(tx, u[0], false) })
	counts("a deactivated user's subscriptions do not count", map[channels.ID]int{a: 1, b: 1})
	mustUpdate(t, s, func(tx storage.Tx) error {
		// Rewriting rows of a deactivated user changes nothing; an inactive row stays out.
		return tx.Subscriptions().Put([]channels.Subscription{
			{UserID: u[0], ChannelID: a, Active: true, Color: "#000"}, {UserID: u[1], ChannelID: a, Active: false},
		})
	})
	counts("after unsubscribing", map[channels.ID]int{b: 1})
	mustUpdate(t, s, func(tx storage.Tx) error { return setActive(tx, u[0], true) })
	counts("a reactivated user counts again", map[channels.ID]int{a: 1, b: 2})
	err := s.Update(t.Context(), func(tx storage.Tx) error {
		if err := tx.Subscriptions().Put([]channels.Subscription{{UserID: u[2], ChannelID: a, Active: true}}); err != nil {
			return err
		}
		if err := setActive(tx, u[3], false); err != nil {
			return err
		}
		return storage.ErrConflict
	})
	wantIs(t, "failed Update", err, storage.ErrConflict)
	counts("a failed transaction leaves the counts", map[channels.ID]int{a: 1, b: 2})
}

func testChannelFolders(t *testing.T, open Opener) {
	t.Run("Create, Get, Update and List", func(t *testing.T) {
		s := open(t)
		a := channels.Folder{Name: "Frontend", Description: "UI *work*", Order: 0, DateCreated: 1700000000, CreatorID: 3}
		b := channels.Folder{Name: "frontend", Order: 1, IsArchived: true}
		mustUpdate(t, s, func(tx storage.Tx) (err error) {
			if a.ID, err = tx.ChannelFolders().Create(a); err != nil {
				return err
			}
			b.ID, err = tx.ChannelFolders().Create(b)
			return err
		})
		if a.ID == b.ID || a.ID == 0 {
			t.Fatalf("ids %d and %d", a.ID, b.ID)
		}
		a.Name, a.Order = "Web", 2
		mustUpdate(t, s, func(tx storage.Tx) error { return tx.ChannelFolders().Update(a) })
		err := s.Update(t.Context(), func(tx storage.Tx) error { return tx.ChannelFolders().Update(channels.Folder{ID: 999}) })
		wantIs(t, "Update(unknown)", err, storage.ErrNotFound)
		mustView(t, s, func(tx storage.ReadTx) error {
			got, err := tx.ChannelFolders().Get(a.ID)
			if err != nil {
				return err
			}
			wantEqual(t, "Get", a, got)
			_, err = tx.ChannelFolders().Get(999)
			wantIs(t, "Get(unknown)", err, storage.ErrNotFound)
			all, err := tx.ChannelFolders().List()
			if err != nil {
				return err
			}
			wantEqual(t, "List", []channels.Folder{a, b}, all)
			return nil
		})
	})

	t.Run("a failed transaction leaves no folder", func(t *testing.T) {
		s := open(t)
		err := s.Update(t.Context(), func(tx storage.Tx) error {
			if _, err := tx.ChannelFolders().Create(channels.Folder{Name: "x"}); err != nil {
				return err
			}
			return storage.ErrConflict
		})
		wantIs(t, "Update", err, storage.ErrConflict)
		mustView(t, s, func(tx storage.ReadTx) error {
			all, err := tx.ChannelFolders().List()
			if err != nil {
				return err
			}
			wantEqual(t, "folders after rollback", 0, len(all))
			return nil
		})
	})
}
