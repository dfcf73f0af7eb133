package chat_test

import (
	"database/sql"
	"os"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/internal/benchorg"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/storage/sqlstore"
	"github.com/teamchat/chat/users"
)

// BenchmarkRetentionPass fills a store (SQLite; PostgreSQL too when CHAT_TEST_POSTGRES_URL is
// set, in a schema of its own) with RETENTION_BENCH_MESSAGES messages (default 100,000) in one
// channel with 30 days of retention, 10% of them older than that, then
// measures the rate of sends to another channel alone (sends/s-idle) and while one retention
// pass archives the expired ones (sends/s-during-pass), and the pass's own rate;
// RETENTION_BENCH_BATCH sets Options.RetentionBatchSize. On PostgreSQL the filled tables are
// analyzed before the pass (RETENTION_BENCH_ANALYZE=0: not). Run it once:
//
//	go test -run '^$' -bench 'BenchmarkRetentionPass/sqlite' -benchtime 1x .
func BenchmarkRetentionPass(b *testing.B) {
	total := 100_000
	if v, err := strconv.Atoi(os.Getenv("RETENTION_BENCH_MESSAGES")); err == nil && v > 0 {
		total = v
	}
	for _, backend := range sqlBenchBackends() {
		var analyze func(b *testing.B)
		if base := os.Getenv("CHAT_TEST_POSTGRES_URL"); backend.name == "postgres" && os.Getenv("RETENTION_BENCH_ANALYZE") != "0" {
			// The filled tables analyzed, as autovacuum would have done in service (the test
			// server may run without it): without statistics the planner reads a batch's
			// user_messages by a merge join over the whole index.
			var dsn string
			backend.open = func(b *testing.B) storage.Storage {
				dsn = benchSchema(b, base)
				s, err := sqlstore.Open(b.Context(), dsn)
				if err != nil {
					b.Fatal(err)
				}
				return s
			}
			analyze = func(b *testing.B) {
				db, err := sql.Open("pgx", dsn)
				if err != nil {
					b.Fatal(err)
				}
				defer db.Close()
				if _, err := db.ExecContext(b.Context(), "ANALYZE"); err != nil {
					b.Fatal(err)
				}
			}
		}
		b.Run(backend.name, func(b *testing.B) {
			for b.Loop() {
				retentionPassOnce(b, backend, total, analyze)
			}
		})
	}
}

func retentionPassOnce(b *testing.B, backend benchBackend, total int, analyze func(*testing.B)) {
	ctx := b.Context()
	batch := 0 // the default, retention.DefaultBatchSize
	if v, err := strconv.Atoi(os.Getenv("RETENTION_BENCH_BATCH")); err == nil && v > 0 {
		batch = v
	}
	svc, store, org := benchOrg(b, backend, benchorg.Spec{Users: 20, Channels: 2, SubsPerUser: 2},
		func(o *chat.Options) { o.RetentionBatchSize = batch })
	owner, err := svc.ProvisionUser(ctx, chat.ProvisionUserParams{Email: "owner@load.example.com", FullName: "Owner", Role: users.RoleOwner})
	if err != nil {
		b.Fatal(err)
	}
	thirty := "30"
	if _, err := svc.UpdateStream(ctx, chat.Actor{UserID: owner.UserID}, chat.UpdateStreamParams{StreamID: org.Channels[0], MessageRetentionDays: &thirty}); err != nil {
		b.Fatal(err)
	}
	now := svc.Now().Unix()
	rows := make([]messages.UserMessage, 0, len(org.Members)/2+1)
	rows = append(rows, messages.UserMessage{UserID: org.Admin.UserID, Flags: messages.FlagRead})
	for i := 0; i < len(org.Members); i += 2 {
		rows = append(rows, messages.UserMessage{UserID: org.Members[i]})
	}
	expired := total / 10
	start := time.Now()
	const fillBatch = 5000
	for done := 0; done < total; done += fillBatch {
		if err := store.Update(ctx, func(tx storage.Tx) error {
			for i := done; i < min(done+fillBatch, total); i++ {
				ts := now - 86400
				if i < expired {
					ts = now - 40*86400
				}
				m := messages.Message{SenderID: org.Admin.UserID, ChannelID: org.Channels[0], Topic: "topic " + strconv.Itoa(i%50),
					Content: "message " + strconv.Itoa(i), Rendered: "<p>message " + strconv.Itoa(i) + "</p>", Timestamp: ts, Client: "bench"}
				if _, err := tx.Messages().Create(m, rows); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			b.Fatal(err)
		}
	}
	b.Logf("filled %d messages (%d expired) in %v", total, expired, time.Since(start).Round(time.Millisecond))
	if analyze != nil {
		start := time.Now()
		analyze(b)
		b.Logf("analyzed in %v", time.Since(start).Round(time.Millisecond))
	}

	topic := "load"
	send := func() {
		if _, err := svc.SendMessage(ctx, org.Admin, chat.SendMessageParams{Type: "stream", ChannelID: &org.Channels[1], Topic: &topic, Content: "hello"}); err != nil {
			b.Fatal(err)
		}
	}
	// Sends alone, for as long as the pass will roughly take (at least 2s).
	sendFor := func(stop func() bool) (int, time.Duration) {
		n, t0 := 0, time.Now()
		for !stop() {
			send()
			n++
		}
		return n, time.Since(t0)
	}
	idleEnd := time.Now().Add(3 * time.Second)
	idleN, idleD := sendFor(func() bool { return time.Now().After(idleEnd) })

	var finished atomic.Bool
	var res chat.ArchiveMessagesResult
	var passErr error
	var passD time.Duration
	go func() {
		t0 := time.Now()
		res, passErr = svc.ArchiveMessages(ctx, chat.ArchiveMessagesParams{})
		passD = time.Since(t0)
		finished.Store(true)
	}()
	duringN, duringD := sendFor(finished.Load)
	if passErr != nil {
		b.Fatal(passErr)
	}
	if res.Archived != expired {
		b.Fatalf("pass archived %d messages, want %d", res.Archived, expired)
	}
	b.ReportMetric(float64(idleN)/idleD.Seconds(), "sends/s-idle")
	b.ReportMetric(float64(duringN)/duringD.Seconds(), "sends/s-during-pass")
	b.ReportMetric(passD.Seconds(), "pass-s")
	b.ReportMetric(float64(res.Archived)/passD.Seconds(), "archived/s")
	b.Logf("pass: %d messages in %d archives in %v; sends: %d in %v idle, %d in %v during the pass",
		res.Archived, len(res.Archives), passD.Round(time.Millisecond), idleN, idleD.Round(time.Millisecond), duringN, duringD.Round(time.Millisecond))
}
