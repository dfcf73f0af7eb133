package storagetest

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/teamchat/chat/emoji"
	"github.com/teamchat/chat/storage"
)

func testEmoji(t *testing.T, open Opener) {
	list := func(t *testing.T, s storage.Storage) []emoji.Custom {
		t.Helper()
		var out []emoji.Custom
		mustView(t, s, func(tx storage.ReadTx) (err error) { out, err = tx.Realm().ListEmoji(); return err })
		return out
	}
	t.Run("created emoji list by id, deactivated ones included", func(t *testing.T) {
		s := open(t)
		a := emoji.Custom{Name: "green_tick", AuthorID: 3, FileName: "1.png"}
		b := emoji.Custom{Name: "party", AuthorID: 4, FileName: "2.gif", StillFileName: "2-still.png"}
		mustUpdate(t, s, func(tx storage.Tx) (err error) {
			if a.ID, err = tx.Realm().CreateEmoji(a); err != nil {
				return err
			}
			b.ID, err = tx.Realm().CreateEmoji(b)
			return err
		})
		if a.ID == 0 || b.ID <= a.ID {
			t.Fatalf("ids %d, %d: want increasing", a.ID, b.ID)
		}
		b.Deactivated = true
		mustUpdate(t, s, func(tx storage.Tx) error { return tx.Realm().UpdateEmoji(b) })
		if diff := cmp.Diff([]emoji.Custom{a, b}, list(t, s)); diff != "" {
			t.Errorf("emoji (-want +got):\n%s", diff)
		}
	})
	t.Run("one active emoji per name; a deactivated one frees its name", func(t *testing.T) {
		s := open(t)
		a := emoji.Custom{Name: "tick", AuthorID: 3, FileName: "1.png"}
		mustUpdate(t, s, func(tx storage.Tx) (err error) { a.ID, err = tx.Realm().CreateEmoji(a); return err })
		err := s.Update(t.Context(), func(tx storage.Tx) error {
			_, err := tx.Realm().CreateEmoji(emoji.Custom{Name: "tick", AuthorID: 4, FileName: "2.png"})
			return err
		})
		if !errors.Is(err, storage.ErrConflict) {
			t.Errorf("second active emoji with one name: error = %v, want ErrConflict", err)
		}
		a.Deactivated = true
		mustUpdate(t, s, func(tx storage.Tx) error {
			if err := tx.Realm().UpdateEmoji(a); err != nil {
				return err
			}
			_, err := tx.Realm().CreateEmoji(emoji.Custom{Name: "tick", AuthorID: 4, FileName: "3.png"})
			return err
		})
		a.Deactivated = false
		err = s.Update(t.Context(), func(tx storage.Tx) error { return tx.Realm().UpdateEmoji(a) })
		if !errors.Is(err, storage.ErrConflict) {
			t.Errorf("reactivating beside an active namesake: error = %v, want ErrConflict", err)
		}
		if got := list(t, s); len(got) != 2 {
			t.Errorf("emoji = %v, want two", got)
		}
	})
	t.Run("updating an unknown emoji is not found", func(t *testing.T) {
		s := open(t)
		err := s.Update(t.Context(), func(tx storage.Tx) error {
			return tx.Realm().UpdateEmoji(emoji.Custom{ID: 99, Name: "x"})
		})
		if !errors.Is(err, storage.ErrNotFound) {
			t.Errorf("error = %v, want ErrNotFound", err)
		}
	})
}
