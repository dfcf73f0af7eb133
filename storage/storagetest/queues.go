package storagetest

import (
	"testing"

	"github.com/teamchat/chat/storage"
)

func testQueues(t *testing.T, open Opener) {
	t.Run("ReplaceAll stores and List returns by id", func(t *testing.T) {
		s := open(t)
		mustView(t, s, func(tx storage.ReadTx) error {
			got, err := tx.Queues().List("")
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
			return tx.Queues().ReplaceAll("", []storage.SavedQueue{want[1], want[0]})
		})
		mustView(t, s, func(tx storage.ReadTx) error {
			got, err := tx.Queues().List("")
			wantEqual(t, "saved queues", want, got)
			return err
		})
		mustUpdate(t, s, func(tx storage.Tx) error {
			return tx.Queues().ReplaceAll("", []storage.SavedQueue{{ID: "c", Owner: 3, State: []byte("x")}})
		})
		mustView(t, s, func(tx storage.ReadTx) error {
			got, err := tx.Queues().List("")
			wantEqual(t, "after second ReplaceAll", []storage.SavedQueue{{ID: "c", Owner: 3, State: []byte("x")}}, got)
			return err
		})
		mustUpdate(t, s, func(tx storage.Tx) error { return tx.Queues().ReplaceAll("", nil) })
		mustView(t, s, func(tx storage.ReadTx) error {
			got, err := tx.Queues().List("")
			if len(got) != 0 {
				t.Errorf("List after clearing = %v", got)
			}
			return err
		})
	})

	t.Run("duplicate ids conflict and change nothing", func(t *testing.T) {
		s := open(t)
		mustUpdate(t, s, func(tx storage.Tx) error {
			return tx.Queues().ReplaceAll("", []storage.SavedQueue{{ID: "keep", Owner: 1, State: []byte("k")}})
		})
		err := s.Update(t.Context(), func(tx storage.Tx) error {
			return tx.Queues().ReplaceAll("", []storage.SavedQueue{{ID: "d", Owner: 1}, {ID: "d", Owner: 2}})
		})
		wantIs(t, "ReplaceAll with duplicates", err, storage.ErrConflict)
		mustView(t, s, func(tx storage.ReadTx) error {
			got, err := tx.Queues().List("")
			wantEqual(t, "after refused ReplaceAll", []storage.SavedQueue{{ID: "keep", Owner: 1, State: []byte("k")}}, got)
			return err
		})
	})

	t.Run("prefixes keep the queues of each node apart", func(t *testing.T) {
		s := open(t)
		n1a := storage.SavedQueue{ID: "n1:a", Owner: 1, State: []byte("1a")}
		n1b := storage.SavedQueue{ID: "n1:b", Owner: 2, State: []byte("1b")}
		n10 := storage.SavedQueue{ID: "n10:a", Owner: 1, State: []byte("10")}
		n2 := storage.SavedQueue{ID: "n2:a", Owner: 1, State: []byte("2")}
		mustUpdate(t, s, func(tx storage.Tx) error {
			if err := tx.Queues().ReplaceAll("n1:", []storage.SavedQueue{n1b, n1a}); err != nil {
				return err
			}
			if err := tx.Queues().ReplaceAll("n10:", []storage.SavedQueue{n10}); err != nil {
				return err
			}
			return tx.Queues().ReplaceAll("n2:", []storage.SavedQueue{n2})
		})
		mustView(t, s, func(tx storage.ReadTx) error {
			got, err := tx.Queues().List("n1:")
			wantEqual(t, "List(n1:)", []storage.SavedQueue{n1a, n1b}, got)
			return err
		})
		mustUpdate(t, s, func(tx storage.Tx) error { return tx.Queues().ReplaceAll("n1:", nil) })
		mustView(t, s, func(tx storage.ReadTx) error {
			got, err := tx.Queues().List("")
			wantEqual(t, "every queue after clearing n1:", []storage.SavedQueue{n10, n2}, got)
			return err
		})
		err := s.Update(t.Context(), func(tx storage.Tx) error {
			return tx.Queues().ReplaceAll("n2:", []storage.SavedQueue{{ID: "n3:x", Owner: 1}})
		})
		wantIs(t, "ReplaceAll with an id outside the prefix", err, storage.ErrConflict)
		mustView(t, s, func(tx storage.ReadTx) error {
			got, err := tx.Queues().List("n2:")
			wantEqual(t, "after refused ReplaceAll", []storage.SavedQueue{n2}, got)
			return err
		})
	})
}
