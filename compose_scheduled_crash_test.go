package chat_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/storage/sqlstore"
)

// The tests of this file run the scheduler in helper processes (this test binary started
// again with CHAT_SCHEDULER_HELPER set), so that one can be killed with SIGKILL between its
// claim and its commit, and several can deliver from one PostgreSQL database at once.

// Environment of a helper process.
const (
	helperEnv    = "CHAT_SCHEDULER_HELPER" // "crash" or "deliver"
	helperDSNEnv = "CHAT_SCHEDULER_HELPER_DSN"
	helperNowEnv = "CHAT_SCHEDULER_HELPER_NOW" // the helper's clock, UNIX seconds
)

// TestSchedulerHelperProcess is the helper process; it does nothing in a normal run.
//
// "crash" delivers with a store that, once a batch has sent its messages and marked them
// delivered but before the commit, prints CLAIMED and waits to be killed. "deliver" waits
// for a line on standard input, delivers everything due in batches of 5 and prints
// "DELIVERED n".
func TestSchedulerHelperProcess(t *testing.T) {
	mode := os.Getenv(helperEnv)
	if mode == "" {
		t.Skip("helper process of TestScheduledDeliveryKilled and TestSchedulerThreeProcesses")
	}
	ctx := t.Context()
	store, err := sqlstore.Open(ctx, os.Getenv(helperDSNEnv))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	sec, _ := strconv.ParseInt(os.Getenv(helperNowEnv), 10, 64)
	opts := chat.Options{Store: store, Now: func() time.Time { return time.Unix(sec, 0) }, SchedulerBatchSize: 5}
	if mode == "crash" {
		opts.Store = crashBeforeCommit{store}
	}
	svc, err := chat.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	if mode == "deliver" {
		if _, err := bufio.NewReader(os.Stdin).ReadString('\n'); err != nil {
			t.Fatal(err)
		}
	}
	res, err := svc.DeliverScheduledMessages(ctx, chat.DeliverScheduledMessagesParams{})
	if err != nil {
		t.Fatal(err)
	}
	fmt.Printf("DELIVERED %d\n", res.Delivered)
}

// crashBeforeCommit is a store whose write transactions that delivered a scheduled message
// stop before their commit: they print CLAIMED and wait for the SIGKILL.
type crashBeforeCommit struct{ storage.Storage }

func (s crashBeforeCommit) Update(ctx context.Context, fn func(storage.Tx) error) error {
	return s.Storage.Update(ctx, func(tx storage.Tx) error {
		delivered := false
		if err := fn(markingTx{tx, &delivered}); err != nil {
			return err
		}
		if delivered {
			fmt.Println("CLAIMED")
			select {} // the test kills the process here, inside the transaction
		}
		return nil
	})
}

// markingTx notes whether its transaction marked a scheduled message delivered.
type markingTx struct {
	storage.Tx
	delivered *bool
}

func (t markingTx) ScheduledMessages() storage.ScheduledMessageWriter {
	return markingScheduled{t.Tx.ScheduledMessages(), t.delivered}
}

type markingScheduled struct {
	storage.ScheduledMessageWriter
	delivered *bool
}

func (w markingScheduled) MarkDelivered(ids []messages.ScheduledID, sent []messages.ID) error {
	if len(ids) > 0 {
		*w.delivered = true
	}
	return w.ScheduledMessageWriter.MarkDelivered(ids, sent)
}

// helper starts a helper process in mode against dsn with its clock at now.
func startHelper(t *testing.T, mode, dsn string, now time.Time) (*exec.Cmd, io.WriteCloser, *bufio.Reader) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestSchedulerHelperProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), helperEnv+"="+mode, helperDSNEnv+"="+dsn, helperNowEnv+"="+strconv.FormatInt(now.Unix(), 10))
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return cmd, stdin, bufio.NewReader(stdout)
}

// readLine reads the helper's next line with the given prefix, skipping the test runner's.
func readLine(t *testing.T, r *bufio.Reader, prefix string) string {
	t.Helper()
	for {
		line, err := r.ReadString('\n')
		if strings.HasPrefix(line, prefix) {
			return strings.TrimSpace(line)
		}
		if err != nil {
			t.Fatalf("helper ended before %q: %v", prefix, err)
		}
	}
}

// sqlBackends are SQLite (a file) and, when CHAT_TEST_POSTGRES_URL is set, PostgreSQL (a
// fresh schema): the DSNs of stores that several processes can open.
func sqlBackends(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{"sqlite": "sqlite:" + filepath.Join(t.TempDir(), "chat.db")}
	if base := os.Getenv("CHAT_TEST_POSTGRES_URL"); base != "" {
		out["postgres"] = benchSchema(t, base)
	}
	return out
}

