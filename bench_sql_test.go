package chat_test

import (
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/internal/benchorg"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/storage/sqlstore"
)

// sqlBenchBackends adds SQLite (synchronous=FULL, in the benchmark's temporary directory) and,
// when CHAT_TEST_POSTGRES_URL is set, PostgreSQL (a fresh schema dropped afterwards).
func sqlBenchBackends() []benchBackend {
	list := []benchBackend{{"sqlite", func(b *testing.B) storage.Storage {
		s, err := sqlstore.Open(b.Context(), "sqlite:"+filepath.Join(b.TempDir(), "bench.db"))
		if err != nil {
			b.Fatal(err)
		}
		return s
	}}}
	if base := os.Getenv("CHAT_TEST_POSTGRES_URL"); base != "" {
		list = append(list, benchBackend{"postgres", func(b *testing.B) storage.Storage {
			s, err := sqlstore.Open(b.Context(), benchSchema(b, base))
			if err != nil {
				b.Fatal(err)
			}
			return s
		}})
	}
	return list
}

// benchSchema creates an empty PostgreSQL schema, dropped when the benchmark ends, and returns
// base with it as the search_path.
func benchSchema(b testing.TB, base string) string {
	b.Helper()
	db, err := sql.Open("pgx", base)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	name := fmt.Sprintf("bench_%d_%d", os.Getpid(), time.Now().UnixNano())
	if _, err := db.Exec("CREATE SCHEMA " + name); err != nil {
		b.Fatalf("create schema: %v", err)
	}
	b.Cleanup(func() {
		db, err := sql.Open("pgx", base)
		if err == nil {
			db.Exec("DROP SCHEMA " + name + " CASCADE")
			db.Close()
		}
	})
	u, err := url.Parse(base)
	if err != nil {
		b.Fatal(err)
	}
	q := u.Query()
	q.Set("search_path", name)
	u.RawQuery = q.Encode()
	return u.String()
}

// BenchmarkInsertBaselineSQLite is the baseline of sending on SQLite: a raw loop of one-row
// transactions into a fresh file in the same temporary directory, with the store's settings
// (WAL, synchronous=FULL, BEGIN IMMEDIATE). Compare its ns/op with
// BenchmarkSendMessage/sqlite/subscribers=10.
func BenchmarkInsertBaselineSQLite(b *testing.B) {
	dsn := filepath.Join(b.TempDir(), "raw.db") + "?_journal_mode=WAL&_synchronous=FULL&_txlock=immediate"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	if _, err := db.Exec("CREATE TABLE raw (id INTEGER PRIMARY KEY, sender BIGINT, topic TEXT, content TEXT, sent BIGINT)"); err != nil {
		b.Fatal(err)
	}
	ctx := b.Context()
	b.ReportAllocs()
	for b.Loop() {
		tx, err := db.BeginTx(ctx, nil)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := tx.Exec("INSERT INTO raw (sender, topic, content, sent) VALUES (?, ?, ?, ?)", 1, "bench", "a message", time.Now().Unix()); err != nil {
			b.Fatal(err)
		}
		if err := tx.Commit(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSendMessageParallel sends from 8 concurrent senders (each its own member) to a
// channel of 10 subscribers in the 10,000-user organization (channels=1), or each to a
// channel of its own (channels=8, the same 10 subscribers), or to one channel of 5,000
// subscribers (channels=1/members=5000); ns/op is the time per message of
// the whole group, so 1e9/ns-per-op is the messages per second. On PostgreSQL it is compared
// with pgbench's simple-update rate with 8 clients (BENCHMARKS.md). retries/op counts the
// transactions the store ran again (PostgreSQL: serialization failures of overlapping sends).
func BenchmarkSendMessageParallel(b *testing.B) {
	for _, be := range benchBackends() {
		b.Run(be.name, func(b *testing.B) {
			svc, store, org := benchOrg(b, be, benchorg.Spec{Users: 10000, Channels: 1, SubsPerUser: 1})
			ctx := b.Context()
			var names []chat.SubscriptionRequest
			for i := range 8 {
				names = append(names, chat.SubscriptionRequest{Name: fmt.Sprintf("small %d", i)})
			}
			if _, err := svc.Subscribe(ctx, org.Admin, chat.SubscribeParams{
				Subscriptions: names, Principals: chat.Principals{IDs: org.Members[:10]},
			}); err != nil {
				b.Fatalf("subscribe: %v", err)
			}
			if _, err := svc.Subscribe(ctx, org.Admin, chat.SubscribeParams{
				Subscriptions: []chat.SubscriptionRequest{{Name: "big 0"}}, Principals: chat.Principals{IDs: org.Members[:5000]},
			}); err != nil {
				b.Fatalf("subscribe: %v", err)
			}
			streams, err := svc.GetStreams(ctx, org.Admin, chat.GetStreamsParams{})
			if err != nil {
				b.Fatal(err)
			}
			ids := map[string]channels.ID{}
			for _, c := range streams.Streams {
				ids[c.Name] = c.StreamID
			}
			for _, spread := range []struct {
				name, prefix string
				channels     int64
			}{{"channels=1", "small", 1}, {"channels=8", "small", 8}, {"channels=1/members=5000", "big", 1}} {
				b.Run(spread.name, func(b *testing.B) {
					var next atomic.Int64
					b.SetParallelism(4) // 2 cores x 4 = 8 senders
					b.ReportAllocs()
					defer reportCPU(b)()
					defer reportStatements(b, store)()
					defer reportRetries(b, store)()
					defer reportGroupCommits(b, svc)()
					b.RunParallel(func(pb *testing.PB) {
						n := next.Add(1)
						sender := chat.Actor{UserID: org.Members[n%10]}
						to := ids[fmt.Sprintf("%s %d", spread.prefix, n%spread.channels)]
						for pb.Next() {
							if _, err := svc.SendMessage(ctx, sender, chat.SendMessageParams{
								Type: "stream", ChannelID: &to, Topic: ptrTo("bench"), Content: "a message",
							}); err != nil {
								b.Error(err)
								return
							}
						}
					})
				})
			}
		})
	}
}

// reportGroupCommits reports how many sends shared a commit on average (sends/commit: 1
// without group commit; SQLite's groups, internal/engine/commits.go), and the share of sends whose
// content was rendered while they waited for their group (prerendered/op,
// messages_prerender.go).
func reportGroupCommits(b *testing.B, svc *chat.Service) func() {
	groups0, grouped0 := svc.SharedCommits()
	_, taken0 := svc.Prerendered()
	return func() {
		groups, grouped := svc.SharedCommits()
		groups, grouped = groups-groups0, grouped-grouped0
		if commits := uint64(b.N) - grouped + groups; b.N > 0 && grouped > 0 {
			b.ReportMetric(float64(b.N)/float64(commits), "sends/commit")
		}
		if _, taken := svc.Prerendered(); b.N > 0 && taken > taken0 {
			b.ReportMetric(float64(taken-taken0)/float64(b.N), "prerendered/op")
		}
	}
}

// reportRetries reports the transactions store ran again per iteration as retries/op
// (nothing for a store that does not count them).
func reportRetries(b *testing.B, store storage.Storage) func() {
	c, ok := store.(interface{ Retries() uint64 })
	if !ok {
		return func() {}
	}
	start := c.Retries()
	return func() {
		if b.N > 0 {
			b.ReportMetric(float64(c.Retries()-start)/float64(b.N), "retries/op")
		}
	}
}
