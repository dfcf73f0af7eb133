package storagetest

import (
	"testing"

	"github.com/teamchat/chat/storage"
)

func testDevices(t *testing.T, open Opener) {
	t.Run("Devices/create, list, delete and tokens", func(t *testing.T) {
		s := open(t)
		var d1, d2 int64
		mustUpdate(t, s, func(tx storage.Tx) (err error) {
			if d1, err = tx.Devices().Create(storage.Device{UserID: 7}); err != nil {
				return err
			}
			if d2, err = tx.Devices().Create(storage.Device{UserID: 7, Kind: "apns", Token: "abcd", AppID: "org.zulip.Zulip"}); err != nil {
				return err
			}
			_, err = tx.Devices().Create(storage.Device{UserID: 8, Kind: "apns", Token: "abcd"})
			return err
		})
		mustUpdate(t, s, func(tx storage.Tx) error {
			_, err := tx.Devices().Create(storage.Device{UserID: 7, Kind: "apns", Token: "abcd"})
			wantIs(t, "a second registration of a token", err, storage.ErrConflict)
			return nil
		})
		mustView(t, s, func(tx storage.ReadTx) error {
			got, err := tx.Devices().List(7)
			wantEqual(t, "devices", []storage.Device{{ID: d1, UserID: 7}, {ID: d2, UserID: 7, Kind: "apns", Token: "abcd", AppID: "org.zulip.Zulip"}}, got)
			return err
		})
		mustUpdate(t, s, func(tx storage.Tx) error {
			wantIs(t, "another user's device", tx.Devices().Delete(8, d1), storage.ErrNotFound)
			wantIs(t, "an unknown token", tx.Devices().DeleteToken(7, "fcm", "abcd"), storage.ErrNotFound)
			if err := tx.Devices().Delete(7, d1); err != nil {
				return err
			}
			return tx.Devices().DeleteToken(7, "apns", "abcd")
		})
		mustView(t, s, func(tx storage.ReadTx) error {
			got, err := tx.Devices().List(7)
			wantEqual(t, "devices after deleting", []storage.Device{}, got)
			return err
		})
	})
}
