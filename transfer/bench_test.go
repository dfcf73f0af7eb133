package transfer_test

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	chat "github.com/teamchat/chat"
	blobmemory "github.com/teamchat/chat/blobs/memory"
	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/seeds"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/storage/sqlstore"
	"github.com/teamchat/chat/transfer"
	"github.com/teamchat/chat/users"
)

// benchMessages is the size of the benchmarks' organization.
const benchMessages = 100_000

// bigOrg is the development organization on SQLite with n channel messages, each with rows
// for ten users, written straight into the store (the Service's send path is measured
// elsewhere).
func bigOrg(b *testing.B, n int) *sqlstore.Store {
	b.Helper()
	st, err := sqlstore.Open(b.Context(), "sqlite:"+filepath.Join(b.TempDir(), "big.db")+"?synchronous=OFF")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	svc, err := chat.New(chat.Options{Store: st})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := seeds.Dev("pw").Apply(b.Context(), svc, "http://chat.test"); err != nil {
		b.Fatal(err)
	}
	svc.Close()
	var people []users.User
	if err := st.View(b.Context(), func(tx storage.ReadTx) error {
		people, err = tx.Users().List()
		return err
	}); err != nil {
		b.Fatal(err)
	}
	var denmark int64
	if err := st.View(b.Context(), func(tx storage.ReadTx) error {
		c, err := tx.Channels().GetByName("Denmark")
		denmark = int64(c.ID)
		return err
	}); err != nil {
		b.Fatal(err)
	}
	for start := 0; start < n; start += 5000 {
		err := st.Update(b.Context(), func(tx storage.Tx) error {
			for i := start; i < min(start+5000, n); i++ {
				sender := people[i%10]
				rows := make([]messages.UserMessage, 10)
				for j := range rows {
					rows[j] = messages.UserMessage{UserID: people[j].ID, Flags: messages.Flags(j % 3)}
				}
				m := messages.Message{SenderID: sender.ID, ChannelID: channels.ID(denmark), Topic: fmt.Sprintf("topic %d", i%100),
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
	return st
}

// peakHeap samples the heap in use until stop is called and returns the peak, in bytes.
func peakHeap() (stop func() uint64) {
	var peak atomic.Uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(20 * time.Millisecond)
		defer t.Stop()
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			if ms.HeapInuse > peak.Load() {
				peak.Store(ms.HeapInuse)
			}
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	})
	return func() uint64 { close(done); wg.Wait(); return peak.Load() }
}

func maxRSS() int64 {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Maxrss // KiB on Linux
}

// BenchmarkExportImport100k exports an organization of 100,000 messages from SQLite in
// Zulip's format and imports it into an empty SQLite store, reporting each phase's time, the
// peak of the Go heap during it and the process's peak RSS after it.
func BenchmarkExportImport100k(b *testing.B) {
	st := bigOrg(b, benchMessages)
	dir := b.TempDir()
	b.Run("export", func(b *testing.B) {
		b.StopTimer()
		for i := range b.N {
			out := filepath.Join(dir, fmt.Sprint(i))
			runtime.GC()
			stop := peakHeap()
			b.StartTimer()
			res, err := transfer.ExportDir(b.Context(), st, blobmemory.New(), out, transfer.ExportOptions{})
			b.StopTimer()
			peak := stop()
			if err != nil || res.Messages < benchMessages {
				b.Fatalf("export: %+v, %v", res, err)
			}
			b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
			b.ReportMetric(float64(maxRSS())/1024, "maxrss-MiB")
		}
	})
	b.Run("import", func(b *testing.B) {
		b.StopTimer()
		if _, err := os.Stat(filepath.Join(dir, "0", "realm.json")); err != nil { // run alone: export first
			if _, err := transfer.ExportDir(b.Context(), st, nil, filepath.Join(dir, "0"), transfer.ExportOptions{}); err != nil {
				b.Fatal(err)
			}
		}
		for range b.N {
			target, err := sqlstore.Open(b.Context(), "sqlite:"+filepath.Join(b.TempDir(), "imported.db")+"?synchronous=OFF")
			if err != nil {
				b.Fatal(err)
			}
			runtime.GC()
			stop := peakHeap()
			b.StartTimer()
			res, err := transfer.ImportDir(b.Context(), target, blobmemory.New(), filepath.Join(dir, "0"), transfer.ImportOptions{})
			b.StopTimer()
			peak := stop()
			target.Close()
			if err != nil || res.Messages < benchMessages {
				b.Fatalf("import: %+v, %v", res, err)
			}
			b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
			b.ReportMetric(float64(maxRSS())/1024, "maxrss-MiB")
		}
	})
}
