package chat_test

import (
	"fmt"
	"io"
	"log/slog"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/internal/benchorg"
	"github.com/teamchat/chat/internal/cputime"
	"github.com/teamchat/chat/internal/latency"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/storage/memory"
	"github.com/teamchat/chat/users"
)

// Benchmarks of the Service's hot paths, on every backend of benchBackends. Run them with
//
//	go test -run '^$' -bench . -benchmem .
//
// BENCHMARKS.md has the numbers and how to compare runs with benchstat.

// benchBackend opens an empty store for a benchmark.
type benchBackend struct {
	name string
	open func(b *testing.B) storage.Storage
}

// benchBackends lists the backends the benchmarks run on.
func benchBackends() []benchBackend {
	return append([]benchBackend{
		{"memory", func(*testing.B) storage.Storage { return memory.New() }},
	}, sqlBenchBackends()...)
}

// benchService starts a Service with an organization on store, with a quiet logger and no rate
// limits.
func benchService(b *testing.B, store storage.Storage, opts ...func(*chat.Options)) *chat.Service {
	b.Helper()
	o := chat.Options{Store: store, HeartbeatWait: time.Hour, Logger: quietLogger()}
	for _, f := range opts {
		f(&o)
	}
	svc, err := chat.New(o)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { svc.Close(); store.Close() })
	if _, err := svc.CreateOrganization(b.Context(), chat.CreateOrganizationParams{
		Name: "Bench Org", URL: "https://chat.example.com/", EmailVisibility: users.EmailVisibleAdmins,
	}); err != nil {
		b.Fatal(err)
	}
	return svc
}

// benchOrg builds a Service with spec's organization on a fresh store of backend.
func benchOrg(b *testing.B, be benchBackend, spec benchorg.Spec, opts ...func(*chat.Options)) (*chat.Service, storage.Storage, *benchorg.Org) {
	b.Helper()
	store := be.open(b)
	svc := benchService(b, store, opts...)
	org, err := benchorg.Build(b.Context(), svc, store, spec)
	if err != nil {
		b.Fatal(err)
	}
	return svc, store, org
}

// bigOrg is the organization of the register and subscription benchmarks: 10,000 members,
// 1,000 channels, each member subscribed to 20.
var bigOrg = benchorg.Spec{Users: 10000, Channels: 1000, SubsPerUser: 20}

