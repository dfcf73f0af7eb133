package storagetest

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

func testUserSettings(t *testing.T, open Opener) {
	t.Run("Put and Get round-trip every value type", func(t *testing.T) {
		s := open(t)
		want := users.Settings{
			Values:     map[string]any{"enter_sends": true, "color_scheme": int64(2), "emojiset": "text", "high_contrast_mode": false},
			SelfEdited: []string{"color_scheme", "enter_sends"},
		}
		mustUpdate(t, s, func(tx storage.Tx) error {
			return tx.UserSettings().PutMany(map[users.ID]users.Settings{7: want, 9: {Values: map[string]any{"enter_sends": false}}})
		})
		mustView(t, s, func(tx storage.ReadTx) error {
			got, err := tx.UserSettings().Get(7)
			if err != nil {
				return err
			}
			wantEqual(t, "settings", want, got)
			none, err := tx.UserSettings().Get(8)
			if err != nil {
				return err
			}
			wantEqual(t, "settings of a user without any", users.Settings{}, none, cmpopts.EquateEmpty())
			many, err := tx.UserSettings().GetMany([]users.ID{8, 7})
			if err != nil {
				return err
			}
			wantEqual(t, "GetMany", map[users.ID]users.Settings{7: want}, many)
			all, err := tx.UserSettings().List()
			if err != nil {
				return err
			}
			wantEqual(t, "List", map[users.ID]users.Settings{7: want, 9: {Values: map[string]any{"enter_sends": false}}}, all, cmpopts.EquateEmpty())
			nine, err := tx.UserSettings().Get(9)
			if err != nil {
				return err
			}
			wantEqual(t, "second user of PutMany", users.Settings{Values: map[string]any{"enter_sends": false}}, nine, cmpopts.EquateEmpty())
			return nil
		})
	})

	t.Run("Put replaces and the caller's copy is not shared", func(t *testing.T) {
		s := open(t)
		first := users.Settings{Values: map[string]any{"enter_sends": true, "emojiset": "text"}}
		mustUpdate(t, s, func(tx storage.Tx) error { return tx.UserSettings().PutMany(map[users.ID]users.Settings{1: first}) })
		first.Values["enter_sends"] = false
		second := users.Settings{Values: map[string]any{"color_scheme": int64(3)}}
		mustUpdate(t, s, func(tx storage.Tx) error { return tx.UserSettings().PutMany(map[users.ID]users.Settings{1: second}) })
		mustView(t, s, func(tx storage.ReadTx) error {
			got, err := tx.UserSettings().Get(1)
			if err != nil {
				return err
			}
			wantEqual(t, "replaced settings", second, got, cmpopts.EquateEmpty())
			return nil
		})
	})

	t.Run("email changes: one per user, by key, deletable", func(t *testing.T) {
		s := open(t)
		exp := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
		a := users.EmailChange{Key: "key-a", UserID: 1, NewEmail: "a@example.com", Expires: exp}
		b := users.EmailChange{Key: "key-b", UserID: 1, NewEmail: "b@example.com", Expires: exp}
		mustUpdate(t, s, func(tx storage.Tx) error { return tx.UserSettings().PutEmailChange(a) })
		err := s.Update(t.Context(), func(tx storage.Tx) error {
			return tx.UserSettings().PutEmailChange(users.EmailChange{Key: "key-a", UserID: 2, NewEmail: "x@example.com", Expires: exp})
		})
		wantIs(t, "PutEmailChange with a taken key", err, storage.ErrConflict)
		mustUpdate(t, s, func(tx storage.Tx) error { return tx.UserSettings().PutEmailChange(b) })
		mustView(t, s, func(tx storage.ReadTx) error {
			_, err := tx.UserSettings().GetEmailChange("key-a")
			wantIs(t, "the user's older change", err, storage.ErrNotFound)
			got, err := tx.UserSettings().GetEmailChange("key-b")
			if err != nil {
				return err
			}
			if !got.Expires.Equal(exp) {
				t.Errorf("Expires = %v, want %v", got.Expires, exp)
			}
			got.Expires = exp
			wantEqual(t, "email change", b, got)
			return nil
		})
		mustUpdate(t, s, func(tx storage.Tx) error { return tx.UserSettings().DeleteEmailChange("key-b") })
		mustUpdate(t, s, func(tx storage.Tx) error { return tx.UserSettings().DeleteEmailChange("absent") })
		mustView(t, s, func(tx storage.ReadTx) error {
			_, err := tx.UserSettings().GetEmailChange("key-b")
			wantIs(t, "deleted change", err, storage.ErrNotFound)
			return nil
		})
	})

	t.Run("ListTrue lists the users whose stored value is true, after every change", func(t *testing.T) {
		s := open(t)
		const name = "enable_stream_email_notifications"
		list := func(what string, want []users.ID) {
			t.Helper()
			mustView(t, s, func(tx storage.ReadTx) error {
				got, err := tx.UserSettings().ListTrue(name)
				wantEqual(t, what, want, got, cmpopts.EquateEmpty())
				return err
			})
		}
		list("ListTrue with no settings", nil)
		mustUpdate(t, s, func(tx storage.Tx) error {
			return tx.UserSettings().PutMany(map[users.ID]users.Settings{
				4: {Values: map[string]any{name: true}},
				2: {Values: map[string]any{name: true, "enter_sends": true}},
				3: {Values: map[string]any{name: false, "enter_sends": true}},
				5: {Values: map[string]any{"emojiset": "text"}},
			})
		})
		list("ListTrue", []users.ID{2, 4})
		list("ListTrue again (a cached list)", []users.ID{2, 4})
		mustUpdate(t, s, func(tx storage.Tx) error {
			if err := tx.UserSettings().PutMany(map[users.ID]users.Settings{4: {Values: map[string]any{name: false}}, 3: {Values: map[string]any{name: true}}}); err != nil {
				return err
			}
			got, err := tx.UserSettings().ListTrue(name)
			wantEqual(t, "ListTrue in the writing transaction", []users.ID{2, 3}, got)
			return err
		})
		list("ListTrue after a change", []users.ID{2, 3})
		err := s.Update(t.Context(), func(tx storage.Tx) error {
			if err := tx.UserSettings().PutMany(map[users.ID]users.Settings{2: {}}); err != nil {
				return err
			}
			return storage.ErrConflict
		})
		wantIs(t, "rolled-back PutMany", err, storage.ErrConflict)
		list("ListTrue after a rollback", []users.ID{2, 3})
		mustView(t, s, func(tx storage.ReadTx) error {
			got, err := tx.UserSettings().ListTrue("enter_sends")
			wantEqual(t, "ListTrue(enter_sends)", []users.ID{2}, got)
			return err
		})
	})
}
