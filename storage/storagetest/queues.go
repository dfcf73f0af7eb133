package storagetest

import (
	"testing"

	"github.com/teamchat/chat/storage"
)

func testQueues(t *testing.T, open Opener) {
	t.Run("ReplaceAll stores and List returns by id", func(t *testing.T) {
		s := open(t)
		mustView(t, s, func(tx storage.ReadTx) error {
			got, err := tx.Queues().List()
			if len(got) != 0 {
				t.Errorf("List on an empty store = %v", got)
			}
			return err
		})
		want := []storage.SavedQueue{
			{ID: "a-queue", Owner: 2, State: []byte(`{"events":[]}`)},
			{ID: "b-queue", Owner: 1, State: []byte(`{}`)},
		}
		mustUpdate(t, s, func(tx storage.Tx) error {
			return tx.Queues().ReplaceAll([]storage.SavedQueue{want[1], want[0]})
		})
		mustView(t, s, func(tx storage.ReadTx) error {
			got, err := tx.Queues().List()
			wantEqual(t, "saved queues", want, got)
			return err
		})
		mustUpdate(t, s, func(tx storage.Tx) error {
			return tx.Queues().ReplaceAll([]storage.SavedQueue{{ID: "c", Owner: 3, State: []byte("x")}})
		})
		mustView(t, s, func(tx storage.ReadTx) error {
			got, err := tx.Queues().List()
			wantEqual(t, "after second ReplaceAll", []storage.SavedQueue{{ID: "c", Owner: 3, State: []byte("x")}}, got)
			return err
		})
		mustUpdate(t, s, func(tx storage.Tx) error { return tx.Queues().ReplaceAll(nil) })
		mustView(t, s, func(tx storage.ReadTx) error {
			got, err := tx.Queues().List()
			if len(got) != 0 {
				t.Errorf("List after clearing = %v", got)
			}
			return err
		})
	})

	t.Run("duplicate ids conflict and change nothing", func(t *testing.T) {
		s := open(t)
		mustUpdate(t, s, func(tx storage.Tx) error {
			return tx.Queues().ReplaceAll([]storage.SavedQueue{{ID: "keep", Owner: 1, State: []byte("k")}})
		})
		err := s.Update(t.Context(), func(tx storage.Tx) error {
			return tx.Queues().ReplaceAll([]storage.SavedQueue{{ID: "d", Owner: 1}, {ID: "d", Owner: 2}})
		})
		wantIs(t, "ReplaceAll with duplicates", err, storage.ErrConflict)
		mustView(t, s, func(tx storage.ReadTx) error {
			got, err := tx.Queues().List()
			wantEqual(t, "after refused ReplaceAll", []storage.SavedQueue{{ID: "keep", Owner: 1, State: []byte("k")}}, got)
			return err
		})
	})
}
