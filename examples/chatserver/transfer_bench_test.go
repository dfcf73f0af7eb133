package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/internal/pgtest"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/seeds"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// benchTransferMessages is the size of BenchmarkTransferCommands' organization:
// CHAT_BENCH_TRANSFER_MESSAGES, 100,000 by default.
func benchTransferMessages(b *testing.B) int {
	b.Helper()
	s := os.Getenv("CHAT_BENCH_TRANSFER_MESSAGES")
	if s == "" {
		return 100_000
	}
	n, err := strconv.Atoi(s)
	if err != nil || n <= 0 {
		b.Fatalf("CHAT_BENCH_TRANSFER_MESSAGES=%q: want a positive number", s)
	}
	return n
}

// fillStore gives the SQLite store at dsn the development organization and n channel
// messages with rows for ten users each, written straight into the store 5,000 per
// transaction (the setup, not measured: the Service's send path is measured elsewhere).
func fillStore(b *testing.B, dsn string, n int) {
	b.Helper()
	st, svc := openService(b, dsn+"?synchronous=OFF")
	defer st.Close()
	if _, err := seeds.Dev("pw").Apply(b.Context(), svc, "http://chat.test"); err != nil {
		b.Fatal(err)
	}
	svc.Close()
	people, denmark := devOrg(b, st)
	for start := 0; start < n; start += 5000 {
		err := st.Update(b.Context(), func(tx storage.Tx) error {
			for i := start; i < min(start+5000, n); i++ {
				rows := make([]messages.UserMessage, 10)
				for j := range rows {
					rows[j] = messages.UserMessage{UserID: people[j].ID, Flags: messages.Flags(j % 3)}
				}
				m := messages.Message{SenderID: people[i%10].ID, ChannelID: denmark.ID, Topic: fmt.Sprintf("topic %d", i%100),
					Content: fmt.Sprintf("message **%d** of the benchmark", i), Rendered: fmt.Sprintf("<p>message <strong>%d</strong> of the benchmark</p>", i),
					Timestamp: 1700000000 + int64(i), Client: "website"}
				if _, err := tx.Messages().Create(m, rows); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
}

// openService opens the store at dsn as serve does and a Service on it; the caller closes
// both.
func openService(b *testing.B, dsn string) (storage.Storage, *chat.Service) {
	b.Helper()
	st, err := openStore(b.Context(), dsn)
	if err != nil {
		b.Fatal(err)
	}
	svc, err := chat.New(chat.Options{Store: st})
	if err != nil {
		st.Close()
		b.Fatal(err)
	}
	return st, svc
}

// devOrg reads the users of the development organization in st and its channel Denmark.
func devOrg(b *testing.B, st storage.Storage) ([]users.User, channels.Channel) {
	b.Helper()
	var people []users.User
	var denmark channels.Channel
	err := st.View(b.Context(), func(tx storage.ReadTx) (err error) {
		if people, err = tx.Users().List(); err != nil {
			return err
		}
		denmark, err = tx.Channels().GetByName("Denmark")
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	return people, denmark
}

// runMeasured runs the chatserver binary with args under /usr/bin/time and reports its
// wall time and peak RSS.
func runMeasured(b *testing.B, bin string, args ...string) {
	b.Helper()
	elapsed, rss := measure(b, bin, args...)
	b.ReportMetric(elapsed.Seconds(), "s")
	b.ReportMetric(rss, "maxrss-MiB")
	b.ReportMetric(0, "ns/op")
}

// measure runs the chatserver binary with args under /usr/bin/time and returns its wall time
// and peak RSS in MiB. (The child's own rusage would not do: a process started from the Go
// test's shares its memory until its exec, and Linux carries that high-water mark over.)
func measure(b *testing.B, bin string, args ...string) (time.Duration, float64) {
	b.Helper()
	const timeCmd = "/usr/bin/time"
	if _, err := os.Stat(timeCmd); err != nil {
		b.Skipf("%s is needed to measure the peak RSS: %v", timeCmd, err)
	}
	rss := filepath.Join(b.TempDir(), "maxrss")
	cmd := exec.CommandContext(b.Context(), timeCmd, append([]string{"-f", "%M", "-o", rss, bin}, args...)...)
	cmd.Env = append(os.Environ(), "GOMAXPROCS=2")
	start := time.Now()
	out, err := cmd.CombinedOutput()
	elapsed := time.Since(start)
	if err != nil {
		b.Fatalf("chatserver %v: %v\n%s", args, err, out)
	}
	text, err := os.ReadFile(rss)
	if err != nil {
		b.Fatal(err)
	}
	kib, err := strconv.ParseFloat(strings.TrimSpace(string(text)), 64)
	if err != nil {
		b.Fatalf("%s wrote %q: %v", timeCmd, text, err)
	}
	return elapsed, kib / 1024
}

// BenchmarkTransferCommands runs `chatserver export` and `chatserver import` as processes
// on an organization of CHAT_BENCH_TRANSFER_MESSAGES channel messages (the development
// organization plus that many messages with ten users' rows each), reporting each command's
// wall time and peak RSS (getrusage of the child): the export of the SQLite store to a
// tarball, its import into an empty SQLite store, and, when CHAT_TEST_POSTGRES_URL is set,
// its import into an empty PostgreSQL store and the export of that. Run it whole, once:
//
//	go test -run '^$' -bench TransferCommands -benchtime 1x -timeout 2h ./examples/chatserver
func BenchmarkTransferCommands(b *testing.B) {
	n := benchTransferMessages(b)
	bin := buildServer(b)
	dir := filepath.Dir(bin)
	src := "sqlite:" + filepath.Join(dir, "big.db")
	fillStore(b, src, n)
	tarball := filepath.Join(dir, "export.tar.gz")
	uploads := filepath.Join(dir, "uploads")
	b.Run(fmt.Sprintf("sqlite/export/%d", n), func(b *testing.B) {
		for range b.N {
			os.Remove(tarball)
			runMeasured(b, bin, "export", "--store", src, "--uploads", uploads, "--out", tarball)
		}
	})
	b.Run(fmt.Sprintf("sqlite/import/%d", n), func(b *testing.B) {
		for i := range b.N {
			target := "sqlite:" + filepath.Join(dir, fmt.Sprintf("imported-%d.db", i))
			runMeasured(b, bin, "import", "--store", target, "--uploads", filepath.Join(dir, fmt.Sprint("imported-uploads-", i)), tarball)
		}
	})
	if os.Getenv("CHAT_TEST_POSTGRES_URL") == "" {
		return
	}
	parent, pg := b, ""
	b.Run(fmt.Sprintf("postgres/import/%d", n), func(b *testing.B) {
		for i := range b.N {
			pg = pgtest.Schema(parent) // dropped at the end of the benchmark: the export reads it
			runMeasured(b, bin, "import", "--store", pg, "--uploads", filepath.Join(dir, fmt.Sprint("pg-uploads-", i)), tarball)
		}
	})
	b.Run(fmt.Sprintf("postgres/export/%d", n), func(b *testing.B) {
		out := filepath.Join(dir, "pg-export.tar.gz")
		for range b.N {
			os.Remove(out)
			runMeasured(b, bin, "export", "--store", pg, "--uploads", filepath.Join(dir, "pg-uploads-0"), "--out", out)
		}
	})
}
