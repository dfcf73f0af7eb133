package chat_test

import (
	"errors"
	"strconv"
	"testing"
	"time"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/internal/benchorg"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage"
)

// unreadBenchMessages is how many unread channel messages BenchmarkUnreadState's reader has.
const unreadBenchMessages = 50000

// BenchmarkUnreadState is the read side of issue 42: a member of an organization of 10,000
// users, all subscribed to its five channels, has 50,000 unread messages in them (10,000 per
// channel, five topics each). It measures register (unread_msgs included) and GET /messages of
// is:unread (anchor newest, 100 before). Two models of the same history, in the same run:
// model=explicit-rows stores every message with Create and rows for its sender and the reader
// (the reader's rows are what a store with a row per recipient reads for them; the other
// 9,998 recipients' rows are left out so that the history can be written at all), and
// model=implicit-rows stores them as a send does (storage.CreateForSubscribers: no row per
// recipient), skipped on a store without that capability.
func BenchmarkUnreadState(b *testing.B) {
	for _, be := range benchBackends() {
		for _, model := range []string{"explicit-rows", "implicit-rows"} {
			b.Run(be.name+"/model="+model, func(b *testing.B) {
				svc, store, org := benchOrg(b, be, benchorg.Spec{Users: 10000, Channels: 5, SubsPerUser: 5})
				reader := chat.Actor{UserID: org.Members[0]}
				seedUnreadChannels(b, store, org, model == "implicit-rows")
				benchUnreadReads(b, svc, reader)
			})
		}
	}
}

func benchUnreadReads(b *testing.B, svc *chat.Service, reader chat.Actor) {
	ctx := b.Context()
	b.Run("register", func(b *testing.B) {
		b.ReportAllocs()
		defer reportCPU(b)()
		for b.Loop() {
			res, err := svc.RegisterQueue(ctx, reader, chat.RegisterQueueParams{})
			if err != nil {
				b.Fatal(err)
			}
			if res.UnreadMsgs == nil || res.UnreadMsgs.Count != unreadBenchMessages {
				b.Fatalf("unread_msgs of register: %+v, want %d", res.UnreadMsgs, unreadBenchMessages)
			}
			if _, err := svc.DeleteQueue(ctx, reader, chat.DeleteQueueParams{QueueID: *res.QueueID}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("is:unread", func(b *testing.B) {
		benchNewest100(b, svc, reader, []chat.NarrowTerm{{Operator: "is", Operand: "unread"}})
	})
}

// seedUnreadChannels stores unreadBenchMessages messages of org's second member in org's
// channels, unread for everyone else: with CreateForSubscribers when implicit, else with
// Create and the rows of the sender and the first member.
func seedUnreadChannels(b *testing.B, store storage.Storage, org *benchorg.Org, implicit bool) {
	b.Helper()
	now := time.Now().Unix()
	sender, reader := org.Members[1], org.Members[0]
	seedMessages(b, store, unreadBenchMessages, func(tx storage.Tx, i int) (messages.ID, error) {
		m := messages.Message{SenderID: sender, ChannelID: org.Channels[i%len(org.Channels)],
			Topic: "topic " + strconv.Itoa(i%5), Content: "unread", Rendered: "<p>unread</p>", Timestamp: now, Client: "bench"}
		mine := []messages.UserMessage{{UserID: sender, Flags: messages.FlagRead}}
		if implicit {
			return createForSubscribers(tx.Messages(), m, mine)
		}
		return tx.Messages().Create(m, append(mine, messages.UserMessage{UserID: reader}))
	})
}

var errRowPerRecipient = errors.New("the store writes a row per recipient (no storage.SubscriberMessageCreator)")
