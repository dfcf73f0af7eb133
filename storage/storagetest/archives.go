package storagetest

import (
	"testing"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/uploads"
	"github.com/teamchat/chat/users"
)

func testArchives(t *testing.T, open Opener) {
	s := open(t)
	w := seedMessageWorld(t, s)
	old1 := mustCreateMessage(t, s, messages.Message{SenderID: w.u[0], ChannelID: w.c1, Topic: "t", Content: "old walrus", Rendered: "<p>old walrus</p>", Timestamp: 100},
		map[users.ID]messages.Flags{w.u[0]: messages.FlagRead, w.u[1]: 0})
	oldDM := mustCreateMessage(t, s, messages.Message{SenderID: w.u[0], Recipients: []users.ID{w.u[0], w.u[1]}, Content: "old dm", Timestamp: 100},
		map[users.ID]messages.Flags{w.u[0]: messages.FlagRead, w.u[1]: 0})
	old2 := mustCreateMessage(t, s, messages.Message{SenderID: w.u[0], ChannelID: w.c2, Topic: "t", Content: "old other", Timestamp: 100}, nil)
	fresh := mustCreateMessage(t, s, messages.Message{SenderID: w.u[0], ChannelID: w.c1, Topic: "t", Content: "new", Timestamp: 500}, nil)

	cases := []struct {
		name string
		q    storage.ExpiredQuery
		want []messages.ID
	}{
		{"one channel", storage.ExpiredQuery{ChannelIDs: []channels.ID{w.c1}, Before: 200, Limit: 10}, []messages.ID{old1.ID}},
		{"direct only", storage.ExpiredQuery{Direct: true, Before: 200, Limit: 10}, []messages.ID{oldDM.ID}},
		{"both, limited", storage.ExpiredQuery{ChannelIDs: []channels.ID{w.c1, w.c2}, Direct: true, Before: 200, Limit: 2}, []messages.ID{old1.ID, oldDM.ID}},
		{"all before 1000", storage.ExpiredQuery{ChannelIDs: []channels.ID{w.c1, w.c2}, Before: 1000, Limit: 10}, []messages.ID{old1.ID, old2.ID, fresh.ID}},
		{"nothing selected", storage.ExpiredQuery{Before: 1000, Limit: 10}, []messages.ID{}},
	}
	for _, c := range cases {
		mustView(t, s, func(tx storage.ReadTx) error {
			got, err := tx.Archives().Expired(c.q)
			wantEqual(t, "Expired "+c.name, c.want, got)
			return err
		})
	}

	// Archive the two old messages of c1 and the DM, delete them, restore them.
	var arID storage.ArchiveID
	var want storage.Archive
	mustUpdate(t, s, func(tx storage.Tx) error {
		list := []messages.ID{old1.ID, oldDM.ID}
		msgs, err := tx.Messages().GetMany(list)
		if err != nil {
			return err
		}
		rows, err := tx.Messages().Rows(list)
		if err != nil {
			return err
		}
		want = storage.Archive{ArchivedAt: 1000, Messages: msgs, Rows: rows,
			Reactions:   []messages.Reaction{{MessageID: old1.ID, UserID: w.u[1], EmojiName: "smile", EmojiCode: "1f604", ReactionType: "unicode_emoji"}},
			Attachments: []uploads.Attachment{{ID: 7, PathID: "1/ab/f.txt", Name: "f.txt", OwnerID: w.u[0], Size: 3, CreateTime: 90}},
			Links:       []uploads.Link{{AttachmentID: 7, MessageID: old1.ID}}}
		if arID, err = tx.Archives().Create(want); err != nil {
			return err
		}
		return tx.Messages().Delete(list)
	})
	want.ID = arID
	mustView(t, s, func(tx storage.ReadTx) error {
		got, err := tx.Archives().Get(arID)
		wantEqual(t, "Get", want, got)
		if err != nil {
			return err
		}
		ids, err := tx.Archives().List(1001, 0)
		wantEqual(t, "List before 1001", []storage.ArchiveID{arID}, ids)
		if err != nil {
			return err
		}
		ids, err = tx.Archives().List(1000, 0)
		wantEqual(t, "List before 1000", []storage.ArchiveID{}, ids)
		if err != nil {
			return err
		}
		_, err = tx.Messages().Get(old1.ID)
		wantIs(t, "Get deleted", err, storage.ErrNotFound)
		return nil
	})
	mustUpdate(t, s, func(tx storage.Tx) error {
		return tx.Archives().Reinsert(want.Messages, want.Rows, want.Reactions[:1])
	})
	err := s.Update(t.Context(), func(tx storage.Tx) error {
		return tx.Archives().Reinsert(want.Messages[:1], nil, nil)
	})
	wantIs(t, "Reinsert of a present message", err, storage.ErrConflict)
	mustView(t, s, func(tx storage.ReadTx) error {
		got, err := tx.Messages().GetMany([]messages.ID{old1.ID, oldDM.ID})
		wantEqual(t, "restored messages", want.Messages, got)
		if err != nil {
			return err
		}
		rows, err := tx.Messages().Rows([]messages.ID{old1.ID, oldDM.ID})
		wantEqual(t, "restored rows", want.Rows, rows)
		if err != nil {
			return err
		}
		reactions, err := tx.Messages().Reactions([]messages.ID{old1.ID})
		wantEqual(t, "restored reactions", want.Reactions, reactions)
		if err != nil {
			return err
		}
		found, err := tx.Messages().Query(storage.MessageQuery{User: w.u[1], Terms: []messages.Term{searchTerm("walrus", false)}, Limit: 10})
		if err != nil {
			return err
		}
		if len(found) != 1 || found[0].Message.ID != old1.ID {
			t.Errorf("search after restore: got %v, want message %d", found, old1.ID)
		}
		dms, err := tx.Messages().DirectWith(w.u[1])
		if len(dms) != 1 || dms[0].ID != oldDM.ID {
			t.Errorf("DirectWith after restore: got %v, want message %d", dms, oldDM.ID)
		}
		return err
	})
	mustUpdate(t, s, func(tx storage.Tx) error { return tx.Archives().Delete([]storage.ArchiveID{arID, arID + 100}) })
	mustView(t, s, func(tx storage.ReadTx) error {
		_, err := tx.Archives().Get(arID)
		wantIs(t, "Get after Delete", err, storage.ErrNotFound)
		return nil
	})
}
