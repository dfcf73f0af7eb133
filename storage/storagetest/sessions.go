package storagetest

import (
	"testing"

	"github.com/teamchat/chat/storage"
)

func testSessions(t *testing.T, open Opener) {
	t.Run("Sessions/create, get, delete one, a user's, the expired", func(t *testing.T) {
		s := open(t)
		a := storage.Session{Key: "a", UserID: 7, Expires: 100}
		b := storage.Session{Key: "b", UserID: 7, Expires: 200}
		c := storage.Session{Key: "c", UserID: 7, Expires: 300}
		d := storage.Session{Key: "d", UserID: 8, Expires: 50}
		mustUpdate(t, s, func(tx storage.Tx) error {
			for _, x := range []storage.Session{a, b, c, d} {
				if err := tx.Sessions().Create(x); err != nil {
					return err
				}
			}
			return nil
		})
		mustView(t, s, func(tx storage.ReadTx) error {
			got, err := tx.Sessions().ListUser(7)
			wantEqual(t, "user 7's sessions, soonest to expire first", []storage.Session{a, b, c}, got)
			none, nerr := tx.Sessions().ListUser(9)
			wantEqual(t, "a user without sessions", []storage.Session{}, none)
			if err == nil {
				err = nerr
			}
			return err
		})
		mustUpdate(t, s, func(tx storage.Tx) error {
			wantIs(t, "a taken key", tx.Sessions().Create(storage.Session{Key: "a", UserID: 9, Expires: 1}), storage.ErrConflict)
			wantIs(t, "an unknown key", tx.Sessions().Delete("zz"), storage.ErrNotFound)
			return nil
		})
		mustView(t, s, func(tx storage.ReadTx) error {
			got, err := tx.Sessions().Get("a")
			wantEqual(t, "session a after a refused create", a, got)
			_, nerr := tx.Sessions().Get("zz")
			wantIs(t, "get an unknown key", nerr, storage.ErrNotFound)
			return err
		})
		var n int
		mustUpdate(t, s, func(tx storage.Tx) (err error) {
			n, err = tx.Sessions().DeleteUser(7, "b")
			return err
		})
		wantEqual(t, "sessions of user 7 removed but b", 2, n)
		mustUpdate(t, s, func(tx storage.Tx) (err error) {
			n, err = tx.Sessions().DeleteExpired(50)
			return err
		})
		wantEqual(t, "expired at 50", 1, n)
		mustView(t, s, func(tx storage.ReadTx) error {
			for _, gone := range []string{"a", "c", "d"} {
				_, err := tx.Sessions().Get(gone)
				wantIs(t, "removed session "+gone, err, storage.ErrNotFound)
			}
			got, err := tx.Sessions().Get("b")
			wantEqual(t, "the kept session", b, got)
			return err
		})
		mustUpdate(t, s, func(tx storage.Tx) error { return tx.Sessions().Delete("b") })
		mustUpdate(t, s, func(tx storage.Tx) (err error) {
			n, err = tx.Sessions().DeleteUser(7, "")
			return err
		})
		wantEqual(t, "sessions left after deleting b", 0, n)
	})
	t.Run("Sessions/a rolled back create leaves nothing", func(t *testing.T) {
		s := open(t)
		_ = s.Update(t.Context(), func(tx storage.Tx) error {
			if err := tx.Sessions().Create(storage.Session{Key: "k", UserID: 1, Expires: 9}); err != nil {
				return err
			}
			return storage.ErrConflict
		})
		mustView(t, s, func(tx storage.ReadTx) error {
			_, err := tx.Sessions().Get("k")
			wantIs(t, "session of a rolled back transaction", err, storage.ErrNotFound)
			return nil
		})
	})
}
