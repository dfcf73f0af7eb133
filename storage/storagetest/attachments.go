package storagetest

import (
	"testing"

	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/uploads"
	"github.com/teamchat/chat/users"
)

func testAttachments(t *testing.T, open Opener) {
	file := func(owner int64, path string, size int64) uploads.Attachment {
		return uploads.Attachment{OwnerID: users.ID(owner), PathID: path, Name: "f.txt", Size: size, ContentType: "text/plain", CreateTime: 1700000000123}
	}
	t.Run("Create, Get, GetByPath(s), ListByOwner and TotalSize", func(t *testing.T) {
		s := open(t)
		var a, b, c uploads.ID
		mustUpdate(t, s, func(tx storage.Tx) error {
			var err error
			if a, err = tx.Attachments().Create(file(1, "2/a/tok1/f.txt", 10)); err != nil {
				return err
			}
			img := file(2, "2/b/tok2/pic.png", 200)
			img.ContentType, img.Width, img.Height, img.Thumbnailed = "image/png", 640, 480, true
			if b, err = tx.Attachments().Create(img); err != nil {
				return err
			}
			c, err = tx.Attachments().Create(file(1, "2/c/tok3/ünïcode name.txt", 5))
			return err
		})
		if !(a < b && b < c) {
			t.Fatalf("ids not ascending: %d %d %d", a, b, c)
		}
		mustView(t, s, func(tx storage.ReadTx) error {
			got, err := tx.Attachments().Get(b)
			if err != nil {
				return err
			}
			want := file(2, "2/b/tok2/pic.png", 200)
			want.ID, want.ContentType, want.Width, want.Height, want.Thumbnailed = b, "image/png", 640, 480, true
			wantEqual(t, "Get", want, got)
			byPath, err := tx.Attachments().GetByPath("2/c/tok3/ünïcode name.txt")
			if err != nil {
				return err
			}
			wantEqual(t, "GetByPath id", c, byPath.ID)
			many, err := tx.Attachments().GetByPaths([]string{"2/c/tok3/ünïcode name.txt", "none", "2/a/tok1/f.txt", "2/a/tok1/f.txt"})
			if err != nil {
				return err
			}
			wantEqual(t, "GetByPaths ids", []uploads.ID{a, c}, attachmentIDs(many))
			none, err := tx.Attachments().GetByPaths(nil)
			if err != nil {
				return err
			}
			wantEqual(t, "GetByPaths of none", []uploads.Attachment{}, none)
			mine, err := tx.Attachments().ListByOwner(1)
			if err != nil {
				return err
			}
			wantEqual(t, "ListByOwner", []uploads.ID{a, c}, attachmentIDs(mine))
			total, err := tx.Attachments().TotalSize()
			if err != nil {
				return err
			}
			wantEqual(t, "TotalSize", int64(215), total)
			_, err = tx.Attachments().Get(999)
			wantIs(t, "Get of a missing id", err, storage.ErrNotFound)
			_, err = tx.Attachments().GetByPath("2/x/y/z")
			wantIs(t, "GetByPath of a missing path", err, storage.ErrNotFound)
			return nil
		})
		err := s.Update(t.Context(), func(tx storage.Tx) error {
			_, err := tx.Attachments().Create(file(3, "2/a/tok1/f.txt", 1))
			return err
		})
		wantIs(t, "Create with a taken path", err, storage.ErrConflict)
	})
	t.Run("Link, Unlink, Links, MessageLinks; Delete drops links and size", func(t *testing.T) {
		s := open(t)
		var a, b uploads.ID
		mustUpdate(t, s, func(tx storage.Tx) error {
			var err error
			if a, err = tx.Attachments().Create(file(1, "2/a/t/a", 10)); err != nil {
				return err
			}
			if b, err = tx.Attachments().Create(file(1, "2/b/t/b", 20)); err != nil {
				return err
			}
			if err := tx.Attachments().Link([]uploads.Link{{AttachmentID: b, MessageID: 7}, {AttachmentID: a, MessageID: 9}, {AttachmentID: a, MessageID: 7}}); err != nil {
				return err
			}
			return tx.Attachments().Link([]uploads.Link{{AttachmentID: a, MessageID: 7}}) // present already
		})
		mustView(t, s, func(tx storage.ReadTx) error {
			links, err := tx.Attachments().Links([]uploads.ID{a, b})
			if err != nil {
				return err
			}
			wantEqual(t, "Links", []uploads.Link{{AttachmentID: a, MessageID: 7}, {AttachmentID: a, MessageID: 9}, {AttachmentID: b, MessageID: 7}}, links)
			byMsg, err := tx.Attachments().MessageLinks([]messages.ID{7, 8})
			if err != nil {
				return err
			}
			wantEqual(t, "MessageLinks", []uploads.Link{{AttachmentID: a, MessageID: 7}, {AttachmentID: b, MessageID: 7}}, byMsg)
			return nil
		})
		mustUpdate(t, s, func(tx storage.Tx) error {
			return tx.Attachments().Unlink([]uploads.Link{{AttachmentID: a, MessageID: 7}, {AttachmentID: a, MessageID: 100}})
		})
		mustUpdate(t, s, func(tx storage.Tx) error { return tx.Attachments().Delete([]uploads.ID{b, 555}) })
		mustView(t, s, func(tx storage.ReadTx) error {
			links, err := tx.Attachments().Links([]uploads.ID{a, b})
			if err != nil {
				return err
			}
			wantEqual(t, "Links after Unlink and Delete", []uploads.Link{{AttachmentID: a, MessageID: 9}}, links)
			total, err := tx.Attachments().TotalSize()
			if err != nil {
				return err
			}
			wantEqual(t, "TotalSize after Delete", int64(10), total)
			_, err = tx.Attachments().Get(b)
			wantIs(t, "Get after Delete", err, storage.ErrNotFound)
			return nil
		})
	})
	t.Run("a rolled-back Create leaves no row and no size", func(t *testing.T) {
		s := open(t)
		err := s.Update(t.Context(), func(tx storage.Tx) error {
			if _, err := tx.Attachments().Create(file(1, "2/a/t/x", 10)); err != nil {
				return err
			}
			return errRollback
		})
		wantIs(t, "Update", err, errRollback)
		mustView(t, s, func(tx storage.ReadTx) error {
			total, err := tx.Attachments().TotalSize()
			if err != nil {
				return err
			}
			wantEqual(t, "TotalSize", int64(0), total)
			_, err = tx.Attachments().GetByPath("2/a/t/x")
			wantIs(t, "GetByPath", err, storage.ErrNotFound)
			return nil
		})
	})
	t.Run("URLKey is put once", func(t *testing.T) {
		s := open(t)
		mustView(t, s, func(tx storage.ReadTx) error {
			_, err := tx.Attachments().URLKey()
			wantIs(t, "URLKey before any", err, storage.ErrNotFound)
			return nil
		})
		mustUpdate(t, s, func(tx storage.Tx) error { return tx.Attachments().PutURLKey([]byte("0123456789abcdef")) })
		err := s.Update(t.Context(), func(tx storage.Tx) error { return tx.Attachments().PutURLKey([]byte("another")) })
		wantIs(t, "second PutURLKey", err, storage.ErrConflict)
		mustView(t, s, func(tx storage.ReadTx) error {
			k, err := tx.Attachments().URLKey()
			if err != nil {
				return err
			}
			wantEqual(t, "URLKey", []byte("0123456789abcdef"), k)
			return nil
		})
	})
}

func attachmentIDs(list []uploads.Attachment) []uploads.ID {
	out := []uploads.ID{}
	for _, a := range list {
		out = append(out, a.ID)
	}
	return out
}
