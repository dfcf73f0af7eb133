package chat_test

import (
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/teamchat/chat"
	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/internal/benchorg"
)

// BenchmarkSendMessageLinkifiers is BenchmarkSendMessageParallel's channels=1 on SQLite in an
// organization with five linkifiers, one of which the content matches: a send's rendering
// needs them compiled, which the Service keeps between sends (messages_prerender.go).
func BenchmarkSendMessageLinkifiers(b *testing.B) {
	for _, be := range benchBackends() {
		if be.name != "sqlite" {
			continue
		}
		b.Run(be.name, func(b *testing.B) {
			svc, _, org := benchOrg(b, be, benchorg.Spec{Users: 1000, Channels: 1, SubsPerUser: 1})
			ctx := b.Context()
			for i := range 5 {
				if _, err := svc.AddLinkifier(ctx, org.Admin, chat.AddLinkifierParams{
					Pattern: fmt.Sprintf(`P%d-(?P<id>[0-9]+)`, i), URLTemplate: fmt.Sprintf("https://p%d.example/{id}", i),
				}); err != nil {
					b.Fatal(err)
				}
			}
			if _, err := svc.Subscribe(ctx, org.Admin, chat.SubscribeParams{
				Subscriptions: []chat.SubscriptionRequest{{Name: "small"}}, Principals: chat.Principals{IDs: org.Members[:10]},
			}); err != nil {
				b.Fatal(err)
			}
			streams, err := svc.GetStreams(ctx, org.Admin, chat.GetStreamsParams{})
			if err != nil {
				b.Fatal(err)
			}
			var to channels.ID
			for _, c := range streams.Streams {
				if c.Name == "small" {
					to = c.StreamID
				}
			}
			var next atomic.Int64
			b.SetParallelism(4) // 2 cores x 4 = 8 senders
			defer reportCPU(b)()
			defer reportGroupCommits(b, svc)()
			b.RunParallel(func(pb *testing.PB) {
				sender := chat.Actor{UserID: org.Members[next.Add(1)%10]}
				for pb.Next() {
					if _, err := svc.SendMessage(ctx, sender, chat.SendMessageParams{
						Type: "stream", ChannelID: &to, Topic: ptrTo("bench"), Content: "see P1-42",
					}); err != nil {
						b.Error(err)
						return
					}
				}
			})
		})
	}
}
