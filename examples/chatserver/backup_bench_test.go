package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/storage/sqlstore"
	"github.com/teamchat/chat/users"
)

// backupSenders is how many users send at once during BenchmarkLiveBackup.
const backupSenders = 8

// BenchmarkLiveBackup backs up a live SQLite store while 8 users send messages through the
// Service serving it: the store holds the development organization and
// CHAT_BENCH_TRANSFER_MESSAGES channel messages (100,000 by default), the senders run for a
// window of 15 s without a backup, then while `chatserver backup` runs as a process on the
// same file, then 15 s again. It reports the send rate of the three windows, the backup's
// wall time, archive size and peak RSS, and restores the archive (`chatserver import`) to
// check that it holds every message the store held when the backup started. Run it once:
//
//	go test -run '^$' -bench LiveBackup -benchtime 1x -timeout 1h ./examples/chatserver
func BenchmarkLiveBackup(b *testing.B) {
	n := benchTransferMessages(b)
	bin := buildServer(b)
	dir := filepath.Dir(bin)
	dsn := "sqlite:" + filepath.Join(dir, "live.db")
	fillStore(b, dsn, n)
	ctx := b.Context()
	st, svc := openService(b, dsn)
	defer st.Close()
	defer svc.Close()
	senders, denmark := backupActors(b, st)
	for range b.N {
		var sent atomic.Int64
		sendCtx, stop := context.WithCancel(ctx)
		var wg sync.WaitGroup
		errs := make(chan error, len(senders))
		for i, actor := range senders {
			wg.Go(func() {
				for j := 0; sendCtx.Err() == nil; j++ {
					topic := fmt.Sprintf("sender %d", i)
					_, err := svc.SendMessage(sendCtx, actor, chat.SendMessageParams{Type: "stream", ChannelName: "Denmark", Topic: &topic,
						Content: fmt.Sprintf("live message %d of sender %d", j, i)})
					if err != nil && sendCtx.Err() == nil {
						errs <- err
						return
					}
					sent.Add(1)
				}
			})
		}
		time.Sleep(2 * time.Second) // the senders warm up
		before, quiet := sent.Load(), time.Now()
		time.Sleep(15 * time.Second)
		quietRate := float64(sent.Load()-before) / time.Since(quiet).Seconds()

		atStart := channelMessages(b, st, denmark)
		archive := filepath.Join(dir, "backup.tar.gz")
		before = sent.Load()
		elapsed, rss := measure(b, bin, "backup", "--store", dsn, "--uploads", filepath.Join(dir, "uploads"), "--out", archive)
		busyRate := float64(sent.Load()-before) / elapsed.Seconds()
		before, quiet = sent.Load(), time.Now()
		time.Sleep(15 * time.Second)
		afterRate := float64(sent.Load()-before) / time.Since(quiet).Seconds()
		stop()
		wg.Wait()
		close(errs)
		for err := range errs {
			b.Fatalf("send during the benchmark: %v", err)
		}
		fi, err := os.Stat(archive)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(quietRate, "sends/s-before-backup")
		b.ReportMetric(busyRate, "sends/s-during-backup")
		b.ReportMetric(afterRate, "sends/s-after-backup")
		b.ReportMetric(elapsed.Seconds(), "backup-s")
		b.ReportMetric(float64(fi.Size())/(1<<20), "backup-MiB")
		b.ReportMetric(rss, "backup-maxrss-MiB")
		b.ReportMetric(0, "ns/op")
		checkRestored(b, bin, archive, filepath.Join(dir, "restored.db"), denmark, atStart)
	}
}

// backupActors are the senders of BenchmarkLiveBackup, the organization's active humans in
// turn, and the channel they send to.
func backupActors(b *testing.B, st storage.Storage) ([]chat.Actor, channels.ID) {
	b.Helper()
	people, denmark := devOrg(b, st)
	var humans []users.ID
	for _, u := range people {
		if u.IsActive && !u.IsBot() && u.Role != users.RoleGuest {
			humans = append(humans, u.ID)
		}
	}
	if len(humans) == 0 {
		b.Fatal("the development organization has no active member")
	}
	out := make([]chat.Actor, backupSenders)
	for i := range out {
		out[i] = chat.Actor{UserID: humans[i%len(humans)]}
	}
	return out, denmark.ID
}

// channelMessages is how many messages channel c of st holds.
func channelMessages(b *testing.B, st storage.Storage, c channels.ID) int {
	b.Helper()
	var acts []storage.ChannelActivity
	err := st.View(b.Context(), func(tx storage.ReadTx) (err error) {
		acts, err = tx.Messages().Activity([]channels.ID{c}, 0, 0)
		return err
	})
	if err != nil || len(acts) != 1 {
		b.Fatalf("count the messages of channel %d: %v (%d summaries)", c, err, len(acts))
	}
	return acts[0].RecentCount
}

// checkRestored restores archive into the new SQLite store at path with `chatserver import`
// and fails unless channel c holds at least want messages there.
func checkRestored(b *testing.B, bin, archive, path string, c channels.ID, want int) {
	b.Helper()
	os.Remove(path)
	dsn := "sqlite:" + path
	measure(b, bin, "import", "--store", dsn, "--uploads", filepath.Join(filepath.Dir(path), "restored-uploads"), archive)
	st, err := sqlstore.Open(b.Context(), dsn)
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	if got := channelMessages(b, st, c); got < want {
		b.Fatalf("the backup holds %d messages of the channel; the store held %d when it started", got, want)
	} else {
		b.Logf("the restored backup holds %d messages of the channel, the store held %d when the backup started", got, want)
	}
}
