package storagetest

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

func testMessageEdits(t *testing.T, open Opener) {
	t.Run("Update round-trips the edit history, newest first", func(t *testing.T) {
		s := open(t)
		w := seedMessageWorld(t, s)
		m := mustCreateMessage(t, s, messages.Message{SenderID: w.u[0], ChannelID: w.c1, Topic: "a", Content: "x", Timestamp: 10}, nil)
		old, topic := "x", "a"
		m.Content, m.LastEditTimestamp = "y", 20
		m.EditHistory = []messages.EditHistoryEntry{
			{UserID: w.u[0], Timestamp: 20, PrevContent: &old, PrevRenderedContent: &old},
			{UserID: w.u[1], Timestamp: 15, PrevTopic: &topic, Topic: &topic},
		}
		mustUpdate(t, s, func(tx storage.Tx) error { return tx.Messages().Update(m) })
		mustView(t, s, func(tx storage.ReadTx) error {
			got, err := tx.Messages().Get(m.ID)
			wantEqual(t, "message", m, got, cmpopts.EquateEmpty())
			return err
		})
	})

	t.Run("Move changes channel, topic and history of the given messages only", func(t *testing.T) {
		s := open(t)
		w := seedMessageWorld(t, s)
		a := mustCreateMessage(t, s, messages.Message{SenderID: w.u[0], ChannelID: w.c1, Topic: "Old", Content: "a", Timestamp: 10}, nil)
		b := mustCreateMessage(t, s, messages.Message{SenderID: w.u[0], ChannelID: w.c1, Topic: "Old", Content: "b", Timestamp: 11, LastMovedTimestamp: 5}, nil)
		c := mustCreateMessage(t, s, messages.Message{SenderID: w.u[0], ChannelID: w.c1, Topic: "Old", Content: "c", Timestamp: 12}, nil)
		prevTopic, topic, prevStream, stream := "Old", "New", w.c1, w.c2
		first := messages.EditHistoryEntry{UserID: w.u[1], Timestamp: 30, PrevTopic: &prevTopic, Topic: &topic}
		second := messages.EditHistoryEntry{UserID: w.u[2], Timestamp: 40, PrevStream: &prevStream, Stream: &stream}
		mustUpdate(t, s, func(tx storage.Tx) error {
			if err := tx.Messages().Move([]messages.ID{a.ID, b.ID, 9999}, w.c1, "New", first, 30); err != nil {
				return err
			}
			return tx.Messages().Move([]messages.ID{b.ID}, w.c2, "New", second, 0)
		})
		a.Topic, a.LastMovedTimestamp, a.EditHistory = "New", 30, []messages.EditHistoryEntry{first}
		b.Topic, b.ChannelID, b.LastMovedTimestamp, b.EditHistory = "New", w.c2, 30, []messages.EditHistoryEntry{second, first}
		mustView(t, s, func(tx storage.ReadTx) error {
			got, err := tx.Messages().GetMany([]messages.ID{a.ID, b.ID, c.ID})
			wantEqual(t, "messages", []messages.Message{a, b, c}, got, cmpopts.EquateEmpty())
			if err != nil {
				return err
			}
			ids, err := tx.Messages().TopicMessageIDs(w.c1, "new", 0)
			wantEqual(t, "topic index follows the move", []messages.ID{a.ID}, ids, cmpopts.EquateEmpty())
			return err
		})
	})

	t.Run("DeleteRows removes the given users' rows of the given messages", func(t *testing.T) {
		s := open(t)
		w := seedMessageWorld(t, s)
		all := map[users.ID]messages.Flags{w.u[0]: messages.FlagRead, w.u[1]: 0, w.u[2]: messages.FlagStarred}
		a := mustCreateMessage(t, s, messages.Message{SenderID: w.u[0], ChannelID: w.c1, Topic: "t", Content: "a"}, all)
		b := mustCreateMessage(t, s, messages.Message{SenderID: w.u[0], ChannelID: w.c1, Topic: "t", Content: "b"}, all)
		mustUpdate(t, s, func(tx storage.Tx) error {
			if err := tx.Messages().DeleteRows(nil, []messages.ID{a.ID}); err != nil {
				return err
			}
			return tx.Messages().DeleteRows([]users.ID{w.u[1], w.u[2], 9999}, []messages.ID{a.ID, 9999})
		})
		mustView(t, s, func(tx storage.ReadTx) error {
			rows, err := tx.Messages().Rows([]messages.ID{a.ID, b.ID})
			wantEqual(t, "rows", []messages.UserMessage{
				{UserID: w.u[0], MessageID: a.ID, Flags: messages.FlagRead},
				{UserID: w.u[0], MessageID: b.ID, Flags: messages.FlagRead}, {UserID: w.u[1], MessageID: b.ID},
				{UserID: w.u[2], MessageID: b.ID, Flags: messages.FlagStarred},
			}, rows)
			return err
		})
	})

	t.Run("a failed Move changes nothing", func(t *testing.T) {
		s := open(t)
		w := seedMessageWorld(t, s)
		a := mustCreateMessage(t, s, messages.Message{SenderID: w.u[0], ChannelID: w.c1, Topic: "Old", Content: "a"}, nil)
		topic, errRollback := "New", errors.New("rollback")
		err := s.Update(t.Context(), func(tx storage.Tx) error {
			if err := tx.Messages().Move([]messages.ID{a.ID}, w.c2, topic, messages.EditHistoryEntry{UserID: w.u[0], Topic: &topic}, 1); err != nil {
				return err
			}
			return errRollback
		})
		wantIs(t, "Update", err, errRollback)
		mustView(t, s, func(tx storage.ReadTx) error {
			got, err := tx.Messages().Get(a.ID)
			wantEqual(t, "message", a, got, cmpopts.EquateEmpty())
			return err
		})
	})
}
