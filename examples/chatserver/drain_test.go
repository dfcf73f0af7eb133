package main

import (
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/teamchat/chat/internal/pgtest"
)

// serverBinary is the chatserver the drain tests run: this command built, or the binary
// CHATSERVER_BIN names (to measure another build, such as the main branch's).
func serverBinary(t *testing.T) string {
	if bin := os.Getenv("CHATSERVER_BIN"); bin != "" {
		return bin
	}
	return buildServer(t)
}

// sendUntilGone has the eight senders send through base until the server is gone (a refused
// connection), each pausing for the Retry-After of a 503; stop ends them early.
func sendUntilGone(base string, stop <-chan struct{}) *sendTally {
	st := newSendTally()
	var wg sync.WaitGroup
	for _, s := range senders {
		wg.Go(func() {
			client := &http.Client{Timeout: 30 * time.Second}
			for k := 0; ; k++ {
				select {
				case <-stop:
					return
				default:
				}
				before := st.count(http.StatusServiceUnavailable)
				if !st.send(client, base, s.email, s.channel, s.email+" #"+strconv.Itoa(k)) {
					return
				}
				if st.count(http.StatusServiceUnavailable) > before {
					time.Sleep(time.Second) // the Retry-After of the answer
				}
			}
		})
	}
	st.wait = wg.Wait
	return st
}

// TestGracefulStopDuringSends: SIGTERM reaches chatserver while eight senders keep it busy.
// Every request is answered 200 or 503 with Retry-After (the writes in flight finish, those
// that arrive meanwhile are refused), none 500 and none left unanswered; and every message
// answered 200 is stored: the server started again on the same store returns them all.
func TestGracefulStopDuringSends(t *testing.T) {
	bin := serverBinary(t)
	stores := []struct {
		name string
		dsn  func(t *testing.T) string
	}{
		{"sqlite", func(t *testing.T) string { return "sqlite:" + filepath.Join(t.TempDir(), "chat.db") }},
		{"postgres", func(t *testing.T) string { return pgtest.Schema(t) }},
	}
	stops := 1
	if n, err := strconv.Atoi(os.Getenv("DRAIN_STOPS")); err == nil {
		stops = n
	}
	for _, store := range stores {
		t.Run(store.name, func(t *testing.T) {
			dsn := store.dsn(t)
			total := map[int]int{}
			answered := map[int64]string{}
			for round := range stops {
				n := startNode(t, bin, dsn, "")
				st := sendUntilGone(n.base, nil)
				time.Sleep(time.Second) // busy
				n.stop(t)
				st.wait()
				for s, c := range st.statuses {
					total[s] += c
				}
				for id, content := range st.ids {
					answered[id] = content
				}
				t.Logf("stop %d: statuses %v, Retry-After %v, refused connections %d", round+1, st.statuses, st.retryHint, st.refused)
				if len(st.noAnswer) > 0 {
					t.Errorf("stop %d: requests not answered 200 or 503 (first %d): %q", round+1, len(st.noAnswer), st.noAnswer)
				}
				for s := range st.statuses {
					if s != http.StatusOK && s != http.StatusServiceUnavailable {
						t.Errorf("stop %d: %d answers with status %d", round+1, st.statuses[s], s)
					}
				}
				if st.statuses[http.StatusOK] == 0 {
					t.Errorf("stop %d: no send succeeded before the stop", round+1)
				}
				if c := st.statuses[http.StatusServiceUnavailable]; c > 0 && st.retryHint["1"] != c {
					t.Errorf("stop %d: 503 answers with Retry-After %v, want 1 on all %d", round+1, st.retryHint, c)
				}
			}
			t.Logf("%s over %d stops: statuses %v", store.name, stops, total)
			n := startNode(t, bin, dsn, "")
			if diff := cmp.Diff(answered, storedContents(t, n.base)); diff != "" {
				t.Errorf("messages answered 200 vs stored after the restart (-answered +stored):\n%s", diff)
			}
		})
	}
}
