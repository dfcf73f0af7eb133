package storagetest

import (
	"testing"

	"github.com/teamchat/chat/storage"
)

func testExports(t *testing.T, open Opener) {
	t.Run("Create, Get, List and Update; unknown ids are not found", func(t *testing.T) {
		s := open(t)
		a := storage.Export{ActingUserID: 7, Type: 1, Time: 1700000000123}
		b := storage.Export{ActingUserID: 8, Type: 2, Time: 1700000000456, FromPriorServer: true}
		mustUpdate(t, s, func(tx storage.Tx) error {
			var err error
			if a.ID, err = tx.Exports().Create(a); err != nil {
				return err
			}
			b.ID, err = tx.Exports().Create(b)
			return err
		})
		if b.ID <= a.ID {
			t.Fatalf("ids not increasing: %d then %d", a.ID, b.ID)
		}
		if !a.Pending() {
			t.Errorf("a new export is not pending: %+v", a)
		}
		a.FinishedAt, a.Key, a.Size = 1700000001000, "exports/1/zulip-export-x.tar.gz", 1234
		mustUpdate(t, s, func(tx storage.Tx) error { return tx.Exports().Update(a) })
		mustView(t, s, func(tx storage.ReadTx) error {
			got, err := tx.Exports().Get(a.ID)
			if err != nil {
				return err
			}
			wantEqual(t, "Get", a, got)
			list, err := tx.Exports().List()
			if err != nil {
				return err
			}
			wantEqual(t, "List", []storage.Export{a, b}, list)
			_, err = tx.Exports().Get(b.ID + 100)
			wantIs(t, "Get(unknown)", err, storage.ErrNotFound)
			return nil
		})
		err := s.Update(t.Context(), func(tx storage.Tx) error { return tx.Exports().Update(storage.Export{ID: b.ID + 100}) })
		wantIs(t, "Update(unknown)", err, storage.ErrNotFound)
	})
	t.Run("a failed transaction keeps no export", func(t *testing.T) {
		s := open(t)
		err := s.Update(t.Context(), func(tx storage.Tx) error {
			if _, err := tx.Exports().Create(storage.Export{ActingUserID: 1, Type: 1, Time: 1}); err != nil {
				return err
			}
			return errRollback
		})
		wantIs(t, "Update", err, errRollback)
		mustView(t, s, func(tx storage.ReadTx) error {
			list, err := tx.Exports().List()
			wantEqual(t, "List after rollback", []storage.Export{}, list)
			return err
		})
	})
}
