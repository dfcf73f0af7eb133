package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// stop ends the process with SIGTERM and waits for its graceful exit.
func (n *node) stop(t testing.TB) {
	t.Helper()
	if err := n.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := n.cmd.Wait(); err != nil {
		t.Fatalf("node %s after SIGTERM: %v", n.id, err)
	}
}

// TestGracefulRestart stops one of three processes with SIGTERM while writes go on through the
// others, and starts it again with the same --node-id: its clients keep their queues (polls
// meanwhile get a retryable 502/503, never BAD_EVENT_QUEUE_ID) and every client receives
// exactly its events, in commit order.
func TestGracefulRestart(t *testing.T) {
	bin, dsn, nodes, emails, ids, clients := startCluster(t) // clients 2 and 5 on n3
	want := make([][]string, len(emails))
	rename := func(via *node, who, name string) {
		mustCall(t, via, http.MethodPatch, fmt.Sprintf("users/%d", ids[who]), "iago@zulip.com", url.Values{"full_name": {name}})
	}
	draft := func(via *node, as, content string) {
		d, _ := json.Marshal([]map[string]any{{"type": "", "to": []int64{}, "topic": "", "content": content}})
		mustCall(t, via, http.MethodPost, "drafts", as, url.Values{"drafts": {string(d)}})
	}
	everyone := func(key string) {
		for i := range want {
			want[i] = append(want[i], key)
		}
	}
	rename(nodes[2], "hamlet@zulip.com", "Hamlet before")
	everyone("rename Hamlet before")
	for i, c := range clients {
		c.collect(t, nodes, len(want[i]))
	}

	// A writer renames othello through the live processes during the stop and the restart.
	live := nodes[:2]
	var wg sync.WaitGroup
	stopWriting := make(chan struct{})
	var concurrent int
	wg.Add(1)
	go func() {
		defer wg.Done()
		for k := 0; ; k++ {
			select {
			case <-stopWriting:
				concurrent = k
				return
			default:
			}
			rename(live[k%2], "othello@zulip.com", fmt.Sprintf("Othello %d", k))
			time.Sleep(20 * time.Millisecond)
		}
	}()

	nodes[2].stop(t)
	rename(live[0], "hamlet@zulip.com", "Hamlet while n3 is down")
	for i, e := range emails {
		content := fmt.Sprintf("draft of %s while n3 is down", e)
		if i == 2 {
			content += strings.Repeat(" and a long tail", 600) // past NOTIFY's 8000 bytes
		}
		draft(live[i%2], e, content)
		want[i] = append(want[i], fmt.Sprintf("drafts add %.24s (%d)", content, len(content)))
	}
	// A client of the stopped process is told to retry, not to register again.
	if code := clients[2].poll(t, live[0]); code != "502" && code != "503" {
		t.Errorf("polling a queue of the stopped process: %q, want 502 or 503", code)
	}
	nodes[2] = startNode(t, bin, dsn, "n3")
	rename(nodes[2], "hamlet@zulip.com", "Hamlet after the restart")
	close(stopWriting)
	wg.Wait()

	for i, c := range clients {
		n := len(want[i]) + 2 + concurrent
		deadline := time.Now().Add(30 * time.Second)
		for len(c.got) < n {
			if code := c.poll(t, nodes[c.polls%3]); code != "" && code != "502" && code != "503" {
				t.Fatalf("%s polling: %s", c.email, code)
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: %d events after 30s, want %d: %v", c.email, len(c.got), n, c.got)
			}
		}
		c.collect(t, nodes, n) // and nothing more
	}
	wantHamlet := []string{"rename Hamlet before", "rename Hamlet while n3 is down", "rename Hamlet after the restart"}
	var wantOthello []string
	for k := range concurrent {
		wantOthello = append(wantOthello, fmt.Sprintf("rename Othello %d", k))
	}
	var firstRenames []string
	for i, c := range clients {
		var hamlet, othello, renames, drafts, wantDrafts []string
		for _, k := range c.got {
			switch {
			case strings.HasPrefix(k, "rename Hamlet"):
				hamlet = append(hamlet, k)
			case strings.HasPrefix(k, "rename Othello"):
				othello = append(othello, k)
			default:
				drafts = append(drafts, k)
			}
			if strings.HasPrefix(k, "rename") {
				renames = append(renames, k)
			}
		}
		for _, k := range want[i] {
			if strings.HasPrefix(k, "drafts") {
				wantDrafts = append(wantDrafts, k)
			}
		}
		if diff := cmp.Diff(wantHamlet, hamlet); diff != "" {
			t.Errorf("%s: hamlet's renames (-want +got):\n%s", c.email, diff)
		}
		if diff := cmp.Diff(wantOthello, othello); diff != "" {
			t.Errorf("%s: othello's renames, in commit order (-want +got):\n%s", c.email, diff)
		}
		if diff := cmp.Diff(wantDrafts, drafts); diff != "" {
			t.Errorf("%s: drafts (-want +got):\n%s", c.email, diff)
		}
		// One commit order for everyone: the same interleaving as the first client's.
		if i == 0 {
			firstRenames = renames
		} else if diff := cmp.Diff(firstRenames, renames); diff != "" {
			t.Errorf("%s sees renames in another order than %s (-%s +%s):\n%s", c.email, clients[0].email, clients[0].email, c.email, diff)
		}
	}
}

// TestRestartRightAfterKill: a process killed with SIGKILL can be started again at once with
// its node id (a supervisor restarting it needs no retry), although its last heartbeat is
// fresh; a second live process with that id is still refused.
func TestRestartRightAfterKill(t *testing.T) {
	t.Parallel()
	bin, dsn := buildServer(t), clusterSchema(t)
	long := []string{"--node-timeout", "1m"} // the old heartbeat stays fresh for the whole test
	first := startNode(t, bin, dsn, "n1", long...)
	second := exec.Command(bin, "serve", "--store", dsn, "--listen", freeAddr(t), "--node-id", "n1",
		"--advertise-url", "http://127.0.0.1:1", "--node-timeout", "1m")
	out, err := second.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "another live process uses this node id") {
		t.Errorf("a second live n1 started (err %v):\n%s", err, out)
	}
	first.kill(t)
	again := startNode(t, bin, dsn, "n1", long...)
	if status, _ := call(t, again, http.MethodGet, "server_settings", "", nil); status != http.StatusOK {
		t.Errorf("restarted n1 answers %d", status)
	}
}
