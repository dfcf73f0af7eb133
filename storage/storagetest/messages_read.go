package storagetest

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

func testMarkRead(t *testing.T, open Opener) {
	type seeded struct {
		s    storage.Storage
		w    messageWorld
		ids  []messages.ID // c1 "Lunch", c1 "lunch", c1 "other", c2 "Lunch", direct, c1 "Lunch" (read)
		user users.ID
	}
	seed := func(t *testing.T) seeded {
		s := open(t)
		w := seedMessageWorld(t, s)
		u := w.u[1]
		var ids []messages.ID
		for i, m := range []messages.Message{
			{ChannelID: w.c1, Topic: "Lunch"}, {ChannelID: w.c1, Topic: "lunch"}, {ChannelID: w.c1, Topic: "other"},
			{ChannelID: w.c2, Topic: "Lunch"}, {Recipients: []users.ID{w.u[0], u}}, {ChannelID: w.c1, Topic: "Lunch"},
		} {
			m.SenderID, m.Content, m.Rendered = w.u[0], "x", "x"
			f := messages.Flags(0)
			if i == 5 {
				f = messages.FlagRead
			}
			ids = append(ids, mustCreateMessage(t, s, m, map[users.ID]messages.Flags{u: f, w.u[2]: 0}).ID)
		}
		return seeded{s: s, w: w, ids: ids, user: u}
	}
	markRead := func(t *testing.T, d seeded, q storage.MarkReadQuery) []messages.ID {
		t.Helper()
		var out []messages.ID
		q.User = d.user
		mustUpdate(t, d.s, func(tx storage.Tx) (err error) { out, err = tx.Messages().MarkRead(q); return err })
		return out
	}
	unread := func(t *testing.T, d seeded, u users.ID) []messages.ID {
		t.Helper()
		out := []messages.ID{}
		mustView(t, d.s, func(tx storage.ReadTx) error {
			rows, err := tx.Messages().UserRowsWhere(u, 0, messages.FlagRead)
			for _, r := range rows {
				out = append(out, r.MessageID)
			}
			return err
		})
		return out
	}
	t.Run("a topic's unread rows, compared case-insensitively, in one channel", func(t *testing.T) {
		d := seed(t)
		topic := "LUNCH"
		if diff := cmp.Diff([]messages.ID{d.ids[0], d.ids[1]}, markRead(t, d, storage.MarkReadQuery{ChannelID: d.w.c1, Topic: &topic})); diff != "" {
			t.Errorf("marked (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff([]messages.ID{d.ids[2], d.ids[3], d.ids[4]}, unread(t, d, d.user)); diff != "" {
			t.Errorf("still unread (-want +got):\n%s", diff)
		}
		if got := unread(t, d, d.w.u[2]); len(got) != 6 {
			t.Errorf("another user's rows changed: unread %v", got)
		}
	})
	t.Run("a channel's unread rows", func(t *testing.T) {
		d := seed(t)
		if diff := cmp.Diff([]messages.ID{d.ids[3]}, markRead(t, d, storage.MarkReadQuery{ChannelID: d.w.c2})); diff != "" {
			t.Errorf("marked (-want +got):\n%s", diff)
		}
	})
	t.Run("every unread row in batches, the oldest first", func(t *testing.T) {
		d := seed(t)
		first := markRead(t, d, storage.MarkReadQuery{Limit: 2})
		if diff := cmp.Diff(d.ids[:2], first); diff != "" {
			t.Errorf("first batch (-want +got):\n%s", diff)
		}
		rest := markRead(t, d, storage.MarkReadQuery{After: first[1], Limit: 5})
		if diff := cmp.Diff(d.ids[2:5], rest); diff != "" {
			t.Errorf("second batch (-want +got):\n%s", diff)
		}
		if got := markRead(t, d, storage.MarkReadQuery{}); len(got) != 0 {
			t.Errorf("nothing left to mark, yet marked %v", got)
		}
	})
}
