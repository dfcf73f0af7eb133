package memory_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/storage/memory"
	"github.com/teamchat/chat/users"
)

// TestAppendForUser: AppendForUser appends to its buffer what ListForUsers lists for the user
// alone, the buffer's earlier rows kept.
func TestAppendForUser(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := memory.New()
	t.Cleanup(func() { s.Close() })
	yes := true
	if err := s.Update(ctx, func(tx storage.Tx) error {
		return tx.Subscriptions().Put([]channels.Subscription{
			{UserID: 1, ChannelID: 9, Active: true, Color: "#111111"},
			{UserID: 1, ChannelID: 2, Active: false, DesktopNotifications: &yes},
			{UserID: 1, ChannelID: 5, Active: true, PinToTop: true},
			{UserID: 2, ChannelID: 5, Active: true},
		})
	}); err != nil {
		t.Fatal(err)
	}
	type appender interface {
		AppendForUser([]channels.Subscription, users.ID) ([]channels.Subscription, error)
	}
	if err := s.View(ctx, func(tx storage.ReadTx) error {
		a, ok := tx.Subscriptions().(appender)
		if !ok {
			t.Fatal("the memory store's subscriptions have no AppendForUser")
		}
		for _, tc := range []struct {
			name string
			user users.ID
			buf  []channels.Subscription
		}{
			{"several rows, empty buffer", 1, nil},
			{"after earlier rows", 1, []channels.Subscription{{UserID: 7, ChannelID: 1}}},
			{"one row", 2, make([]channels.Subscription, 0, 8)},
			{"no rows", 3, nil},
		} {
			want, err := tx.Subscriptions().ListForUsers([]users.ID{tc.user})
			if err != nil {
				return err
			}
			want = append(append([]channels.Subscription{}, tc.buf...), want...)
			got, err := a.AppendForUser(tc.buf, tc.user)
			if err != nil {
				return err
			}
			if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("%s: AppendForUser differs from ListForUsers (-want +got):\n%s", tc.name, diff)
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}
