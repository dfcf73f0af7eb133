package sqlstore_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/storage/memory"
	"github.com/teamchat/chat/users"
)

// Storage-level benchmarks, per backend: memory (the reference), SQLite (synchronous=FULL, a
// file in b.TempDir()) and PostgreSQL when CHAT_TEST_POSTGRES_URL is set (a fresh schema).
// Each measures one Update or View the Service issues on a hot path; numbers in BENCHMARKS.md.

type backend struct {
	name string
	open func(b *testing.B) storage.Storage
}

func backends(b *testing.B) []backend {
	list := []backend{
		{"memory", func(b *testing.B) storage.Storage { s := memory.New(); b.Cleanup(func() { s.Close() }); return s }},
		{"sqlite", func(b *testing.B) storage.Storage {
			return mustOpen(b, "sqlite:"+filepath.Join(b.TempDir(), "bench.db"))
		}},
	}
	if base := os.Getenv("CHAT_TEST_POSTGRES_URL"); base != "" {
		list = append(list, backend{"postgres", func(b *testing.B) storage.Storage { return mustOpen(b, freshSchema(b, base)) }})
	}
	return list
}

func mustUpdateB(b *testing.B, s storage.Storage, fn func(storage.Tx) error) {
	b.Helper()
	if err := s.Update(b.Context(), fn); err != nil {
		b.Fatal(err)
	}
}

// seedUsers creates n users in one transaction and returns their ids.
func seedUsers(b *testing.B, s storage.Storage, n int) []users.ID {
	b.Helper()
	out := make([]users.ID, 0, n)
	mustUpdateB(b, s, func(tx storage.Tx) error {
		for i := range n {
			id, err := tx.Users().Create(benchUser(i))
			if err != nil {
				return err
			}
			out = append(out, id)
		}
		return nil
	})
	return out
}

func benchUser(i int) users.User {
	return users.User{Email: fmt.Sprintf("bench%d@example.com", i), FullName: "Bench", Role: users.RoleMember,
		IsActive: true, APIKey: fmt.Sprintf("%032d", i), EmailVisibility: users.EmailVisibleEveryone}
}

// BenchmarkCreateUser is one Update creating one user (ProvisionUser's write).
func BenchmarkCreateUser(b *testing.B) {
	for _, be := range backends(b) {
		b.Run(be.name, func(b *testing.B) {
			s := be.open(b)
			i := 0
			for b.Loop() {
				i++
				mustUpdateB(b, s, func(tx storage.Tx) error { _, err := tx.Users().Create(benchUser(i)); return err })
			}
		})
	}
}

// BenchmarkSubscribe is one Update writing the subscription rows of n principals to a channel.
func BenchmarkSubscribe(b *testing.B) {
	for _, be := range backends(b) {
		for _, n := range []int{1, 1000} {
			b.Run(fmt.Sprintf("%s/principals=%d", be.name, n), func(b *testing.B) {
				s := be.open(b)
				ids := seedUsers(b, s, n)
				var ch channels.ID
				c := 0
				for b.Loop() {
					c++
					mustUpdateB(b, s, func(tx storage.Tx) (err error) {
						if ch, err = tx.Channels().Create(channels.Channel{Name: fmt.Sprintf("c%d", c)}); err != nil {
							return err
						}
						rows := make([]channels.Subscription, len(ids))
						for i, u := range ids {
							rows[i] = channels.Subscription{UserID: u, ChannelID: ch, Active: true, Color: "#76ce90"}
						}
						return tx.Subscriptions().Put(rows)
					})
				}
			})
		}
	}
}

// BenchmarkRegisterSubscriptions is the View register and GetSubscriptions issue for one user's
// subscriptions with n channels: the rows, the channels and every channel's subscribers.
func BenchmarkRegisterSubscriptions(b *testing.B) {
	for _, be := range backends(b) {
		for _, n := range []int{100, 1000} {
			b.Run(fmt.Sprintf("%s/subscriptions=%d", be.name, n), func(b *testing.B) {
				s := be.open(b)
				us := seedUsers(b, s, 10)
				mustUpdateB(b, s, func(tx storage.Tx) error {
					var rows []channels.Subscription
					for i := range n {
						ch, err := tx.Channels().Create(channels.Channel{Name: fmt.Sprintf("c%d", i)})
						if err != nil {
							return err
						}
						for _, u := range us {
							rows = append(rows, channels.Subscription{UserID: u, ChannelID: ch, Active: true})
						}
					}
					return tx.Subscriptions().Put(rows)
				})
				for b.Loop() {
					err := s.View(b.Context(), func(tx storage.ReadTx) error {
						subs, err := tx.Subscriptions().ListForUsers([]users.ID{us[0]})
						if err != nil {
							return err
						}
						ids := make([]channels.ID, len(subs))
						for i, sub := range subs {
							ids[i] = sub.ChannelID
						}
						if _, err := tx.Channels().GetMany(ids); err != nil {
							return err
						}
						all, err := tx.Subscriptions().ListForChannels(ids, true)
						if len(all) != n*len(us) {
							b.Fatalf("rows = %d, want %d", len(all), n*len(us))
						}
						return err
					})
					if err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkSendMessage is one Update storing a channel message with the rows of its recipients:
// a one-word message, and one of 40 words (what the search index costs grows with the words).
func BenchmarkSendMessage(b *testing.B) {
	long := strings.Repeat("the quick brown fox jumps over the lazy dog again ", 4)
	for _, be := range backends(b) {
		for _, c := range []struct {
			recipients int
			content    string
			name       string
		}{{10, "hello", "recipients=10"}, {1000, "hello", "recipients=1000"}, {10, long, "recipients=10/words=40"}} {
			b.Run(be.name+"/"+c.name, func(b *testing.B) {
				s := be.open(b)
				rows := make([]messages.UserMessage, c.recipients)
				for i := range rows {
					rows[i] = messages.UserMessage{UserID: users.ID(i + 1)}
				}
				for b.Loop() {
					mustUpdateB(b, s, func(tx storage.Tx) error {
						_, err := tx.Messages().Create(messages.Message{SenderID: 1, ChannelID: 1, Topic: "bench",
							Content: c.content, Rendered: "<p>" + c.content + "</p>", Timestamp: 1}, rows)
						return err
					})
				}
			})
		}
	}
}

// BenchmarkDeleteTopic deletes a topic of 10,000 messages (each with 10 user rows), in
// batches of 1,000 ids as the Service does.
func BenchmarkDeleteTopic(b *testing.B) {
	for _, be := range backends(b) {
		b.Run(be.name+"/messages=10000", func(b *testing.B) {
			s := be.open(b)
			rows := make([]messages.UserMessage, 10)
			for i := range rows {
				rows[i] = messages.UserMessage{UserID: users.ID(i + 1)}
			}
			for b.Loop() {
				b.StopTimer()
				mustUpdateB(b, s, func(tx storage.Tx) error {
					for range 10000 {
						if _, err := tx.Messages().Create(messages.Message{SenderID: 1, ChannelID: 1, Topic: "doomed",
							Content: "x", Timestamp: 1}, rows); err != nil {
							return err
						}
					}
					return nil
				})
				b.StartTimer()
				for {
					var done bool
					mustUpdateB(b, s, func(tx storage.Tx) error {
						ids, err := tx.Messages().TopicMessageIDs(1, "doomed", 1000)
						if err != nil {
							return err
						}
						done = len(ids) == 0
						return tx.Messages().Delete(ids)
					})
					if done {
						break
					}
				}
			}
		})
	}
}
