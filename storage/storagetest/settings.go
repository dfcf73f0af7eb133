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
}
