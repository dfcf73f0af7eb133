package chat_test

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/storage/sqlstore"
	"github.com/teamchat/chat/users"
)

// openSQLite opens the SQLite store at path, closed when the test ends.
func openSQLite(t *testing.T, path string) storage.Storage {
	t.Helper()
	s, err := sqlstore.Open(t.Context(), "sqlite:"+path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// restartedService is a Service as a new process starts it on store.
func restartedService(t *testing.T, store storage.Storage, sc *botScene) *chat.Service {
	t.Helper()
	svc, err := chat.New(chat.Options{Store: store, Now: sc.clock.Now, AllowPrivateWebhookTargets: true, Logger: quietLogger()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { svc.Close() })
	return svc
}

// TestOutgoingWebhookSurvivesRestart: a job written by a send survives the process (Close,
// then a new Service on the same SQLite file delivers it), and so does a job whose call was in
// flight when the process stopped: it is called again (at least once) and answered once.
func TestOutgoingWebhookSurvivesRestart(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "chat.db")
	arrived := make(chan struct{})
	var once sync.Once
	hook := newWebhookServer(t, func(_ int, w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if bytes.Contains(body, []byte(`"data":"@**`+botName+`** second"`)) {
			first := false
			once.Do(func() { first = true; close(arrived) })
			if first { // the process stops during this call
				<-r.Context().Done()
				return
			}
		}
		var data struct{ Data string }
		_ = jsonUnmarshal(body, &data)
		fmt.Fprintf(w, `{"content": "got %s"}`, strings.TrimPrefix(data.Data, "@**"+botName+"** "))
	})
	store1 := openSQLite(t, path)
	sc := newBotScene(t, store1, hook.URL, users.ServiceInterfaceGeneric, allowPrivate)
	sc.mention(t, sc.svc, "restart", "first")
	if err := sc.svc.Close(); err != nil {
		t.Fatal(err)
	}
	store1.Close()

	store2 := openSQLite(t, path)
	svc2 := restartedService(t, store2, sc)
	deliver(t, svc2, chat.DeliverServiceJobsResult{Delivered: 1})
	if got := sc.latest(t, svc2, 1)[0]; got.SenderID != sc.bot || got.Content != "got first" {
		t.Fatalf("after the restart: newest = %d %q, want the bot's got first", got.SenderID, got.Content)
	}

	sc.mention(t, svc2, "restart", "second")
	svc2.StartScheduler()
	select {
	case <-arrived:
	case <-time.After(20 * time.Second):
		t.Fatal("the worker never called the webhook")
	}
	if err := svc2.Close(); err != nil { // abandons the call in flight
		t.Fatal(err)
	}
	store2.Close()

	store3 := openSQLite(t, path)
	if n := pendingJobs(t, store3); n != 1 {
		t.Fatalf("jobs after stopping mid-call = %d, want 1", n)
	}
	svc3 := restartedService(t, store3, sc)
	deliver(t, svc3, chat.DeliverServiceJobsResult{Delivered: 1})
	msgs := sc.latest(t, svc3, 3)
	var replies []string
	for _, m := range msgs {
		if m.SenderID == sc.bot {
			replies = append(replies, m.Content)
		}
	}
	if len(replies) != 2 || replies[1] != "got second" {
		t.Errorf("the bot's replies = %q, want got first then got second once", replies)
	}
	calls := 0
	for _, c := range hook.recorded() {
		if bytes.Contains(c.Body, []byte("** second")) {
			calls++
		}
	}
	if calls != 2 {
		t.Errorf("calls for the second message = %d, want 2 (the abandoned one, then its delivery)", calls)
	}
	if n := pendingJobs(t, store3); n != 0 {
		t.Errorf("jobs at the end = %d, want 0", n)
	}
}

// TestOutgoingWebhookLeaseExpires: a job leased by a process that died (no answer, no
// release) is due again when its lease ends, and only then.
func TestOutgoingWebhookLeaseExpires(t *testing.T) {
	t.Parallel()
	onEveryBackendWith(t, func(t *testing.T, store storage.Storage) {
		hook := newWebhookServer(t, answer(200, `{"content": "late but there"}`))
		sc := newBotScene(t, store, hook.URL, users.ServiceInterfaceGeneric, allowPrivate)
		sc.mention(t, sc.svc, "lease", "hello")
		leaseEnd := sc.clock.Now().Add(40 * time.Second).UnixMilli()
		err := store.Update(t.Context(), func(tx storage.Tx) error { // what a claim that never finished leaves
			jobs, err := tx.ServiceJobs().List()
			if err != nil {
				return err
			}
			j := jobs[0]
			j.DueAt, j.Attempts = leaseEnd, 1
			return tx.ServiceJobs().Update(j)
		})
		if err != nil {
			t.Fatal(err)
		}
		deliver(t, sc.svc, chat.DeliverServiceJobsResult{})
		sc.clock.Advance(40 * time.Second)
		deliver(t, sc.svc, chat.DeliverServiceJobsResult{Delivered: 1})
		if got := sc.latest(t, sc.svc, 1)[0]; got.Content != "late but there" {
			t.Errorf("newest = %q, want the reply", got.Content)
		}
	})
}

// TestOutgoingWebhookOneProcessPerJob: two Services on one store deliver at once; each job is
// claimed by one of them, so each message is called and answered once.
func TestOutgoingWebhookOneProcessPerJob(t *testing.T) {
	t.Parallel()
	onEveryBackendWith(t, func(t *testing.T, store storage.Storage) {
		hook := newWebhookServer(t, func(_ int, w http.ResponseWriter, r *http.Request) {
			time.Sleep(20 * time.Millisecond)
			body, _ := io.ReadAll(r.Body)
			var data struct{ Data string }
			_ = jsonUnmarshal(body, &data)
			fmt.Fprintf(w, `{"content": "re: %s"}`, strings.TrimPrefix(data.Data, "@**"+botName+"** "))
		})
		sc := newBotScene(t, store, hook.URL, users.ServiceInterfaceGeneric, allowPrivate)
		const n = 12
		for i := range n {
			sc.mention(t, sc.svc, "busy", fmt.Sprintf("m%02d", i))
		}
		other := restartedService(t, store, sc)
		var wg sync.WaitGroup
		results := make([]chat.DeliverServiceJobsResult, 2)
		for i, svc := range []*chat.Service{sc.svc, other} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					r, err := svc.DeliverServiceJobs(t.Context())
					if err != nil {
						t.Error(err)
						return
					}
					results[i].Delivered += r.Delivered
					if r.Delivered == 0 && pendingJobs(t, store) == 0 {
						return
					}
				}
			}()
		}
		wg.Wait()
		if total := results[0].Delivered + results[1].Delivered; total != n {
			t.Errorf("delivered %d (%+v), want %d", total, results, n)
		}
		seen := map[string]int{}
		for _, c := range hook.recorded() {
			var data struct{ Data string }
			_ = jsonUnmarshal(c.Body, &data)
			seen[data.Data]++
		}
		for text, count := range seen {
			if count != 1 {
				t.Errorf("%q was called %d times, want once", text, count)
			}
		}
		if len(seen) != n {
			t.Errorf("%d messages called, want %d", len(seen), n)
		}
		replies := 0
		for _, m := range sc.latest(t, sc.svc, 2*n) {
			if m.SenderID == sc.bot {
				replies++
			}
		}
		if replies != n {
			t.Errorf("replies = %d, want %d", replies, n)
		}
	})
}
