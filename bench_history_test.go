package chat_test

import (
	"strconv"
	"testing"
	"time"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/internal/benchorg"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage"
)

// BenchmarkSendMessageHistory sends to a channel of 50 subscribers on the memory store after
// history messages were stored in its organization's 20 channels (outside the timer): a send
// reads its channel's activity through the store's per-channel index, so its cost does not
// grow with the history (it used to scan every stored message, twice).
func BenchmarkSendMessageHistory(b *testing.B) {
	be := benchBackends()[0] // memory
	for _, history := range []int{0, 20000, 200000} {
		b.Run("history="+strconv.Itoa(history), func(b *testing.B) {
			svc, store, org := benchOrg(b, be, benchorg.Spec{Users: 100, Channels: 20, SubsPerUser: 10})
			ctx := b.Context()
			now := time.Now().Unix()
			err := store.Update(ctx, func(tx storage.Tx) error {
				for i := range history {
					rows := make([]messages.UserMessage, 5)
					for j := range rows {
						rows[j].UserID = org.Members[(i+j)%len(org.Members)]
					}
					if _, err := tx.Messages().Create(messages.Message{
						SenderID: org.Members[i%len(org.Members)], ChannelID: org.Channels[i%len(org.Channels)],
						Topic: "history " + strconv.Itoa(i%50), Content: "m", Rendered: "<p>m</p>",
						Timestamp: now - int64(history-i), Client: "bench",
					}, rows); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			defer reportCPU(b)()
			for b.Loop() {
				if _, err := svc.SendMessage(ctx, org.Admin, chat.SendMessageParams{
					Type: "stream", ChannelID: &org.Channels[0], Topic: ptrTo("bench"), Content: "a message",
				}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
