package storagetest

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/topics"
	"github.com/teamchat/chat/users"
)

// messageWorld is what the message cases start from: three users and two channels.
type messageWorld struct {
	u      [3]users.ID
	c1, c2 channels.ID
}

func seedMessageWorld(t *testing.T, s storage.Storage) messageWorld {
	t.Helper()
	var w messageWorld
	mustUpdate(t, s, func(tx storage.Tx) error {
		for i := range w.u {
			id, err := tx.Users().Create(newUser(900 + i))
			if err != nil {
				return err
			}
			w.u[i] = id
		}
		var err error
		if w.c1, err = tx.Channels().Create(fullChannel("Denmark")); err != nil {
			return err
		}
		w.c2, err = tx.Channels().Create(fullChannel("Verona"))
		return err
	})
	return w
}

// mustCreateMessage stores m with rows for the given users (flags per user) and returns it
// with its id.
func mustCreateMessage(t *testing.T, s storage.Storage, m messages.Message, rows map[users.ID]messages.Flags) messages.Message {
	t.Helper()
	var l []messages.UserMessage
	for u, f := range rows {
		l = append(l, messages.UserMessage{UserID: u, Flags: f})
	}
	mustUpdate(t, s, func(tx storage.Tx) (err error) { m.ID, err = tx.Messages().Create(m, l); return err })
	return m
}

