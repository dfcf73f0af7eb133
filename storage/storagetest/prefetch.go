package storagetest

import (
	"testing"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// testPrefetch: a read announced with storage.PrefetchSend returns what the read itself
// returns, also when the transaction changed the subscriptions after the announcement, and a
// different read of the same channel is not answered with it.
func testPrefetch(t *testing.T, open Opener) {
	rows := []channels.Subscription{
		{UserID: 1, ChannelID: 5, Active: true, Color: "#a6c7e5"},
		{UserID: 2, ChannelID: 5, Active: false, Color: "#a6c7e5"},
		{UserID: 3, ChannelID: 5, Active: true, Color: "#76ce90"},
		{UserID: 3, ChannelID: 6, Active: true, Color: "#76ce90"},
	}
	added := channels.Subscription{UserID: 4, ChannelID: 5, Active: true, Color: "#fae589"}
	for _, c := range []struct {
		name string
		// between runs after the transaction's first read, before the announced one.
		between    func(tx storage.Tx) error
		activeOnly bool
		want       []channels.Subscription
	}{
		{"the announced read", nil, true, []channels.Subscription{rows[0], rows[2]}},
		{"after a write to the subscriptions", func(tx storage.Tx) error {
			return tx.Subscriptions().Put([]channels.Subscription{added})
		}, true, []channels.Subscription{rows[0], rows[2], added}},
		{"after another read", func(tx storage.Tx) error {
			_, err := tx.Subscriptions().ListForUsers([]users.ID{3})
			return err
		}, true, []channels.Subscription{rows[0], rows[2]}},
		{"a read of inactive rows too", nil, false, []channels.Subscription{rows[0], rows[1], rows[2]}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := open(t)
			mustUpdate(t, s, func(tx storage.Tx) error { return tx.Subscriptions().Put(rows) })
			mustUpdate(t, s, func(tx storage.Tx) error {
				storage.PrefetchSend(tx, 5)
				// The first read (sqlstore: the check of its kept lists, which the announced
				// read goes with).
				if _, err := tx.Users().List(); err != nil {
					return err
				}
				if c.between != nil {
					if err := c.between(tx); err != nil {
						return err
					}
				}
				got, err := tx.Subscriptions().ListForChannels([]channels.ID{5}, c.activeOnly)
				if err != nil {
					return err
				}
				wantEqual(t, "ListForChannels", c.want, got)
				// Asked again, the store reads again.
				again, err := tx.Subscriptions().ListForChannels([]channels.ID{5}, c.activeOnly)
				if err != nil {
					return err
				}
				wantEqual(t, "ListForChannels, again", c.want, again)
				return nil
			})
		})
	}
}

// testPrefetchMessage: a message announced with storage.PrefetchSend gets the channel's bounds
// from before it, as CreateInChannel gives them without the announcement, also for a second
// message in the same transaction, and both are stored with their rows.
func testPrefetchMessage(t *testing.T, open Opener) {
	s := open(t)
	w := seedMessageWorld(t, s)
	first := mustCreateMessage(t, s, messages.Message{SenderID: w.u[0], ChannelID: w.c1, Topic: "t", Content: "a", Timestamp: 50},
		map[users.ID]messages.Flags{w.u[0]: 0}).ID
	var ids []messages.ID
	var got []storage.ChannelActivity
	mustUpdate(t, s, func(tx storage.Tx) error {
		ids, got = nil, nil
		storage.PrefetchSend(tx, w.c1)
		if _, err := tx.Users().List(); err != nil {
			return err
		}
		for _, ts := range []int64{100, 200} {
			m := messages.Message{SenderID: w.u[0], ChannelID: w.c1, Topic: "t", Content: "x", Timestamp: ts}
			id, before, err := storage.CreateInChannel(tx.Messages(), m, []messages.UserMessage{{UserID: w.u[1], Flags: messages.FlagRead}})
			if err != nil {
				return err
			}
			ids, got = append(ids, id), append(got, before)
		}
		return nil
	})
	wantEqual(t, "bounds before each message", []storage.ChannelActivity{
		{ChannelID: w.c1, FirstMessageID: first, LastTimestamp: 50},
		{ChannelID: w.c1, FirstMessageID: first, LastTimestamp: 100},
	}, got)
	if ids[0] <= first || ids[1] <= ids[0] {
		t.Errorf("ids %d then %v, want ascending", first, ids)
	}
	mustView(t, s, func(tx storage.ReadTx) error {
		stored, err := tx.Messages().GetMany(ids)
		if err != nil {
			return err
		}
		wantEqual(t, "messages stored", 2, len(stored))
		rows, err := tx.Messages().UserRows(w.u[1], ids)
		if err != nil {
			return err
		}
		wantEqual(t, "rows stored", 2, len(rows))
		return nil
	})
}