// BenchmarkRegisterQueue registers a queue with the full initial state for a member subscribed
// to 100 and 1,000 channels in an organization of 10,000 users.
func BenchmarkRegisterQueue(b *testing.B) {
	for _, be := range benchBackends() {
		b.Run(be.name, func(b *testing.B) {
			svc, store, org := benchOrg(b, be, bigOrg)
			ctx := b.Context()
			me := chat.Actor{UserID: org.Members[0]}
			for _, subs := range []int{100, 1000} {
				if err := benchorg.SubscribeUser(ctx, store, org, me.UserID, subs); err != nil {
					b.Fatal(err)
				}
				b.Run("subs="+strconv.Itoa(subs), func(b *testing.B) {
					b.ReportAllocs()
					defer reportCPU(b)()
					defer reportStatements(b, store)()
					for b.Loop() {
						res, err := svc.RegisterQueue(ctx, me, chat.RegisterQueueParams{})
						if err != nil {
							b.Fatal(err)
						}
						if res.ChannelsState == nil || len(*res.Subscriptions) != subs {
							b.Fatalf("subscriptions of register: %+v, want %d", res.ChannelsState, subs)
						}
						if _, err := svc.DeleteQueue(ctx, me, chat.DeleteQueueParams{QueueID: *res.QueueID}); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		})
	}
}

// BenchmarkGetSubscriptions lists the subscriptions of a member with 20 (and 1,000) of them in
// the 10,000-user organization.
func BenchmarkGetSubscriptions(b *testing.B) {
	for _, be := range benchBackends() {
		b.Run(be.name, func(b *testing.B) {
			svc, store, org := benchOrg(b, be, bigOrg)
			ctx := b.Context()
			me := chat.Actor{UserID: org.Members[0]}
			for _, subs := range []int{20, 1000} {
				if err := benchorg.SubscribeUser(ctx, store, org, me.UserID, subs); err != nil {
					b.Fatal(err)
				}
				b.Run("subs="+strconv.Itoa(subs), func(b *testing.B) {
					b.ReportAllocs()
					defer reportCPU(b)()
					for b.Loop() {
						res, err := svc.GetSubscriptions(ctx, me, chat.GetSubscriptionsParams{})
						if err != nil {
							b.Fatal(err)
						}
						if len(res.Subscriptions) != subs {
							b.Fatalf("%d subscriptions, want %d", len(res.Subscriptions), subs)
						}
					}
				})
			}
		})
	}
}

// BenchmarkSubscribe subscribes 1 and 1,000 principals to an existing channel in one request
// (a fresh channel per iteration, created outside the timer).
func BenchmarkSubscribe(b *testing.B) {
	for _, be := range benchBackends() {
		b.Run(be.name, func(b *testing.B) {
			svc, _, org := benchOrg(b, be, bigOrg)
			ctx := b.Context()
			n := 0
			for _, count := range []int{1, 1000} {
				b.Run("principals="+strconv.Itoa(count), func(b *testing.B) {
					b.ReportAllocs()
					defer reportCPU(b)()
					for b.Loop() {
						b.StopTimer()
						n++
						name := fmt.Sprintf("bench subscribe %d", n)
						req := []chat.SubscriptionRequest{{Name: name}}
						if _, err := svc.Subscribe(ctx, org.Admin, chat.SubscribeParams{Subscriptions: req}); err != nil {
							b.Fatal(err)
						}
						principals := org.Members[(n*count)%(len(org.Members)-count):][:count]
						b.StartTimer()
						res, err := svc.Subscribe(ctx, org.Admin, chat.SubscribeParams{
							Subscriptions: req, Principals: chat.Principals{IDs: principals},
						})
						if err != nil {
							b.Fatal(err)
						}
						if len(res.Subscribed) != count {
							b.Fatalf("%d subscribed, want %d", len(res.Subscribed), count)
						}
					}
				})
			}
		})
	}
}

// BenchmarkServiceFanout: 10,000 members subscribed to one channel each hold a queue with a
// waiting long-poll (GetEvents); one message sent to the channel is timed until the last
// long-poll returned. p50/p99/max are the per-queue latencies from the start of SendMessage.
func BenchmarkServiceFanout(b *testing.B) {
	for _, be := range benchBackends() {
		b.Run(be.name, func(b *testing.B) {
			svc, _, org := benchOrg(b, be, benchorg.Spec{Users: 10000, Channels: 1, SubsPerUser: 1})
			ctx := b.Context()
			n := len(org.Members)
			queues := make([]string, n)
			for i, id := range org.Members {
				res, err := svc.RegisterQueue(ctx, chat.Actor{UserID: id}, chat.RegisterQueueParams{
					EventTypes: []string{"message"}, FetchEventTypes: []string{},
				})
				if err != nil {
					b.Fatal(err)
				}
				queues[i] = *res.QueueID
			}
			var (
				mu      sync.RWMutex
				started time.Time
				lat     = make([]time.Duration, n)
				round   sync.WaitGroup
				all     sync.WaitGroup
				next    = make([]chan int64, n)
			)
			for i := range n {
				next[i] = make(chan int64, 1)
				all.Add(1)
				go func() {
					defer all.Done()
					actor := chat.Actor{UserID: org.Members[i]}
					for last := range next[i] {
						res, err := svc.GetEvents(ctx, actor, chat.GetEventsParams{QueueID: queues[i], LastEventID: &last})
						mu.RLock()
						lat[i] = time.Since(started)
						mu.RUnlock()
						if err != nil || len(res.Events) == 0 {
							b.Errorf("queue %d: %d events, %v", i, len(res.Events), err)
						}
						round.Done()
					}
				}()
			}
			b.Cleanup(func() {
				for _, c := range next {
					close(c)
				}
				all.Wait()
			})
			var rounds latency.Rounds
			it := 0
			b.ReportAllocs()
			for b.Loop() {
				b.StopTimer()
				round.Add(n)
				for i := range n {
					// Each round's message is event 0, 1, 2, ... of every queue.
					next[i] <- int64(it) - 1
				}
				time.Sleep(50 * time.Millisecond) // the long-polls attach
				b.StartTimer()
				mu.Lock()
				started = time.Now()
				mu.Unlock()
				if _, err := svc.SendMessage(ctx, org.Admin, chat.SendMessageParams{
					Type: "stream", ChannelID: &org.Channels[0], Topic: ptrTo("fan-out"), Content: "hello everyone",
				}); err != nil {
					b.Fatal(err)
				}
				round.Wait()
				b.StopTimer()
				rounds.Add(lat)
				it++
				b.StartTimer()
			}
			rounds.Report(b)
		})
	}
}

// BenchmarkIdleQueueHeap registers one queue for each of 10,000 members (as a client asking
// for message and subscription events would) and reports the heap each idle queue holds.
func BenchmarkIdleQueueHeap(b *testing.B) {
	be := benchBackends()[0]
	svc, _, org := benchOrg(b, be, benchorg.Spec{Users: 10000})
	ctx := b.Context()
	var perQueue float64
	b.ReportAllocs()
	for b.Loop() {
		before := liveHeap()
		ids := make([]string, len(org.Members))
		for i, id := range org.Members {
			res, err := svc.RegisterQueue(ctx, chat.Actor{UserID: id}, chat.RegisterQueueParams{
				EventTypes: []string{"message", "subscription", "realm_user"}, FetchEventTypes: []string{},
			})
			if err != nil {
				b.Fatal(err)
			}
			ids[i] = *res.QueueID
		}
		perQueue = float64(liveHeap()-before) / float64(len(ids))
		for i, id := range org.Members {
			if _, err := svc.DeleteQueue(ctx, chat.Actor{UserID: id}, chat.DeleteQueueParams{QueueID: ids[i]}); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(perQueue, "B/queue")
}

func liveHeap() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

func quietLogger() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

func ptrTo[T any](v T) *T { return &v }

// BenchmarkSendMessage sends a message to a channel with 10 and with 10,000 subscribers (no
// queues: the cost of the write and of deciding the recipients).
func BenchmarkSendMessage(b *testing.B) {
	for _, be := range benchBackends() {
		b.Run(be.name, func(b *testing.B) {
			svc, store, org := benchOrg(b, be, benchorg.Spec{Users: 10000, Channels: 1, SubsPerUser: 1})
			ctx := b.Context()
			// A second channel with 10 subscribers; the first has everyone.
			if _, err := svc.Subscribe(ctx, org.Admin, chat.SubscribeParams{
				Subscriptions: []chat.SubscriptionRequest{{Name: "small"}},
				Principals:    chat.Principals{IDs: org.Members[:9]},
			}); err != nil {
				b.Fatal(err)
			}
			small, err := svc.GetStreams(ctx, org.Admin, chat.GetStreamsParams{})
			if err != nil {
				b.Fatal(err)
			}
			ids := map[string]channels.ID{}
			for _, c := range small.Streams {
				ids[c.Name] = c.StreamID
			}
			for _, c := range []struct {
				name string
				id   channels.ID
			}{{"subscribers=10", ids["small"]}, {"subscribers=10000", org.Channels[0]}} {
				b.Run(c.name, func(b *testing.B) {
					b.ReportAllocs()
					defer reportCPU(b)()
					defer reportStatements(b, store)()
					for b.Loop() {
						if _, err := svc.SendMessage(ctx, org.Admin, chat.SendMessageParams{
							Type: "stream", ChannelID: &c.id, Topic: ptrTo("bench"), Content: "a message",
						}); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		})
	}
}

// reportStatements reports the statements store sent per iteration as stmts/op, and its round
// trips to the database as trips/op, when the returned function runs (defer it before the
// loop); nothing for a store that does not count them (memory).
func reportStatements(b *testing.B, store storage.Storage) func() {
	c, ok := store.(interface{ Statements() uint64 })
	if !ok {
		return func() {}
	}
	start := c.Statements()
	trips, countsTrips := store.(interface{ RoundTrips() uint64 })
	var tripsStart uint64
	if countsTrips {
		tripsStart = trips.RoundTrips()
	}
	return func() {
		if b.N > 0 {
			b.ReportMetric(float64(c.Statements()-start)/float64(b.N), "stmts/op")
			if countsTrips {
				b.ReportMetric(float64(trips.RoundTrips()-tripsStart)/float64(b.N), "trips/op")
			}
		}
	}
}

// reportCPU reports the process's CPU time per iteration as cpu-ms/op when the returned
// function runs (defer it before the loop).
func reportCPU(b *testing.B) func() {
	start := cputime.Process()
	return func() {
		if b.N > 0 {
			b.ReportMetric(float64(cputime.Process()-start)/float64(b.N)/float64(time.Millisecond), "cpu-ms/op")
		}
	}
}

// BenchmarkDeleteTopic deletes a topic of 10,000 messages (each received by 10 users) from a
// channel of the 10,000-user organization, with the default batch size and a budget large
// enough to finish in one request. The messages are written through the store outside the
// timer.
func BenchmarkDeleteTopic(b *testing.B) {
	const n = 10000
	for _, be := range benchBackends() {
		b.Run(be.name, func(b *testing.B) {
			svc, store, org := benchOrg(b, be, benchorg.Spec{Users: 10000, Channels: 1, SubsPerUser: 1})
			ctx := b.Context()
			channel := org.Channels[0]
			b.ReportAllocs()
			defer reportCPU(b)()
			for b.Loop() {
				b.StopTimer()
				err := store.Update(ctx, func(tx storage.Tx) error {
					for i := range n {
						rows := make([]messages.UserMessage, 10)
						for j := range rows {
							rows[j].UserID = org.Members[j]
						}
						if _, err := tx.Messages().Create(messages.Message{
							SenderID: org.Members[i%10], ChannelID: channel, Topic: "doomed", Content: "m",
							Rendered: "<p>m</p>", Timestamp: time.Now().Unix(), Client: "bench",
						}, rows); err != nil {
							return err
						}
					}
					return nil
				})
				if err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				res, err := svc.DeleteTopic(ctx, org.Admin, chat.DeleteTopicParams{StreamID: channel, TopicName: "doomed"})
				if err != nil || !res.Complete {
					b.Fatalf("DeleteTopic: %+v, %v", res, err)
				}
			}
		})
	}
}
