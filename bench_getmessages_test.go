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

// Sizes of BenchmarkGetMessages' history: the channel read and the other channels' traffic.
const (
	readChannelMessages = 100000
	otherMessages       = 20000
)

// BenchmarkGetMessages is GET /messages for a subscriber of a channel holding 100,000 messages
// (each received by 10 subscribers, the reader among them) in a store that also holds 20,000
// messages of 19 other channels: anchor newest, 100 messages before it, narrowed to the
// channel, and the same narrowed to one topic of it (a fifth of its messages). The history is
// written through the store outside the timer, in two models: model=explicit-rows with a row
// per recipient (Create), model=implicit-rows as a send stores it (storage.CreateForSubscribers;
// skipped on a store without that capability). Its cpu-ms/op compares the backends of one run
// (issue 42: memory at most SQLite's).
func BenchmarkGetMessages(b *testing.B) {
	for _, be := range benchBackends() {
		for _, model := range []string{"explicit-rows", "implicit-rows"} {
			b.Run(be.name+"/model="+model, func(b *testing.B) {
				benchGetMessages(b, be, model == "implicit-rows")
			})
		}
	}
}

func benchGetMessages(b *testing.B, be benchBackend, implicit bool) {
	svc, store, org := benchOrg(b, be, benchorg.Spec{Users: 100, Channels: 20, SubsPerUser: 20})
	channel := org.Channels[0]
	seedChannelHistory(b, store, org, implicit)
	reader := chat.Actor{UserID: org.Members[0]}
	for _, c := range []struct {
		name   string
		narrow []chat.NarrowTerm
	}{
		{"narrow=channel", []chat.NarrowTerm{{Operator: "channel", Operand: float64(channel)}}},
		{"narrow=topic", []chat.NarrowTerm{{Operator: "channel", Operand: float64(channel)}, {Operator: "topic", Operand: "topic 3"}}},
	} {
		b.Run(c.name, func(b *testing.B) {
			defer reportStatements(b, store)()
			benchNewest100(b, svc, reader, c.narrow)
		})
	}
}

// benchNewest100 times GET /messages of the newest 100 messages of narrow for reader.
func benchNewest100(b *testing.B, svc *chat.Service, reader chat.Actor, narrow []chat.NarrowTerm) {
	b.ReportAllocs()
	defer reportCPU(b)()
	for b.Loop() {
		res, err := svc.GetMessages(b.Context(), reader, chat.GetMessagesParams{Anchor: "newest", NumBefore: 100, Narrow: narrow})
		if err != nil {
			b.Fatal(err)
		}
		if len(res.Messages) != 100 {
			b.Fatalf("GetMessages returned %d messages, want 100", len(res.Messages))
		}
	}
}

// seedChannelHistory stores readChannelMessages messages in org's first channel (five topics,
// each received by the first ten members, read) and otherMessages in the other channels; when
// implicit, as a send stores them (storage.CreateForSubscribers: every subscriber receives
// them, unread but for the sender).
func seedChannelHistory(b *testing.B, store storage.Storage, org *benchorg.Org, implicit bool) {
	b.Helper()
	now := time.Now().Unix()
	total := readChannelMessages + otherMessages
	seedMessages(b, store, total, func(tx storage.Tx, i int) (messages.ID, error) {
		c := org.Channels[0]
		if i%6 == 5 { // a sixth of the total: otherMessages
			c = org.Channels[1+i%19]
		}
		rows := make([]messages.UserMessage, 10)
		for j := range rows {
			rows[j] = messages.UserMessage{UserID: org.Members[j], Flags: messages.FlagRead}
		}
		m := messages.Message{
			SenderID: org.Members[i%10], ChannelID: c, Topic: "topic " + strconv.Itoa(i%5),
			Content: "message " + strconv.Itoa(i), Rendered: "<p>message " + strconv.Itoa(i) + "</p>",
			Timestamp: now - int64(total-i), Client: "bench",
		}
		if implicit {
			return createForSubscribers(tx.Messages(), m, rows[i%10:i%10+1])
		}
		return tx.Messages().Create(m, rows)
	})
}

// createForSubscribers stores m as a send does (storage.CreateForSubscribers with the given
// rows); errRowPerRecipient from a store without that capability.
func createForSubscribers(mw storage.MessageWriter, m messages.Message, rows []messages.UserMessage) (messages.ID, error) {
	c, ok := mw.(storage.SubscriberMessageCreator)
	if !ok {
		return 0, errRowPerRecipient
	}
	id, _, err := c.CreateForSubscribers(m, rows)
	return id, err
}
