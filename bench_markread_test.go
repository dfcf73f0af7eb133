package chat_test

import (
	"errors"
	"strconv"
	"testing"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// markReadCount is how many unread messages BenchmarkMarkAllAsRead marks read.
const markReadCount = 100000

// BenchmarkMarkAllAsRead marks 100,000 unread direct messages read through POST
// /mark_all_as_read's Service method (batches of 2,000, one event each) on SQLite and
// PostgreSQL, then 100,000 channel messages stored as sends store them (no row per recipient:
// storage/receivers.go). The baseline sub-benchmarks mark the same rows in one storage call in
// one transaction, without events: the floor of the work.
func BenchmarkMarkAllAsRead(b *testing.B) {
	for _, be := range sqlBenchBackends() {
		b.Run(be.name, func(b *testing.B) {
			store := be.open(b)
			b.Cleanup(func() { store.Close() })
			svc, err := chat.New(chat.Options{Store: store})
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { svc.Close() })
			ctx := b.Context()
			if _, err := svc.CreateOrganization(ctx, chat.CreateOrganizationParams{Name: "Bench", URL: "https://bench.example.com"}); err != nil {
				b.Fatal(err)
			}
			sender, err := svc.ProvisionUser(ctx, chat.ProvisionUserParams{Email: "sender@bench.example.com", FullName: "Sender"})
			if err != nil {
				b.Fatal(err)
			}
			reader, err := svc.ProvisionUser(ctx, chat.ProvisionUserParams{Email: "reader@bench.example.com", FullName: "Reader"})
			if err != nil {
				b.Fatal(err)
			}
			actor := chat.Actor{UserID: reader.UserID}
			direct := seedUnread(b, store, sender.UserID, reader.UserID, markReadCount)
			benchMarkAllRead(b, svc, store, actor, "unread=100000", direct)
			channel := seedUnreadChannel(b, svc, store, sender.UserID, actor, markReadCount)
			benchMarkAllRead(b, svc, store, actor, "channel/unread=100000", channel)
		})
	}
}

// benchMarkAllRead marks the reader's unread messages ids read with MarkAllAsRead, and in
// the baseline sub-benchmark with one storage call, after marking them unread (untimed).
func benchMarkAllRead(b *testing.B, svc *chat.Service, store storage.Storage, actor chat.Actor, name string, ids []messages.ID) {
	ctx := b.Context()
	b.Run(name, func(b *testing.B) {
		for b.Loop() {
			b.StopTimer()
			markUnread(b, store, actor.UserID, ids)
			b.StartTimer()
			res, err := svc.MarkAllAsRead(ctx, actor)
			if err != nil || !res.Complete {
				b.Fatalf("MarkAllAsRead = %v, %v", res, err)
			}
		}
	})
	b.Run(name+"/baseline-one-transaction", func(b *testing.B) {
		for b.Loop() {
			b.StopTimer()
			markUnread(b, store, actor.UserID, ids)
			b.StartTimer()
			var n int
			if err := store.Update(ctx, func(tx storage.Tx) error {
				got, err := tx.Messages().MarkRead(storage.MarkReadQuery{User: actor.UserID})
				n = len(got)
				return err
			}); err != nil || n != len(ids) {
				b.Fatalf("MarkRead: %d, %v", n, err)
			}
		}
	})
}

// seedUnreadChannel stores n messages from sender in a new channel of sender and the reader,
// as a send stores them (storage.CreateForSubscribers), unread for the reader, after marking
// everything before read.
func seedUnreadChannel(b *testing.B, svc *chat.Service, store storage.Storage, sender users.ID, reader chat.Actor, n int) []messages.ID {
	b.Helper()
	ctx := b.Context()
	if _, err := svc.MarkAllAsRead(ctx, reader); err != nil {
		b.Fatal(err)
	}
	if _, err := svc.Subscribe(ctx, reader, chat.SubscribeParams{
		Subscriptions: []chat.SubscriptionRequest{{Name: "unread"}},
		Principals:    chat.Principals{IDs: []users.ID{sender, reader.UserID}},
	}); err != nil {
		b.Fatal(err)
	}
	streams, err := svc.GetStreams(ctx, reader, chat.GetStreamsParams{})
	if err != nil {
		b.Fatal(err)
	}
	var c channels.ID
	for _, s := range streams.Streams {
		if s.Name == "unread" {
			c = s.StreamID
		}
	}
	recipients := []users.ID{min(sender, reader.UserID), max(sender, reader.UserID)}
	return seedMessages(b, store, n, func(tx storage.Tx, i int) (messages.ID, error) {
		m := messages.Message{SenderID: sender, ChannelID: c, Topic: "t" + strconv.Itoa(i%10),
			Content: "x", Rendered: "<p>x</p>", Timestamp: 1, Client: "bench"}
		id, _, err := storage.CreateForSubscribers(tx.Messages(), m, recipients, []messages.UserMessage{{UserID: sender, Flags: messages.FlagRead}})
		return id, err
	})
}

// seedMessages stores n messages with create (given each one's index), in transactions of
// 10,000, and returns their ids; it skips the benchmark when create answers
// errRowPerRecipient.
func seedMessages(b *testing.B, store storage.Storage, n int, create func(tx storage.Tx, i int) (messages.ID, error)) []messages.ID {
	b.Helper()
	ids := make([]messages.ID, 0, n)
	for len(ids) < n {
		err := store.Update(b.Context(), func(tx storage.Tx) error {
			for range min(10000, n-len(ids)) {
				id, err := create(tx, len(ids))
				if err != nil {
					return err
				}
				ids = append(ids, id)
			}
			return nil
		})
		if errors.Is(err, errRowPerRecipient) {
			b.Skip(err)
		}
		if err != nil {
			b.Fatal(err)
		}
	}
	return ids
}

// seedUnread stores n direct messages from sender to reader, unread for the reader.
func seedUnread(b *testing.B, store storage.Storage, sender, reader users.ID, n int) []messages.ID {
	b.Helper()
	return seedMessages(b, store, n, func(tx storage.Tx, _ int) (messages.ID, error) {
		m := messages.Message{SenderID: sender, Recipients: messages.Participants(sender, []users.ID{reader}),
			Content: "x", Rendered: "<p>x</p>", Timestamp: 1, Client: "bench"}
		return tx.Messages().Create(m, []messages.UserMessage{{UserID: sender, Flags: messages.FlagRead}, {UserID: reader}})
	})
}

// markUnread clears the reader's read flag on ids.
func markUnread(b *testing.B, store storage.Storage, reader users.ID, ids []messages.ID) {
	b.Helper()
	err := store.Update(b.Context(), func(tx storage.Tx) error {
		for i := 0; i < len(ids); i += 5000 {
			if _, err := tx.Messages().SetFlags(reader, ids[i:min(i+5000, len(ids))], 0, messages.FlagRead); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
}