func testMessages(t *testing.T, open Opener) {
	t.Run("Create, Get and GetMany round-trip with increasing ids", func(t *testing.T) {
		s := open(t)
		w := seedMessageWorld(t, s)
		a := mustCreateMessage(t, s, messages.Message{
			SenderID: w.u[0], ChannelID: w.c1, Topic: "Party", Content: "hi **there**", Rendered: "<p>hi</p>",
			Timestamp: 1700000000, Client: "website", LastEditTimestamp: 1700000100, LastMovedTimestamp: 1700000200,
		}, map[users.ID]messages.Flags{w.u[0]: messages.FlagRead, w.u[1]: 0})
		b := mustCreateMessage(t, s, messages.Message{
			SenderID: w.u[1], Recipients: []users.ID{w.u[0], w.u[1]}, Content: "dm", Rendered: "<p>dm</p>",
			Timestamp: 1700000001, Client: "ZulipPython",
		}, map[users.ID]messages.Flags{w.u[0]: 0, w.u[1]: messages.FlagRead})
		if b.ID <= a.ID {
			t.Fatalf("ids not increasing: %d then %d", a.ID, b.ID)
		}
		mustView(t, s, func(tx storage.ReadTx) error {
			got, err := tx.Messages().Get(a.ID)
			if err != nil {
				return err
			}
			wantEqual(t, "Get", a, got, cmpopts.EquateEmpty())
			many, err := tx.Messages().GetMany([]messages.ID{b.ID, a.ID + 1000, a.ID})
			if err != nil {
				return err
			}
			wantEqual(t, "GetMany", []messages.Message{a, b}, many, cmpopts.EquateEmpty())
			_, err = tx.Messages().Get(b.ID + 1000)
			wantIs(t, "Get(unknown)", err, storage.ErrNotFound)
			rows, err := tx.Messages().Rows([]messages.ID{b.ID, a.ID})
			if err != nil {
				return err
			}
			wantEqual(t, "Rows", []messages.UserMessage{
				{UserID: w.u[0], MessageID: a.ID, Flags: messages.FlagRead}, {UserID: w.u[1], MessageID: a.ID},
				{UserID: w.u[0], MessageID: b.ID}, {UserID: w.u[1], MessageID: b.ID, Flags: messages.FlagRead},
			}, rows)
			max, err := tx.Messages().MaxReceivedID(w.u[0])
			if err != nil {
				return err
			}
			wantEqual(t, "MaxReceivedID", b.ID, max)
			max, err = tx.Messages().MaxReceivedID(w.u[2])
			if err != nil {
				return err
			}
			wantEqual(t, "MaxReceivedID without rows", messages.ID(0), max)
			dms, err := tx.Messages().DirectWith(w.u[1])
			if err != nil {
				return err
			}
			wantEqual(t, "DirectWith", []messages.Message{b}, dms, cmpopts.EquateEmpty())
			sent, err := tx.Messages().SentBy(w.u[0])
			if err != nil {
				return err
			}
			wantEqual(t, "SentBy", []messages.Message{a}, sent, cmpopts.EquateEmpty())
			none, err := tx.Messages().SentBy(w.u[2])
			if err != nil {
				return err
			}
			wantEqual(t, "SentBy without messages", []messages.Message{}, none)
			return nil
		})
	})

	t.Run("Scan walks every message in ascending steps", func(t *testing.T) {
		s := open(t)
		w := seedMessageWorld(t, s)
		var all []messages.Message
		for i := range 5 {
			m := messages.Message{SenderID: w.u[i%2], ChannelID: w.c1, Topic: "walk", Content: "m", Rendered: "<p>m</p>", Timestamp: 1700000000 + int64(i), Client: "website"}
			if i == 3 {
				m.ChannelID, m.Topic, m.Recipients = 0, "", []users.ID{w.u[0], w.u[1]}
			}
			all = append(all, mustCreateMessage(t, s, m, map[users.ID]messages.Flags{w.u[0]: 0, w.u[1]: 0}))
		}
		mustView(t, s, func(tx storage.ReadTx) error {
			for _, tc := range []struct {
				name  string
				after messages.ID
				limit int
				want  []messages.Message
			}{
				{"from the start", 0, 2, all[:2]},
				{"after an id", all[1].ID, 2, all[2:4]},
				{"the last step is short", all[3].ID, 2, all[4:]},
				{"past the end", all[4].ID, 2, []messages.Message{}},
				{"limit 0", 0, 0, []messages.Message{}},
			} {
				got, err := tx.Messages().Scan(tc.after, tc.limit)
				if err != nil {
					return err
				}
				wantEqual(t, "Scan "+tc.name, tc.want, got, cmpopts.EquateEmpty())
			}
			return nil
		})
	})

	t.Run("Update replaces a message; unknown id is not found", func(t *testing.T) {
		s := open(t)
		w := seedMessageWorld(t, s)
		m := mustCreateMessage(t, s, messages.Message{SenderID: w.u[0], ChannelID: w.c1, Topic: "a", Content: "x"}, nil)
		m.Topic, m.ChannelID, m.Content, m.LastEditTimestamp = "b", w.c2, "y", 5
		mustUpdate(t, s, func(tx storage.Tx) error { return tx.Messages().Update(m) })
		mustView(t, s, func(tx storage.ReadTx) error {
			got, err := tx.Messages().Get(m.ID)
			wantEqual(t, "after Update", m, got, cmpopts.EquateEmpty())
			return err
		})
		err := s.Update(t.Context(), func(tx storage.Tx) error {
			return tx.Messages().Update(messages.Message{ID: m.ID + 10, Content: "z"})
		})
		wantIs(t, "Update(unknown)", err, storage.ErrNotFound)
	})

	t.Run("Query selects received messages and channel history, bounded and limited", func(t *testing.T) {
		s := open(t)
		w := seedMessageWorld(t, s)
		var ids []messages.ID
		for i := range 6 {
			c := w.c1
			rows := map[users.ID]messages.Flags{w.u[0]: 0}
			if i%2 == 1 {
				c = w.c2
				rows = map[users.ID]messages.Flags{w.u[1]: messages.FlagStarred}
			}
			ids = append(ids, mustCreateMessage(t, s, messages.Message{SenderID: w.u[0], ChannelID: c, Topic: "t", Content: "m"}, rows).ID)
		}
		dm := mustCreateMessage(t, s, messages.Message{SenderID: w.u[2], Recipients: []users.ID{w.u[1], w.u[2]}, Content: "secret"},
			map[users.ID]messages.Flags{w.u[1]: 0, w.u[2]: messages.FlagRead})
		query := func(q storage.MessageQuery) []messages.ID {
			t.Helper()
			var out []messages.ID
			mustView(t, s, func(tx storage.ReadTx) error {
				got, err := tx.Messages().Query(q)
				for _, m := range got {
					out = append(out, m.Message.ID)
				}
				return err
			})
			return out
		}
		wantEqual(t, "received only", []messages.ID{ids[1], ids[3], ids[5], dm.ID},
			query(storage.MessageQuery{User: w.u[1], Limit: 100}))
		wantEqual(t, "received plus the history of c1", []messages.ID{ids[0], ids[1], ids[2], ids[3], ids[4], ids[5], dm.ID},
			query(storage.MessageQuery{User: w.u[1], HistoryChannels: []channels.ID{w.c1}, Limit: 100}))
		wantEqual(t, "direct messages are never history", []messages.ID(nil),
			query(storage.MessageQuery{User: w.u[0], HistoryChannels: []channels.ID{w.c1, w.c2}, MinID: dm.ID, Limit: 100}))
		wantEqual(t, "lowest ids within bounds", []messages.ID{ids[1], ids[2]},
			query(storage.MessageQuery{User: w.u[1], HistoryChannels: []channels.ID{w.c1}, MinID: ids[1], MaxID: ids[4], Limit: 2}))
		wantEqual(t, "highest ids within bounds, ascending", []messages.ID{ids[3], ids[4]},
			query(storage.MessageQuery{User: w.u[1], HistoryChannels: []channels.ID{w.c1}, MinID: ids[1], MaxID: ids[4], Limit: 2, Newest: true}))
		wantEqual(t, "terms narrow", []messages.ID{ids[1], ids[3], ids[5]},
			query(storage.MessageQuery{User: w.u[1], Limit: 100, Terms: []messages.Term{{Operator: messages.OpIs, Text: messages.IsStarred}}}))
		wantEqual(t, "negated terms", []messages.ID{dm.ID},
			query(storage.MessageQuery{User: w.u[1], Limit: 100, Terms: []messages.Term{{Operator: messages.OpIs, Text: messages.IsStarred, Negated: true}}}))
		wantEqual(t, "limit 0 returns nothing", []messages.ID(nil), query(storage.MessageQuery{User: w.u[1]}))
		mustView(t, s, func(tx storage.ReadTx) error {
			got, err := tx.Messages().Query(storage.MessageQuery{User: w.u[1], HistoryChannels: []channels.ID{w.c1}, MaxID: ids[1], Limit: 10})
			wantEqual(t, "flags and received", []storage.MessageMatch{
				{Message: messages.Message{ID: ids[0], SenderID: w.u[0], ChannelID: w.c1, Topic: "t", Content: "m"}},
				{Message: messages.Message{ID: ids[1], SenderID: w.u[0], ChannelID: w.c2, Topic: "t", Content: "m"}, Flags: messages.FlagStarred, Received: true},
			}, got, cmpopts.EquateEmpty())
			return err
		})
	})

	t.Run("flags: SetFlags changes only existing rows, UserRows and UserRowsWhere read them", func(t *testing.T) {
		s := open(t)
		w := seedMessageWorld(t, s)
		a := mustCreateMessage(t, s, messages.Message{SenderID: w.u[0], ChannelID: w.c1, Topic: "t", Content: "a"},
			map[users.ID]messages.Flags{w.u[0]: messages.FlagRead, w.u[1]: 0})
		b := mustCreateMessage(t, s, messages.Message{SenderID: w.u[0], ChannelID: w.c1, Topic: "t", Content: "b"},
			map[users.ID]messages.Flags{w.u[1]: messages.FlagStarred})
		var changed []messages.ID
		mustUpdate(t, s, func(tx storage.Tx) (err error) {
			changed, err = tx.Messages().SetFlags(w.u[1], []messages.ID{b.ID, a.ID, a.ID, b.ID + 100}, messages.FlagRead, messages.FlagStarred)
			return err
		})
		wantEqual(t, "changed", []messages.ID{a.ID, b.ID}, changed)
		mustUpdate(t, s, func(tx storage.Tx) (err error) {
			changed, err = tx.Messages().SetFlags(w.u[1], []messages.ID{a.ID}, messages.FlagRead, 0)
			return err
		})
		wantEqual(t, "unchanged", []messages.ID{}, changed, cmpopts.EquateEmpty())
		mustUpdate(t, s, func(tx storage.Tx) (err error) {
			changed, err = tx.Messages().SetFlags(w.u[2], []messages.ID{a.ID}, messages.FlagRead, 0)
			return err
		})
		wantEqual(t, "no row, no change", []messages.ID{}, changed, cmpopts.EquateEmpty())
		mustView(t, s, func(tx storage.ReadTx) error {
			rows, err := tx.Messages().UserRows(w.u[1], []messages.ID{b.ID, a.ID})
			if err != nil {
				return err
			}
			wantEqual(t, "UserRows", []messages.UserMessage{
				{UserID: w.u[1], MessageID: a.ID, Flags: messages.FlagRead}, {UserID: w.u[1], MessageID: b.ID, Flags: messages.FlagRead},
			}, rows)
			rows, err = tx.Messages().UserRowsWhere(w.u[0], messages.FlagRead, messages.FlagStarred)
			if err != nil {
				return err
			}
			wantEqual(t, "UserRowsWhere", []messages.UserMessage{{UserID: w.u[0], MessageID: a.ID, Flags: messages.FlagRead}}, rows)
			rows, err = tx.Messages().UserRowsWhere(w.u[1], 0, messages.FlagRead)
			wantEqual(t, "UserRowsWhere unread", []messages.UserMessage(nil), rows, cmpopts.EquateEmpty())
			return err
		})
		mustUpdate(t, s, func(tx storage.Tx) error {
			return tx.Messages().PutRows([]messages.UserMessage{{UserID: w.u[2], MessageID: b.ID, Flags: messages.FlagHistorical | messages.FlagStarred}})
		})
		mustView(t, s, func(tx storage.ReadTx) error {
			rows, err := tx.Messages().UserRows(w.u[2], []messages.ID{a.ID, b.ID})
			wantEqual(t, "PutRows", []messages.UserMessage{{UserID: w.u[2], MessageID: b.ID, Flags: messages.FlagHistorical | messages.FlagStarred}}, rows)
			if err != nil {
				return err
			}
			max, err := tx.Messages().MaxReceivedID(w.u[2])
			wantEqual(t, "MaxReceivedID ignores historical rows", messages.ID(0), max)
			return err
		})
	})

	t.Run("topics: TopicMessageIDs, Topics and Activity", func(t *testing.T) {
		s := open(t)
		w := seedMessageWorld(t, s)
		mk := func(c channels.ID, topic string, ts int64, rows map[users.ID]messages.Flags) messages.ID {
			return mustCreateMessage(t, s, messages.Message{SenderID: w.u[0], ChannelID: c, Topic: topic, Content: "x", Timestamp: ts}, rows).ID
		}
		a := mk(w.c1, "Party", 100, map[users.ID]messages.Flags{w.u[1]: 0})
		b := mk(w.c1, "lunch", 200, nil)
		c := mk(w.c1, "PARTY", 300, nil)
		d := mk(w.c2, "party", 400, nil)
		mustView(t, s, func(tx storage.ReadTx) error {
			ids, err := tx.Messages().TopicMessageIDs(w.c1, "party", 0)
			if err != nil {
				return err
			}
			wantEqual(t, "TopicMessageIDs", []messages.ID{c, a}, ids)
			ids, err = tx.Messages().TopicMessageIDs(w.c1, "party", 1)
			if err != nil {
				return err
			}
			wantEqual(t, "TopicMessageIDs limited", []messages.ID{c}, ids)
			ts, err := tx.Messages().Topics(w.c1, w.u[1], true)
			if err != nil {
				return err
			}
			wantEqual(t, "Topics", []storage.TopicSummary{{Name: "PARTY", MaxID: c}, {Name: "lunch", MaxID: b}}, ts)
			ts, err = tx.Messages().Topics(w.c1, w.u[1], false)
			if err != nil {
				return err
			}
			wantEqual(t, "Topics of received messages", []storage.TopicSummary{{Name: "Party", MaxID: a}}, ts)
			act, err := tx.Messages().Activity([]channels.ID{w.c2, w.c1, w.c2 + 10}, 200, 0)
			if err != nil {
				return err
			}
			wantEqual(t, "Activity", []storage.ChannelActivity{
				{ChannelID: w.c1, FirstMessageID: a, LastTimestamp: 300, RecentCount: 2},
				{ChannelID: w.c2, FirstMessageID: d, LastTimestamp: 400, RecentCount: 1},
				{ChannelID: w.c2 + 10},
			}, act)
			act, err = tx.Messages().Activity([]channels.ID{w.c1, w.c2}, 200, 300)
			wantEqual(t, "Activity in a window", []storage.ChannelActivity{
				{ChannelID: w.c1, FirstMessageID: a, LastTimestamp: 300, RecentCount: 1},
				{ChannelID: w.c2, FirstMessageID: d, LastTimestamp: 400},
			}, act)
			if err != nil {
				return err
			}
			act, err = tx.Messages().Bounds([]channels.ID{w.c2 + 10, w.c2, w.c1, w.c1})
			wantEqual(t, "Bounds", []storage.ChannelActivity{
				{ChannelID: w.c1, FirstMessageID: a, LastTimestamp: 300},
				{ChannelID: w.c2, FirstMessageID: d, LastTimestamp: 400},
				{ChannelID: w.c2 + 10},
			}, act)
			return err
		})
	})

	t.Run("CreateInChannel returns the channel's bounds from before the message", func(t *testing.T) {
		s := open(t)
		w := seedMessageWorld(t, s)
		var got []storage.ChannelActivity
		var ids []messages.ID
		for _, ts := range []int64{100, 200, 300} {
			mustUpdate(t, s, func(tx storage.Tx) error {
				// A message elsewhere first, which the channel's bounds must not see.
				if _, err := tx.Messages().Create(messages.Message{SenderID: w.u[0], ChannelID: w.c2, Topic: "t", Content: "y", Timestamp: ts + 50}, nil); err != nil {
					return err
				}
				m := messages.Message{SenderID: w.u[0], ChannelID: w.c1, Topic: "t", Content: "x", Timestamp: ts}
				id, before, err := storage.CreateInChannel(tx.Messages(), m, []messages.UserMessage{{UserID: w.u[1]}})
				if err != nil {
					return err
				}
				after, err := tx.Messages().Bounds([]channels.ID{w.c1})
				if err != nil {
					return err
				}
				wantEqual(t, "Bounds after CreateInChannel", []storage.ChannelActivity{{ChannelID: w.c1, FirstMessageID: ids0(ids, id), LastTimestamp: ts}}, after)
				got, ids = append(got, before), append(ids, id)
				return nil
			})
		}
		wantEqual(t, "bounds before each message", []storage.ChannelActivity{
			{ChannelID: w.c1},
			{ChannelID: w.c1, FirstMessageID: ids[0], LastTimestamp: 100},
			{ChannelID: w.c1, FirstMessageID: ids[0], LastTimestamp: 200},
		}, got)
		mustView(t, s, func(tx storage.ReadTx) error {
			rows, err := tx.Messages().GetMany(ids)
			if err != nil {
				return err
			}
			wantEqual(t, "messages stored", 3, len(rows))
			return nil
		})
	})

	t.Run("Delete removes messages and their rows; a failed transaction keeps them", func(t *testing.T) {
		s := open(t)
		w := seedMessageWorld(t, s)
		a := mustCreateMessage(t, s, messages.Message{SenderID: w.u[0], ChannelID: w.c1, Topic: "t", Content: "a"}, map[users.ID]messages.Flags{w.u[0]: 0})
		b := mustCreateMessage(t, s, messages.Message{SenderID: w.u[0], ChannelID: w.c1, Topic: "t", Content: "b"}, map[users.ID]messages.Flags{w.u[0]: 0})
		boom := errors.New("boom")
		err := s.Update(t.Context(), func(tx storage.Tx) error {
			if err := tx.Messages().Delete([]messages.ID{a.ID}); err != nil {
				return err
			}
			return boom
		})
		wantIs(t, "failed Update", err, boom)
		mustUpdate(t, s, func(tx storage.Tx) error { return tx.Messages().Delete([]messages.ID{b.ID, b.ID + 100}) })
		mustView(t, s, func(tx storage.ReadTx) error {
			many, err := tx.Messages().GetMany([]messages.ID{a.ID, b.ID})
			if err != nil {
				return err
			}
			wantEqual(t, "remaining", []messages.Message{a}, many, cmpopts.EquateEmpty())
			rows, err := tx.Messages().Rows([]messages.ID{a.ID, b.ID})
			wantEqual(t, "rows", []messages.UserMessage{{UserID: w.u[0], MessageID: a.ID}}, rows)
			return err
		})
		c := mustCreateMessage(t, s, messages.Message{SenderID: w.u[0], ChannelID: w.c1, Topic: "t", Content: "c"}, nil)
		if c.ID <= b.ID {
			t.Fatalf("id %d reused after deleting %d", c.ID, b.ID)
		}
	})
}

