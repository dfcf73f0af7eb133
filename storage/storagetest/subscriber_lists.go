package storagetest

import (
	"testing"

	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// testSubscriberLists pins storage.ActiveSubscribers (through a backend's
// SubscriberListReader when it has one, which may keep the lists between transactions): the
// user ids of ListForChannels' active rows and those rows with settings that are not the
// defaults, per channel in the order asked, after writes (of settings too), in the writing
// transaction and after a rollback.
func testSubscriberLists(t *testing.T, open Opener) {
	s := open(t)
	yes := true
	put := func(tx storage.Tx, rows ...channels.Subscription) error { return tx.Subscriptions().Put(rows) }
	same := func(what string, r storage.SubscriptionReader, ids []channels.ID) {
		t.Helper()
		for range 2 { // the second read may be the kept lists
			got, err := storage.ActiveSubscribers(r, ids)
			if err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			rows, err := r.ListForChannels(ids, true)
			if err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			want := make([]storage.SubscriberList, len(ids))
			for i, c := range ids {
				for _, row := range rows {
					if row.ChannelID != c {
						continue
					}
					want[i].IDs = append(want[i].IDs, row.UserID)
					if row.IsMuted || row.EmailNotifications != nil || row.PushNotifications != nil {
						want[i].Customized = append(want[i].Customized, row)
					}
				}
			}
			wantEqual(t, what, want, got, cmpopts.EquateEmpty())
			for i, l := range got {
				if cap(l.IDs) != len(l.IDs) || cap(l.Customized) != len(l.Customized) {
					t.Errorf("%s: list %d has capacity beyond its length", what, i)
				}
			}
		}
	}
	view := func(what string, ids ...channels.ID) {
		t.Helper()
		mustView(t, s, func(tx storage.ReadTx) error { same(what, tx.Subscriptions(), ids); return nil })
	}
	view("empty", 1, 2)
	mustUpdate(t, s, func(tx storage.Tx) error {
		return put(tx, channels.Subscription{UserID: 3, ChannelID: 1, Active: true, IsMuted: true},
			channels.Subscription{UserID: 1, ChannelID: 1, Active: true, EmailNotifications: &yes},
			channels.Subscription{UserID: 2, ChannelID: 1, Active: false},
			channels.Subscription{UserID: 2, ChannelID: 2, Active: true})
	})
	view("after Put", 2, 1, 7, 2)
	view("one channel", 1)
	mustUpdate(t, s, func(tx storage.Tx) error {
		return put(tx, channels.Subscription{UserID: 3, ChannelID: 1, Active: true},
			channels.Subscription{UserID: 2, ChannelID: 2, Active: true, PushNotifications: &yes})
	})
	view("after settings changed", 1, 2)
	mustUpdate(t, s, func(tx storage.Tx) error {
		same("before a write in the transaction", tx.Subscriptions(), []channels.ID{1, 2})
		if err := put(tx, channels.Subscription{UserID: 2, ChannelID: 1, Active: true}, channels.Subscription{UserID: 3, ChannelID: 1, Active: false}); err != nil {
			return err
		}
		same("after a write in the transaction", tx.Subscriptions(), []channels.ID{1, 2})
		return nil
	})
	view("after a second Put", 1, 2)
	err := s.Update(t.Context(), func(tx storage.Tx) error {
		if err := put(tx, channels.Subscription{UserID: 4, ChannelID: 2, Active: true}, channels.Subscription{UserID: 1, ChannelID: 1, Active: false}); err != nil {
			return err
		}
		same("in a transaction rolled back", tx.Subscriptions(), []channels.ID{1, 2})
		return errRollback
	})
	wantIs(t, "Update", err, errRollback)
	view("after the rollback", 1, 2)
	mustView(t, s, func(tx storage.ReadTx) error {
		got, err := storage.ActiveSubscribers(tx.Subscriptions(), []channels.ID{1, 2})
		if err != nil {
			return err
		}
		want := []storage.SubscriberList{
			{IDs: []users.ID{1, 2}, Customized: []channels.Subscription{{UserID: 1, ChannelID: 1, Active: true, EmailNotifications: &yes}}},
			{IDs: []users.ID{2}, Customized: []channels.Subscription{{UserID: 2, ChannelID: 2, Active: true, PushNotifications: &yes}}},
		}
		wantEqual(t, "lists after the rollback", want, got)
		return nil
	})
}
