package chat_test

import (
	"fmt"
	"testing"
	"time"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/internal/benchorg"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// BenchmarkDeliverScheduled measures the scheduler: 10,000 scheduled messages (half to
// channels of 10 subscribers, half direct messages, from 100 senders) fall due in the same
// second, and one DeliverScheduledMessages sends them all, in batches of 100 and of 500 (the
// default) per transaction.
// One op is the whole 10,000; the goal is below 5 s (BENCHMARKS.md). Run with -benchtime 1x.
func BenchmarkDeliverScheduled(b *testing.B) {
	const due = 10000
	for _, be := range sqlBenchBackends() {
		for _, batch := range []int{100, 500} {
			b.Run(fmt.Sprintf("%s/due=%d/batch=%d", be.name, due, batch), func(b *testing.B) {
				svc, store, org := benchOrg(b, be, benchorg.Spec{Users: 100, Channels: 50, SubsPerUser: 5},
					func(o *chat.Options) { o.SchedulerBatchSize = batch })
				ctx := b.Context()
				for b.Loop() {
					b.StopTimer()
					scheduleDue(b, store, org, due, time.Now().Unix()-1)
					b.StartTimer()
					res, err := svc.DeliverScheduledMessages(ctx, chat.DeliverScheduledMessagesParams{})
					if err != nil {
						b.Fatal(err)
					}
					if res.Delivered != due {
						b.Fatalf("delivered %+v, want %d", res, due)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/due, "ns/message")
			})
		}
	}
}

// scheduleDue stores n scheduled messages due at at, straight into the store.
func scheduleDue(b *testing.B, store storage.Storage, org *benchorg.Org, n int, at int64) {
	b.Helper()
	const perTx = 1000
	for start := 0; start < n; start += perTx {
		err := store.Update(b.Context(), func(tx storage.Tx) error {
			for i := start; i < min(start+perTx, n); i++ {
				sender := org.Members[i%len(org.Members)]
				m := messages.Scheduled{Kind: messages.SendLater, SenderID: sender, Content: fmt.Sprintf("scheduled **%d**", i), DeliverAt: at, Client: "website"}
				if i%2 == 0 {
					// Member k is subscribed to channels k .. k+4 (mod 50).
					m.ChannelID, m.Topic = org.Channels[(i%len(org.Members))%len(org.Channels)], "later"
				} else {
					m.Recipients = messages.Participants(sender, []users.ID{org.Members[(i+1)%len(org.Members)]})
				}
				if _, err := tx.ScheduledMessages().Create(m); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
}