func testUserTopics(t *testing.T, open Opener) {
	t.Run("Put, List and Delete, keyed case-insensitively by topic", func(t *testing.T) {
		s := open(t)
		w := seedMessageWorld(t, s)
		rows := []topics.UserTopic{
			{UserID: w.u[0], ChannelID: w.c2, Topic: "Zeta", Policy: topics.PolicyFollowed, LastUpdated: 3},
			{UserID: w.u[0], ChannelID: w.c1, Topic: "party", Policy: topics.PolicyMuted, LastUpdated: 1},
			{UserID: w.u[1], ChannelID: w.c1, Topic: "Party", Policy: topics.PolicyUnmuted, LastUpdated: 2},
		}
		mustUpdate(t, s, func(tx storage.Tx) error {
			for _, r := range rows {
				if err := tx.UserTopics().Put(r); err != nil {
					return err
				}
			}
			return tx.UserTopics().Put(topics.UserTopic{UserID: w.u[0], ChannelID: w.c1, Topic: "PARTY", Policy: topics.PolicyFollowed, LastUpdated: 4})
		})
		mustView(t, s, func(tx storage.ReadTx) error {
			got, err := tx.UserTopics().ListForUser(w.u[0])
			if err != nil {
				return err
			}
			wantEqual(t, "ListForUser", []topics.UserTopic{
				{UserID: w.u[0], ChannelID: w.c1, Topic: "PARTY", Policy: topics.PolicyFollowed, LastUpdated: 4}, rows[0],
			}, got)
			got, err = tx.UserTopics().ListForTopic(w.c1, "pArTy")
			if err != nil {
				return err
			}
			wantEqual(t, "ListForTopic", []topics.UserTopic{
				{UserID: w.u[0], ChannelID: w.c1, Topic: "PARTY", Policy: topics.PolicyFollowed, LastUpdated: 4}, rows[2],
			}, got)
			return nil
		})
		mustUpdate(t, s, func(tx storage.Tx) error {
			if err := tx.UserTopics().Delete(w.u[0], w.c1, "Party"); err != nil {
				return err
			}
			return tx.UserTopics().Delete(w.u[2], w.c1, "none")
		})
		mustView(t, s, func(tx storage.ReadTx) error {
			got, err := tx.UserTopics().ListForUser(w.u[0])
			wantEqual(t, "after Delete", []topics.UserTopic{rows[0]}, got)
			return err
		})
	})
}

// ids0 is the first of ids, or id when there is none.
func ids0(ids []messages.ID, id messages.ID) messages.ID {
	if len(ids) > 0 {
		return ids[0]
	}
	return id
}
