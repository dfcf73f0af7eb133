package storagetest

import (
	"fmt"
	"sync"
	"testing"

	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

func testScheduledMessages(t *testing.T, open Opener) {
	t.Run("Create, Get and ListPending round-trip, ordered by delivery time", func(t *testing.T) {
		s := open(t)
		in := []messages.Scheduled{
			{Kind: messages.SendLater, SenderID: 1, ChannelID: 7, Topic: "t", Content: "late", Rendered: "<p>late</p>", DeliverAt: 300, Client: "website", ReadBySender: true},
			{Kind: messages.SendLater, SenderID: 1, Recipients: []users.ID{1, 2, 3}, Content: "early", Rendered: "<p>early</p>", DeliverAt: 100},
			{Kind: messages.Remind, SenderID: 1, Recipients: []users.ID{1}, Content: "remind", DeliverAt: 50, ReminderTargetID: 42, ReminderNote: "note"},
			{Kind: messages.SendLater, SenderID: 2, Recipients: []users.ID{1, 2}, Content: "other sender", DeliverAt: 10},
			{Kind: messages.SendLater, SenderID: 1, ChannelID: 7, Content: "tie", DeliverAt: 100},
		}
		ids := make([]messages.ScheduledID, len(in))
		mustUpdate(t, s, func(tx storage.Tx) error {
			for i, m := range in {
				id, err := tx.ScheduledMessages().Create(m)
				if err != nil {
					return err
				}
				ids[i] = id
			}
			return nil
		})
		want := make([]messages.Scheduled, len(in))
		for i := range in {
			want[i] = in[i].Clone()
			want[i].ID = ids[i]
		}
		in[1].Recipients[0] = 99 // the store keeps its own copy
		mustView(t, s, func(tx storage.ReadTx) error {
			r := tx.ScheduledMessages()
			got, err := r.Get(1, ids[1])
			if err != nil {
				return err
			}
			wantEqual(t, "Get", want[1], got)
			_, err = r.Get(2, ids[0])
			wantIs(t, "Get(another sender's)", err, storage.ErrNotFound)
			_, err = r.Get(1, ids[4]+100)
			wantIs(t, "Get(unknown)", err, storage.ErrNotFound)
			list, err := r.ListPending(1, messages.SendLater)
			if err != nil {
				return err
			}
			wantEqual(t, "ListPending(send later)", []messages.Scheduled{want[1], want[4], want[0]}, list)
			list, err = r.ListPending(1, messages.Remind)
			if err != nil {
				return err
			}
			wantEqual(t, "ListPending(reminders)", []messages.Scheduled{want[2]}, list)
			list, err = r.ListPending(3, messages.SendLater)
			if err != nil {
				return err
			}
			wantEqual(t, "ListPending(none)", 0, len(list))
			at, ok, err := r.NextDue()
			if err != nil {
				return err
			}
			wantEqual(t, "NextDue", [2]any{int64(10), true}, [2]any{at, ok})
			return nil
		})
	})

	t.Run("Update and Delete only touch the sender's; delivered ones leave ListPending", func(t *testing.T) {
		s := open(t)
		var a, b messages.ScheduledID
		mustUpdate(t, s, func(tx storage.Tx) (err error) {
			if a, err = tx.ScheduledMessages().Create(messages.Scheduled{Kind: messages.SendLater, SenderID: 1, ChannelID: 3, Content: "a", DeliverAt: 5}); err != nil {
				return err
			}
			b, err = tx.ScheduledMessages().Create(messages.Scheduled{Kind: messages.SendLater, SenderID: 1, ChannelID: 3, Content: "b", DeliverAt: 6})
			return err
		})
		err := s.Update(t.Context(), func(tx storage.Tx) error {
			return tx.ScheduledMessages().Update(messages.Scheduled{ID: a, SenderID: 2, Content: "stolen"})
		})
		wantIs(t, "Update(another sender's)", err, storage.ErrNotFound)
		err = s.Update(t.Context(), func(tx storage.Tx) error { return tx.ScheduledMessages().Delete(2, a) })
		wantIs(t, "Delete(another sender's)", err, storage.ErrNotFound)
		delivered := messages.Scheduled{ID: a, Kind: messages.SendLater, SenderID: 1, ChannelID: 3, Content: "a", DeliverAt: 5, Delivered: true, DeliveredMessageID: 77}
		mustUpdate(t, s, func(tx storage.Tx) error {
			if err := tx.ScheduledMessages().Update(delivered); err != nil {
				return err
			}
			return tx.ScheduledMessages().Delete(1, b)
		})
		mustView(t, s, func(tx storage.ReadTx) error {
			got, err := tx.ScheduledMessages().Get(1, a)
			if err != nil {
				return err
			}
			wantEqual(t, "Get(delivered)", delivered, got)
			_, err = tx.ScheduledMessages().Get(1, b)
			wantIs(t, "Get(deleted)", err, storage.ErrNotFound)
			list, err := tx.ScheduledMessages().ListPending(1, messages.SendLater)
			if err != nil {
				return err
			}
			wantEqual(t, "ListPending", 0, len(list))
			_, ok, err := tx.ScheduledMessages().NextDue()
			wantEqual(t, "NextDue(nothing pending)", false, ok)
			return err
		})
	})

	t.Run("ClaimDue returns due, undelivered, unfailed messages in order, at most limit", func(t *testing.T) {
		s := open(t)
		var ids []messages.ScheduledID
		mustUpdate(t, s, func(tx storage.Tx) error {
			for i, m := range []messages.Scheduled{
				{DeliverAt: 20}, {DeliverAt: 10}, {DeliverAt: 10}, {DeliverAt: 30}, {DeliverAt: 5, Failed: true, FailureMessage: "no"}, {DeliverAt: 1, Delivered: true},
			} {
				m.Kind, m.SenderID, m.ChannelID, m.Content = messages.SendLater, 1, 2, fmt.Sprint(i)
				id, err := tx.ScheduledMessages().Create(m)
				if err != nil {
					return err
				}
				ids = append(ids, id)
			}
			return nil
		})
		claim := func(now int64, limit int) []messages.ScheduledID {
			var got []messages.ScheduledID
			mustUpdate(t, s, func(tx storage.Tx) error {
				list, err := tx.ScheduledMessages().ClaimDue(now, limit)
				got = nil
				for _, m := range list {
					got = append(got, m.ID)
				}
				return err
			})
			return got
		}
		wantEqual(t, "ClaimDue(20, 10)", []messages.ScheduledID{ids[1], ids[2], ids[0]}, claim(20, 10))
		wantEqual(t, "ClaimDue(20, 2)", []messages.ScheduledID{ids[1], ids[2]}, claim(20, 2))
		wantEqual(t, "ClaimDue(4, 10)", []messages.ScheduledID(nil), claim(4, 10))
	})

	t.Run("Concurrent claims (UpdateReadCommitted) deliver each due message exactly once", func(t *testing.T) {
		s := open(t)
		const total = 60
		mustUpdate(t, s, func(tx storage.Tx) error {
			for i := range total {
				if _, err := tx.ScheduledMessages().Create(messages.Scheduled{Kind: messages.SendLater, SenderID: 1, ChannelID: 2, Content: fmt.Sprint(i), DeliverAt: int64(i % 3)}); err != nil {
					return err
				}
			}
			return nil
		})
		var mu sync.Mutex
		seen := map[messages.ScheduledID]int{}
		var wg sync.WaitGroup
		for w := range 4 {
			wg.Go(func() {
				for {
					var claimed []messages.ScheduledID
					err := storage.UpdateReadCommitted(t.Context(), s, func(tx storage.Tx) error {
						claimed = nil
						list, err := tx.ScheduledMessages().ClaimDue(10, 7)
						if err != nil {
							return err
						}
						for _, m := range list {
							m.Delivered, m.DeliveredMessageID = true, messages.ID(w+1)
							if err := tx.ScheduledMessages().Update(m); err != nil {
								return err
							}
							claimed = append(claimed, m.ID)
						}
						return nil
					})
					if err != nil {
						t.Errorf("claim: %v", err)
						return
					}
					if len(claimed) == 0 {
						return
					}
					mu.Lock()
					for _, id := range claimed {
						seen[id]++
					}
					mu.Unlock()
				}
			})
		}
		wg.Wait()
		if len(seen) != total {
			t.Fatalf("%d messages claimed, want %d", len(seen), total)
		}
		for id, n := range seen {
			if n != 1 {
				t.Errorf("message %d claimed %d times", id, n)
			}
		}
	})

	t.Run("MarkDelivered records each message's delivery in one call", func(t *testing.T) {
		s := open(t)
		var ids []messages.ScheduledID
		mustUpdate(t, s, func(tx storage.Tx) error {
			for i := range 3 {
				id, err := tx.ScheduledMessages().Create(messages.Scheduled{Kind: messages.SendLater, SenderID: 1, ChannelID: 2, Content: fmt.Sprint(i), DeliverAt: 1})
				if err != nil {
					return err
				}
				ids = append(ids, id)
			}
			return nil
		})
		mustUpdate(t, s, func(tx storage.Tx) error {
			if err := tx.ScheduledMessages().MarkDelivered(nil, nil); err != nil {
				return err
			}
			return tx.ScheduledMessages().MarkDelivered([]messages.ScheduledID{ids[2], ids[0], ids[2] + 100}, []messages.ID{30, 10, 99})
		})
		mustView(t, s, func(tx storage.ReadTx) error {
			for i, want := range []messages.ID{10, 0, 30} {
				m, err := tx.ScheduledMessages().Get(1, ids[i])
				if err != nil {
					return err
				}
				wantEqual(t, fmt.Sprintf("message %d delivered as", i), [2]any{want != 0, want}, [2]any{m.Delivered, m.DeliveredMessageID})
			}
			at, ok, err := tx.ScheduledMessages().NextDue()
			wantEqual(t, "NextDue (message 1 is still due)", [2]any{int64(1), true}, [2]any{at, ok})
			return err
		})
	})

	t.Run("A rolled-back claim leaves the messages due", func(t *testing.T) {
		s := open(t)
		mustUpdate(t, s, func(tx storage.Tx) error {
			_, err := tx.ScheduledMessages().Create(messages.Scheduled{Kind: messages.SendLater, SenderID: 1, ChannelID: 2, Content: "x", DeliverAt: 1})
			return err
		})
		boom := fmt.Errorf("crash before commit")
		err := s.Update(t.Context(), func(tx storage.Tx) error {
			list, err := tx.ScheduledMessages().ClaimDue(5, 10)
			if err != nil {
				return err
			}
			for _, m := range list {
				m.Delivered = true
				if err := tx.ScheduledMessages().Update(m); err != nil {
					return err
				}
			}
			return boom
		})
		wantIs(t, "Update", err, boom)
		mustView(t, s, func(tx storage.ReadTx) error {
			at, ok, err := tx.ScheduledMessages().NextDue()
			wantEqual(t, "NextDue after rollback", [2]any{int64(1), true}, [2]any{at, ok})
			return err
		})
	})
}
