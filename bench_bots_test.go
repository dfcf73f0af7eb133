package chat_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/users"
)

// BenchmarkServiceBots measures what outgoing webhooks add to the send path and how fast the
// worker delivers: a send mentioning a human (the baseline) beside a send mentioning an
// outgoing webhook bot (the job written in the send's transaction), and the delivery of queued
// jobs to a local webhook answering {"content": "ok"} (each delivery is an HTTP call and a
// reply sent by the bot).
func BenchmarkServiceBots(b *testing.B) {
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		io.WriteString(w, `{"content": "ok"}`)
	}))
	defer hook.Close()
	for _, be := range benchBackends() {
		b.Run(be.name, func(b *testing.B) {
			svc := benchService(b, be.open(b), func(o *chat.Options) { o.AllowPrivateWebhookTargets = true })
			ctx := b.Context()
			member, err := svc.ProvisionUser(ctx, chat.ProvisionUserParams{Email: "m@example.com", FullName: "Mia Member"})
			if err != nil {
				b.Fatal(err)
			}
			if _, err := svc.ProvisionUser(ctx, chat.ProvisionUserParams{Email: "h@example.com", FullName: "Hal Human"}); err != nil {
				b.Fatal(err)
			}
			me := chat.Actor{UserID: member.UserID}
			if _, err := svc.CreateBot(ctx, me, chat.CreateBotParams{FullName: "Hook", ShortName: "hook",
				BotType: users.BotOutgoingWebhook, PayloadURL: hook.URL}); err != nil {
				b.Fatal(err)
			}
			if _, err := svc.Subscribe(ctx, me, chat.SubscribeParams{Subscriptions: []chat.SubscriptionRequest{{Name: "bench"}}}); err != nil {
				b.Fatal(err)
			}
			c, err := svc.GetStreamID(ctx, me, chat.GetStreamIDParams{Stream: "bench"})
			if err != nil {
				b.Fatal(err)
			}
			send := func(b *testing.B, whom string, i int) {
				ch, topic := channels.ID(c.StreamID), "t"
				if _, err := svc.SendMessage(ctx, me, chat.SendMessageParams{Type: "stream", ChannelID: &ch, Topic: &topic,
					Content: fmt.Sprintf("@**%s** message %d", whom, i)}); err != nil {
					b.Fatal(err)
				}
			}
			b.Run("send-mention-human", func(b *testing.B) {
				for i := 0; b.Loop(); i++ {
					send(b, "Hal Human", i)
				}
			})
			b.Run("send-mention-webhook-bot", func(b *testing.B) {
				for i := 0; b.Loop(); i++ {
					send(b, "Hook", i)
				}
				b.StopTimer()
				if _, err := svc.DeliverServiceJobs(ctx); err != nil { // drain for the next run
					b.Fatal(err)
				}
			})
			b.Run("deliver", func(b *testing.B) {
				for i := range b.N {
					send(b, "Hook", i)
				}
				b.ResetTimer()
				start := time.Now()
				delivered := 0
				for delivered < b.N {
					r, err := svc.DeliverServiceJobs(ctx)
					if err != nil {
						b.Fatal(err)
					}
					if r.Delivered == 0 {
						b.Fatalf("delivered %d of %d, then nothing", delivered, b.N)
					}
					delivered += r.Delivered
				}
				b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "jobs/s")
			})
		})
	}
}
