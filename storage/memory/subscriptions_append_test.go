package memory_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/storage/memory"
	"github.com/teamchat/chat/users"
)

// TestAppendForUser: AppendForUser appends to its buffer what ListForUsers lists for the user
// alone, the buffer's earlier rows kept.
func TestAppendForUser(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
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

// TestAppendActivityAndCountsInto: AppendActivity appends what Activity returns, and
// CountsInto writes by index what CountsOf returns (zero for channels without subscribers).
func TestAppendActivityAndCountsInto(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	s := memory.New()
	t.Cleanup(func() { s.Close() })
	if err := s.Update(ctx, func(tx storage.Tx) error {
		for _, m := range []messages.Message{
			{SenderID: 1, ChannelID: 3, Topic: "a", Content: "x", Timestamp: 100},
			{SenderID: 1, ChannelID: 3, Topic: "a", Content: "y", Timestamp: 200},
			{SenderID: 1, ChannelID: 8, Topic: "b", Content: "z", Timestamp: 300},
		} {
			if _, err := tx.Messages().Create(m, nil); err != nil {
				return err
			}
		}
		return tx.Subscriptions().Put([]channels.Subscription{
			{UserID: 1, ChannelID: 3, Active: true}, {UserID: 2, ChannelID: 3, Active: true},
			{UserID: 1, ChannelID: 8, Active: true},
		})
	}); err != nil {
		t.Fatal(err)
	}
	type activityAppender interface {
		AppendActivity([]storage.ChannelActivity, []channels.ID, int64, int64) ([]storage.ChannelActivity, error)
	}
	type countsFiller interface {
		CountsInto([]int, []channels.ID) error
	}
	if err := s.View(ctx, func(tx storage.ReadTx) error {
		aa, ok := tx.Messages().(activityAppender)
		if !ok {
			t.Fatal("the memory store's messages have no AppendActivity")
		}
		cf, ok := tx.Subscriptions().(countsFiller)
		if !ok {
			t.Fatal("the memory store's subscriptions have no CountsInto")
		}
		for _, tc := range []struct {
			name         string
			ids          []channels.ID
			since, until int64
			buf          []storage.ChannelActivity
		}{
			{"unsorted, one without messages", []channels.ID{8, 5, 3}, 150, 0, nil},
			{"after earlier entries, a window", []channels.ID{3, 8}, 100, 250, []storage.ChannelActivity{{ChannelID: 99, RecentCount: 4}}},
			{"a dirty buffer's spare room", []channels.ID{5, 3}, 0, 0, make([]storage.ChannelActivity, 0, 4)},
			{"none", nil, 0, 0, nil},
		} {
			want, err := tx.Messages().Activity(tc.ids, tc.since, tc.until)
			if err != nil {
				return err
			}
			want = append(append([]storage.ChannelActivity{}, tc.buf...), want...)
			if cap(tc.buf) > len(tc.buf) {
				spare := tc.buf[:cap(tc.buf)]
				for i := len(tc.buf); i < len(spare); i++ {
					spare[i] = storage.ChannelActivity{ChannelID: 77, FirstMessageID: 7, LastTimestamp: 7, RecentCount: 7}
				}
			}
			got, err := aa.AppendActivity(tc.buf, tc.ids, tc.since, tc.until)
			if err != nil {
				return err
			}
			if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("%s: AppendActivity differs from Activity (-want +got):\n%s", tc.name, diff)
			}
			byID, err := tx.Subscriptions().CountsOf(tc.ids)
			if err != nil {
				return err
			}
			counts := []int{-1, -1, -1, -1}[:len(tc.ids)]
			if err := cf.CountsInto(counts, tc.ids); err != nil {
				return err
			}
			for i, id := range tc.ids {
				if counts[i] != byID[id] {
					t.Errorf("%s: CountsInto gives channel %d %d subscribers, CountsOf %d", tc.name, id, counts[i], byID[id])
				}
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}
