package storagetest

import (
	"testing"

	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// testSubscriberIDs pins storage.ActiveSubscriberIDs (through a backend's SubscriberIDReader
// when it has one, which may keep the lists between transactions): the user ids of
// ListForChannels' active rows, per channel in the order asked, after writes, in the writing
// transaction and after a rollback.
func testSubscriberIDs(t *testing.T, open Opener) {
	s := open(t)
	put := func(tx storage.Tx, rows ...channels.Subscription) error { return tx.Subscriptions().Put(rows) }
	same := func(what string, r storage.SubscriptionReader, ids []channels.ID) {
		t.Helper()
		for range 2 { // the second read may be the kept lists
			got, err := storage.ActiveSubscriberIDs(r, ids)
			if err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			rows, err := r.ListForChannels(ids, true)
			if err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			want := make([][]users.ID, len(ids))
			for i, c := range ids {
				for _, row := range rows {
					if row.ChannelID == c {
						want[i] = append(want[i], row.UserID)
					}
				}
			}
			wantEqual(t, what, want, got, cmpopts.EquateEmpty())
			for i, l := range got {
				if cap(l) != len(l) {
					t.Errorf("%s: list %d has capacity %d beyond its length %d", what, i, cap(l), len(l))
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
		return put(tx, channels.Subscription{UserID: 3, ChannelID: 1, Active: true},
			channels.Subscription{UserID: 1, ChannelID: 1, Active: true},
			channels.Subscription{UserID: 2, ChannelID: 1, Active: false},
			channels.Subscription{UserID: 2, ChannelID: 2, Active: true})
	})
	view("after Put", 2, 1, 7, 2)
	view("one channel", 1)
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
		got, err := storage.ActiveSubscriberIDs(tx.Subscriptions(), []channels.ID{1, 2})
		if err != nil {
			return err
		}
		wantEqual(t, "lists after the rollback", [][]users.ID{{1, 2}, {2}}, got)
		return nil
	})
}
