package storagetest

import (
	"testing"

	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
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

	t.Run("live queue reports per node, replaced by the next report, read since a time", testLiveQueues(open))
}

func testLiveQueues(open Opener) func(t *testing.T) {
	return func(t *testing.T) {
		s := open(t)
		nodes := func(name string, owner users.ID, since int64, want []string) {
			t.Helper()
			mustView(t, s, func(tx storage.ReadTx) error {
				got, err := tx.Queues().LiveNodes(owner, since)
				if len(want) == 0 && len(got) == 0 {
					return err
				}
				wantEqual(t, name, want, got)
				return err
			})
		}
		nodes("LiveNodes on an empty store", 1, 0, nil)
		mustUpdate(t, s, func(tx storage.Tx) error {
			if err := tx.Queues().ReportLive("n2", []users.ID{1, 2, 1}, 1000); err != nil {
				return err
			}
			return tx.Queues().ReportLive("n1", []users.ID{1}, 2000)
		})
		nodes("LiveNodes(1, 0)", 1, 0, []string{"n1", "n2"})
		nodes("LiveNodes(1, 1500)", 1, 1500, []string{"n1"})
		nodes("LiveNodes(2, 1000)", 2, 1000, []string{"n2"})
		nodes("LiveNodes(3, 0)", 3, 0, nil)
		mustUpdate(t, s, func(tx storage.Tx) error {
			if err := tx.Queues().ReportLive("n2", []users.ID{3}, 3000); err != nil {
				return err
			}
			return tx.Queues().MarkLive("n1", 2, 3500)
		})
		nodes("LiveNodes(1, 0) after n2's new report", 1, 0, []string{"n1"})
		nodes("LiveNodes(2, 0) after MarkLive", 2, 0, []string{"n1"})
		nodes("LiveNodes(3, 3000)", 3, 3000, []string{"n2"})
		mustUpdate(t, s, func(tx storage.Tx) error { return tx.Queues().MarkLive("n1", 2, 4000) })
		nodes("LiveNodes(2, 4000) after MarkLive again", 2, 4000, []string{"n1"})
		err := s.Update(t.Context(), func(tx storage.Tx) error {
			if err := tx.Queues().ReportLive("n1", nil, 5000); err != nil {
				return err
			}
			return storage.ErrConflict
		})
		wantIs(t, "rolled-back ReportLive", err, storage.ErrConflict)
		nodes("LiveNodes(1, 0) after the rollback", 1, 0, []string{"n1"})
		mustUpdate(t, s, func(tx storage.Tx) error { return tx.Queues().ReportLive("n1", nil, 5000) })
		nodes("LiveNodes(1, 0) after n1 reported none", 1, 0, nil)
		nodes("LiveNodes(2, 0) after n1 reported none", 2, 0, nil)
	}
}
