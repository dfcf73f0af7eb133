package chat_test

import (
	"context"
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
		s, err := sqlstore.Open(context.Background(), "sqlite:"+filepath.Join(b.TempDir(), "bench.db"))
		if err != nil {
			b.Fatal(err)
		}
		return s
	}}}
	if base := os.Getenv("CHAT_TEST_POSTGRES_URL"); base != "" {
		list = append(list, benchBackend{"postgres", func(b *testing.B) storage.Storage {
			s, err := sqlstore.Open(context.Background(), benchSchema(b, base))
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
	ctx := context.Background()
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
// channel of 10 subscribers in the 10,000-user organization; ns/op is the time per message
// of the whole group, so 1e9/ns-per-op is the messages per second. On PostgreSQL it is
// compared with pgbench's simple-update rate with 8 clients (BENCHMARKS.md).
func BenchmarkSendMessageParallel(b *testing.B) {
	for _, be := range benchBackends() {
		b.Run(be.name, func(b *testing.B) {
			svc, store, org := benchOrg(b, be, benchorg.Spec{Users: 10000, Channels: 1, SubsPerUser: 1})
			ctx := context.Background()
			res, err := svc.Subscribe(ctx, org.Admin, chat.SubscribeParams{
				Subscriptions: []chat.SubscriptionRequest{{Name: "small"}},
				Principals:    chat.Principals{IDs: org.Members[:10]},
			})
			if err != nil || len(res.Subscribed) != 10 {
				b.Fatalf("subscribe: %v", err)
			}
			var small channels.ID
			streams, err := svc.GetStreams(ctx, org.Admin, chat.GetStreamsParams{})
			if err != nil {
				b.Fatal(err)
			}
			for _, c := range streams.Streams {
				if c.Name == "small" {
					small = c.StreamID
				}
			}
			var next atomic.Int64
			b.SetParallelism(4) // 2 cores x 4 = 8 senders
			b.ReportAllocs()
			defer reportCPU(b)()
			defer reportStatements(b, store)()
			b.RunParallel(func(pb *testing.PB) {
				sender := chat.Actor{UserID: org.Members[next.Add(1)%10]}
				for pb.Next() {
					if _, err := svc.SendMessage(ctx, sender, chat.SendMessageParams{
						Type: "stream", ChannelID: &small, Topic: ptrTo("bench"), Content: "a message",
					}); err != nil {
						b.Error(err)
						return
					}
				}
			})
		})
	}
}
