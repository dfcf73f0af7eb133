package storagetest

import (
	"fmt"
	"testing"

	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

func testBotStorage(t *testing.T, open Opener) {
	t.Run("Put, Get and Size round-trip per bot, Put replaces", func(t *testing.T) {
		s := open(t)
		mustUpdate(t, s, func(tx storage.Tx) error {
			if err := tx.BotStorage().Put(1, map[string]string{"a": "1", "bé": "ü€", "c": ""}); err != nil {
				return err
			}
			if err := tx.BotStorage().Put(2, map[string]string{"a": "other"}); err != nil {
				return err
			}
			return tx.BotStorage().Put(1, map[string]string{"a": "one"})
		})
		mustView(t, s, func(tx storage.ReadTx) error {
			r := tx.BotStorage()
			all, err := r.Get(1, nil)
			if err != nil {
				return err
			}
			wantEqual(t, "Get(all)", map[string]string{"a": "one", "bé": "ü€", "c": ""}, all)
			some, err := r.Get(1, []string{"bé", "missing"})
			if err != nil {
				return err
			}
			wantEqual(t, "Get(some)", map[string]string{"bé": "ü€"}, some)
			other, err := r.Get(2, []string{"a"})
			if err != nil {
				return err
			}
			wantEqual(t, "Get(other bot)", map[string]string{"a": "other"}, other)
			none, err := r.Get(3, nil)
			if err != nil {
				return err
			}
			wantEqual(t, "Get(empty bot)", map[string]string{}, none)
			size, err := r.Size(1)
			if err != nil {
				return err
			}
			// a+one (4), bé+ü€ (4 characters), c (1).
			wantEqual(t, "Size in characters", int64(9), size)
			size, err = r.Size(3)
			if err != nil {
				return err
			}
			wantEqual(t, "Size(empty bot)", int64(0), size)
			return nil
		})
	})
	t.Run("Delete removes the keys it names, or everything, and counts them", func(t *testing.T) {
		s := open(t)
		mustUpdate(t, s, func(tx storage.Tx) error {
			if err := tx.BotStorage().Put(1, map[string]string{"a": "1", "b": "2", "c": "3"}); err != nil {
				return err
			}
			return tx.BotStorage().Put(2, map[string]string{"a": "1"})
		})
		mustUpdate(t, s, func(tx storage.Tx) error {
			n, err := tx.BotStorage().Delete(1, []string{"a", "a", "missing"})
			wantEqual(t, "Delete(a, a, missing)", 1, n)
			return err
		})
		mustView(t, s, func(tx storage.ReadTx) error {
			got, err := tx.BotStorage().Get(1, nil)
			wantEqual(t, "after Delete", map[string]string{"b": "2", "c": "3"}, got)
			return err
		})
		mustUpdate(t, s, func(tx storage.Tx) error {
			n, err := tx.BotStorage().Delete(1, nil)
			wantEqual(t, "Delete(all)", 2, n)
			return err
		})
		mustView(t, s, func(tx storage.ReadTx) error {
			got, err := tx.BotStorage().Get(1, nil)
			wantEqual(t, "after Delete(all)", map[string]string{}, got)
			other, err2 := tx.BotStorage().Get(2, nil)
			wantEqual(t, "other bot kept", map[string]string{"a": "1"}, other)
			if err == nil {
				err = err2
			}
			return err
		})
	})
	t.Run("Many entries in one Put and one Get", func(t *testing.T) {
		s := open(t)
		want := map[string]string{}
		var keys []string
		for i := range 1200 {
			k := fmt.Sprintf("key%04d", i)
			want[k] = fmt.Sprint(i)
			keys = append(keys, k)
		}
		mustUpdate(t, s, func(tx storage.Tx) error { return tx.BotStorage().Put(1, want) })
		mustView(t, s, func(tx storage.ReadTx) error {
			got, err := tx.BotStorage().Get(1, keys)
			wantEqual(t, "Get(1200 keys)", want, got)
			return err
		})
	})
	t.Run("A failed Update leaves no entry", func(t *testing.T) {
		s := open(t)
		boom := fmt.Errorf("boom")
		err := s.Update(t.Context(), func(tx storage.Tx) error {
			if err := tx.BotStorage().Put(1, map[string]string{"a": "1"}); err != nil {
				return err
			}
			return boom
		})
		wantIs(t, "Update", err, boom)
		mustView(t, s, func(tx storage.ReadTx) error {
			got, err := tx.BotStorage().Get(1, nil)
			wantEqual(t, "after rollback", map[string]string{}, got)
			return err
		})
	})
}

func testServiceJobs(t *testing.T, open Opener) {
	t.Run("Create, ClaimDue in due order, Update leases, Delete", func(t *testing.T) {
		s := open(t)
		in := []storage.ServiceJob{
			{BotID: 5, MessageID: 10, Trigger: "mention", Message: `{"id":10}`, DueAt: 2000},
			{BotID: 6, MessageID: 11, Trigger: "direct_message", Message: `{"id":11}`, DueAt: 1000},
			{BotID: 5, MessageID: 12, Trigger: "mention", Message: `{"id":12}`, DueAt: 1000, Attempts: 2},
			{BotID: 5, MessageID: 13, Trigger: "mention", Message: `{"id":13}`, DueAt: 9000},
		}
		mustUpdate(t, s, func(tx storage.Tx) error { return tx.ServiceJobs().Create(in) })
		var all []storage.ServiceJob
		mustView(t, s, func(tx storage.ReadTx) error {
			var err error
			all, err = tx.ServiceJobs().List()
			return err
		})
		if len(all) != 4 {
			t.Fatalf("List: got %d jobs, want 4", len(all))
		}
		for i := range in {
			in[i].ID = all[i].ID
		}
		wantEqual(t, "List", in, all)
		mustUpdate(t, s, func(tx storage.Tx) error {
			due, err := tx.ServiceJobs().ClaimDue(2000, 2)
			if err != nil {
				return err
			}
			wantEqual(t, "ClaimDue(2000, 2)", []storage.ServiceJob{in[1], in[2]}, due)
			due, err = tx.ServiceJobs().ClaimDue(2000, 10)
			wantEqual(t, "ClaimDue(2000, 10)", []storage.ServiceJob{in[1], in[2], in[0]}, due)
			if err != nil {
				return err
			}
			lease := in[1]
			lease.DueAt, lease.Attempts = 5000, 1
			if err := tx.ServiceJobs().Update(lease); err != nil {
				return err
			}
			return tx.ServiceJobs().Delete(in[2].ID)
		})
		mustUpdate(t, s, func(tx storage.Tx) error {
			due, err := tx.ServiceJobs().ClaimDue(2000, 10)
			wantEqual(t, "ClaimDue after the lease", []storage.ServiceJob{in[0]}, due)
			if err != nil {
				return err
			}
			leased := in[1]
			leased.DueAt, leased.Attempts = 5000, 1
			due, err = tx.ServiceJobs().ClaimDue(5000, 10)
			wantEqual(t, "ClaimDue when the lease ends", []storage.ServiceJob{in[0], leased}, due)
			if err != nil {
				return err
			}
			wantIs(t, "Delete(deleted)", tx.ServiceJobs().Delete(in[2].ID), storage.ErrNotFound)
			wantIs(t, "Update(deleted)", tx.ServiceJobs().Update(in[2]), storage.ErrNotFound)
			none, err := tx.ServiceJobs().ClaimDue(0, 10)
			wantEqual(t, "ClaimDue(nothing due)", []storage.ServiceJob{}, none)
			return err
		})
	})
	t.Run("A failed Update creates no job", func(t *testing.T) {
		s := open(t)
		boom := fmt.Errorf("boom")
		err := s.Update(t.Context(), func(tx storage.Tx) error {
			if err := tx.ServiceJobs().Create([]storage.ServiceJob{{BotID: users.ID(1), Trigger: "mention", Message: "{}"}}); err != nil {
				return err
			}
			return boom
		})
		wantIs(t, "Update", err, boom)
		mustView(t, s, func(tx storage.ReadTx) error {
			got, err := tx.ServiceJobs().List()
			wantEqual(t, "after rollback", []storage.ServiceJob{}, got)
			return err
		})
	})
}
