package storagetest

import (
	"fmt"
	"testing"

	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/topics"
	"github.com/teamchat/chat/users"
)

func testPendingEmails(t *testing.T, open Opener) {
	t.Run("Create, ListForUser, ClaimDue in due order, Update leases, Delete", func(t *testing.T) {
		s := open(t)
		in := []storage.PendingEmail{
			{UserID: 5, MessageID: 10, Trigger: "direct_message", DueAt: 2000},
			{UserID: 6, MessageID: 11, Trigger: "mentioned", DueAt: 1000},
			{UserID: 5, MessageID: 12, Trigger: "followed_topic_email", DueAt: 1000, Attempts: 2},
			{UserID: 5, Trigger: "digest", DueAt: 9000},
		}
		mustUpdate(t, s, func(tx storage.Tx) error { return tx.PendingEmails().Create(in) })
		var all []storage.PendingEmail
		mustView(t, s, func(tx storage.ReadTx) error {
			var err error
			all, err = tx.PendingEmails().List()
			return err
		})
		if len(all) != 4 {
			t.Fatalf("List: got %d rows, want 4", len(all))
		}
		for i := range in {
			in[i].ID = all[i].ID
		}
		wantEqual(t, "List", in, all)
		mustView(t, s, func(tx storage.ReadTx) error {
			mine, err := tx.PendingEmails().ListForUser(5)
			wantEqual(t, "ListForUser(5)", []storage.PendingEmail{in[0], in[2], in[3]}, mine)
			return err
		})
		mustUpdate(t, s, func(tx storage.Tx) error {
			due, err := tx.PendingEmails().ClaimDue(2000, 2)
			wantEqual(t, "ClaimDue(2000, 2)", []storage.PendingEmail{in[1], in[2]}, due)
			if err != nil {
				return err
			}
			lease := in[1]
			lease.DueAt, lease.Attempts = 5000, 1
			if err := tx.PendingEmails().Update(lease); err != nil {
				return err
			}
			return tx.PendingEmails().Delete([]int64{in[2].ID, 999999})
		})
		mustUpdate(t, s, func(tx storage.Tx) error {
			due, err := tx.PendingEmails().ClaimDue(2000, 10)
			wantEqual(t, "ClaimDue after the lease", []storage.PendingEmail{in[0]}, due)
			if err != nil {
				return err
			}
			leased := in[1]
			leased.DueAt, leased.Attempts = 5000, 1
			due, err = tx.PendingEmails().ClaimDue(5000, 10)
			wantEqual(t, "ClaimDue when the lease ends", []storage.PendingEmail{in[0], leased}, due)
			if err != nil {
				return err
			}
			wantIs(t, "Update(deleted)", tx.PendingEmails().Update(in[2]), storage.ErrNotFound)
			none, err := tx.PendingEmails().ClaimDue(0, 10)
			wantEqual(t, "ClaimDue(nothing due)", []storage.PendingEmail{}, none)
			return err
		})
	})
	t.Run("ClaimDigestDay once per day", func(t *testing.T) {
		s := open(t)
		mustUpdate(t, s, func(tx storage.Tx) error {
			for _, c := range []struct {
				day  int64
				want bool
			}{{20000, true}, {20000, false}, {20001, true}} {
				got, err := tx.PendingEmails().ClaimDigestDay(c.day)
				if err != nil {
					return err
				}
				wantEqual(t, fmt.Sprintf("ClaimDigestDay(%d)", c.day), c.want, got)
			}
			return nil
		})
		mustUpdate(t, s, func(tx storage.Tx) error {
			got, err := tx.PendingEmails().ClaimDigestDay(20000)
			wantEqual(t, "ClaimDigestDay(20000) in a later transaction", false, got)
			return err
		})
	})
	t.Run("A failed Update creates no row and claims no day", func(t *testing.T) {
		s := open(t)
		boom := fmt.Errorf("boom")
		err := s.Update(t.Context(), func(tx storage.Tx) error {
			if err := tx.PendingEmails().Create([]storage.PendingEmail{{UserID: 1, MessageID: 1, Trigger: "mentioned"}}); err != nil {
				return err
			}
			if _, err := tx.PendingEmails().ClaimDigestDay(7); err != nil {
				return err
			}
			return boom
		})
		wantIs(t, "Update", err, boom)
		mustView(t, s, func(tx storage.ReadTx) error {
			got, err := tx.PendingEmails().List()
			wantEqual(t, "after rollback", []storage.PendingEmail{}, got)
			return err
		})
		mustUpdate(t, s, func(tx storage.Tx) error {
			got, err := tx.PendingEmails().ClaimDigestDay(7)
			wantEqual(t, "ClaimDigestDay after rollback", true, got)
			return err
		})
	})
}

func testFollowersOf(t *testing.T, open Opener) {
	s := open(t)
	follow := func(u users.ID, p topics.VisibilityPolicy) {
		mustUpdate(t, s, func(tx storage.Tx) error {
			return tx.UserTopics().Put(topics.UserTopic{UserID: u, ChannelID: 3, Topic: "Lunch", Policy: p, LastUpdated: 1})
		})
	}
	want := func(what string, ids []users.ID) {
		t.Helper()
		for range 2 { // the second read may come from the SQL store's cached list
			mustView(t, s, func(tx storage.ReadTx) error {
				got, err := tx.UserTopics().FollowersOf(3, "LUNCH")
				wantEqual(t, what, ids, got)
				return err
			})
		}
	}
	want("no follower", []users.ID{})
	follow(7, topics.PolicyFollowed)
	follow(5, topics.PolicyFollowed)
	follow(6, topics.PolicyMuted)
	want("two followers", []users.ID{5, 7})
	follow(7, topics.PolicyUnmuted)
	want("after a change of policy", []users.ID{5})
	mustUpdate(t, s, func(tx storage.Tx) error { return tx.UserTopics().Delete(5, 3, "lunch") })
	want("after a delete", []users.ID{})
}