// scheduleMany schedules n channel messages of the member, due in an hour, with contents
// "msg 0" ... and returns the channel.
func scheduleMany(t *testing.T, f *fixture, n int) {
	t.Helper()
	ch := mustChannel(t, f, "plans", chat.NewChannelSettings{}, "member", "admin")
	for i := range n {
		f.mustSchedule(t, "member", chat.CreateScheduledMessageParams{
			Type: "stream", To: channelTo(ch), Topic: ptr("t"), Content: fmt.Sprintf("msg %d", i), ScheduledDeliveryTimestamp: f.at(time.Hour),
		})
	}
}

// sentContents counts the member's messages in the store by content.
func sentContents(t *testing.T, f *fixture) map[string]int {
	t.Helper()
	out := map[string]int{}
	err := f.store.View(t.Context(), func(tx storage.ReadTx) error {
		list, err := tx.Messages().SentBy(f.ids["member"])
		for _, m := range list {
			out[m.Content]++
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestScheduledDeliveryKilled kills a delivering process between its claim and its commit:
// nothing it did survives, and the next delivery sends every message once.
func TestScheduledDeliveryKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("starts helper processes")
	}
	t.Parallel()
	for name, dsn := range sqlBackends(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			store, err := sqlstore.Open(t.Context(), dsn)
			if err != nil {
				t.Fatal(err)
			}
			f := newFixtureOn(t, store)
			const n = 12
			scheduleMany(t, f, n)
			f.clock.Advance(time.Hour)

			cmd, _, out := startHelper(t, "crash", dsn, f.clock.Now())
			readLine(t, out, "CLAIMED")
			if err := cmd.Process.Kill(); err != nil { // SIGKILL
				t.Fatal(err)
			}
			cmd.Wait()
			if got := sentContents(t, f); len(got) != 0 {
				t.Fatalf("a killed delivery left messages behind: %v", got)
			}
			if got := f.scheduledOf(t, "member"); len(got) != n {
				t.Fatalf("%d scheduled messages left, want %d", len(got), n)
			}

			// Started again (here: the test's own Service), the scheduler finds the work. On
			// PostgreSQL the killed process's session may hold its row locks for a moment
			// after the kill (until the server sees the connection end), and SKIP LOCKED
			// passes those rows over: later passes deliver them, never twice.
			delivered := 0
			for deadline := time.Now().Add(10 * time.Second); delivered < n && time.Now().Before(deadline); {
				res := f.mustDeliver(t)
				if res.Failed != 0 {
					t.Fatalf("delivery after the crash: %+v, want none failed", res)
				}
				if delivered += res.Delivered; delivered < n {
					time.Sleep(20 * time.Millisecond)
				}
			}
			if delivered != n {
				t.Fatalf("delivered %d after the crash, want %d", delivered, n)
			}
			got := sentContents(t, f)
			for i := range n {
				if c := got[fmt.Sprintf("msg %d", i)]; c != 1 {
					t.Errorf("msg %d sent %d times", i, c)
				}
			}
			if len(got) != n {
				t.Errorf("sent %v", got)
			}
		})
	}
}

// TestSchedulerThreeProcesses: three processes delivering from one PostgreSQL database at the
// same moment send each message exactly once between them.
func TestSchedulerThreeProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("starts helper processes")
	}
	base := os.Getenv("CHAT_TEST_POSTGRES_URL")
	if base == "" {
		t.Skip("CHAT_TEST_POSTGRES_URL is unset: several delivering processes need a PostgreSQL server")
	}
	t.Parallel()
	dsn := benchSchema(t, base)
	store, err := sqlstore.Open(t.Context(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	f := newFixtureOn(t, store)
	const n = 600
	scheduleMany(t, f, n)
	f.clock.Advance(time.Hour)

	type helper struct {
		in  io.WriteCloser
		out *bufio.Reader
	}
	var helpers []helper
	for range 3 {
		_, in, out := startHelper(t, "deliver", dsn, f.clock.Now())
		helpers = append(helpers, helper{in, out})
	}
	for _, h := range helpers {
		fmt.Fprintln(h.in, "go")
	}
	var (
		mu    sync.Mutex
		total int
		each  []int
		wg    sync.WaitGroup
	)
	for _, h := range helpers {
		wg.Go(func() {
			line := readLine(t, h.out, "DELIVERED ")
			k, _ := strconv.Atoi(strings.TrimPrefix(line, "DELIVERED "))
			mu.Lock()
			total += k
			each = append(each, k)
			mu.Unlock()
		})
	}
	wg.Wait()
	t.Logf("delivered per process: %v", each)
	if total != n {
		t.Errorf("the processes delivered %d messages, want %d", total, n)
	}
	got := sentContents(t, f)
	for i := range n {
		if c := got[fmt.Sprintf("msg %d", i)]; c != 1 {
			t.Errorf("msg %d sent %d times", i, c)
		}
	}
	if res := f.mustDeliver(t); res != (chat.DeliverScheduledMessagesResult{}) {
		t.Errorf("left for a fourth process: %+v", res)
	}
}
