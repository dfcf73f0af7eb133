package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/teamchat/chat/internal/pgtest"
	"github.com/teamchat/chat/seeds"
)

// clusterSchema creates a fresh schema in the test database and returns a connection string
// on it; the schema is dropped after the test.
func clusterSchema(t testing.TB) string { return pgtest.Schema(t) }

// buildServer builds this command once into a temporary directory.
func buildServer(t testing.TB) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "chatserver")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// node is one chatserver process.
type node struct {
	id   string
	base string
	cmd  *exec.Cmd
	log  *bytes.Buffer
	mu   *sync.Mutex
}

// lockedWriter serialises the process's log writes with the test's reads.
type lockedWriter struct {
	mu *sync.Mutex
	b  *bytes.Buffer
}

func (w lockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

func freeAddr(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// startNode starts a process and waits until it serves.
// An empty id starts a lone process (no event bus). extra flags follow the others.
func startNode(t testing.TB, bin, dsn, id string, extra ...string) *node {
	t.Helper()
	addr := freeAddr(t)
	n := &node{id: id, base: "http://" + addr, log: &bytes.Buffer{}, mu: &sync.Mutex{}}
	args := []string{"serve", "--store", dsn, "--dev", "--listen", addr, "--realm-url", "http://chat.test",
		"--no-rate-limits", "--heartbeat-wait", "2s"}
	if id != "" {
		args = append(args, "--node-id", id, "--advertise-url", n.base, "--node-timeout", "2s", "--node-heartbeat", "200ms")
	}
	args = append(args, extra...)
	n.cmd = exec.Command(bin, args...)
	n.cmd.Stdout = lockedWriter{n.mu, n.log}
	n.cmd.Stderr = lockedWriter{n.mu, n.log}
	if err := n.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if n.cmd.ProcessState == nil {
			_ = n.cmd.Process.Signal(os.Interrupt)
			done := make(chan struct{})
			go func() { _ = n.cmd.Wait(); close(done) }()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				_ = n.cmd.Process.Kill()
				<-done
			}
		}
		if t.Failed() {
			n.mu.Lock()
			t.Logf("log of node %s:\n%s", n.id, n.log.String())
			n.mu.Unlock()
		}
	})
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := http.Get(n.base + "/api/v1/server_settings")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return n
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("node %s did not start serving", id)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// kill ends the process with SIGKILL.
func (n *node) kill(t testing.TB) {
	t.Helper()
	if err := n.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = n.cmd.Wait()
}

// call sends an API request as a dev user (email; "" for none); form values go in the query
// string for GET and in the body otherwise.
func call(t testing.TB, n *node, method, path, as string, form url.Values) (int, map[string]any) {
	t.Helper()
	target := n.base + "/api/v1/" + path
	var body io.Reader
	if method == http.MethodGet {
		target += "?" + form.Encode()
	} else {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, target, body)
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	if as != "" {
		req.SetBasicAuth(as, seeds.DevAPIKey(as, "devpassword"))
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s via %s: %v", method, path, n.id, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var out map[string]any
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("%s %s via %s: %d %q is not JSON", method, path, n.id, resp.StatusCode, raw)
	}
	return resp.StatusCode, out
}

func mustCall(t testing.TB, n *node, method, path, as string, form url.Values) map[string]any {
	t.Helper()
	status, out := call(t, n, method, path, as, form)
	if status != 200 {
		t.Fatalf("%s %s as %s via %s: %d %v", method, path, as, n.id, status, out)
	}
	return out
}

// client is one event queue of a dev user.
type client struct {
	email string
	queue string
	last  int64
	polls int
	// got holds a key per received event (eventKey), in order.
	got []string
}

func (c *client) register(t testing.TB, n *node) {
	t.Helper()
	out := mustCall(t, n, http.MethodPost, "register", c.email, url.Values{"event_types": {`["realm_user","drafts"]`}})
	c.queue, c.last = out["queue_id"].(string), -1
	if n.id != "" && !strings.HasPrefix(c.queue, n.id+":") {
		t.Fatalf("queue %q registered on %s does not name it", c.queue, n.id)
	}
}

// eventKey identifies an event for the comparison: realm_user renames by the new name,
// drafts by their content's start.
func eventKey(e map[string]any) string {
	switch e["type"] {
	case "realm_user":
		person, _ := e["person"].(map[string]any)
		if name, ok := person["full_name"].(string); ok {
			return "rename " + name
		}
		return fmt.Sprintf("realm_user %v", e["op"])
	case "drafts":
		if list, ok := e["drafts"].([]any); ok && len(list) == 1 {
			d, _ := list[0].(map[string]any)
			content, _ := d["content"].(string)
			return fmt.Sprintf("drafts %v %.24s (%d)", e["op"], content, len(content))
		}
		return fmt.Sprintf("drafts %v", e["op"])
	}
	return fmt.Sprintf("%v", e["type"])
}

// poll fetches events once through n (blocking), acknowledging those seen. It returns the
// error code, if any.
func (c *client) poll(t testing.TB, n *node) string {
	t.Helper()
	c.polls++
	status, out := call(t, n, http.MethodGet, "events", c.email,
		url.Values{"queue_id": {c.queue}, "last_event_id": {fmt.Sprint(c.last)}})
	if status != 200 {
		code, _ := out["code"].(string)
		if code == "" || status >= 500 {
			code = fmt.Sprint(status)
		}
		return code
	}
	evs, _ := out["events"].([]any)
	for _, raw := range evs {
		e := raw.(map[string]any)
		id := int64(e["id"].(float64))
		if id <= c.last {
			t.Fatalf("%s: event %d again after %d", c.email, id, c.last)
		}
		c.last = id
		if e["type"] != "heartbeat" {
			c.got = append(c.got, eventKey(e))
		}
	}
	return ""
}

// collect polls, rotating through nodes, until the client has n events; then it checks that
// no more arrive.
func (c *client) collect(t testing.TB, nodes []*node, n int) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for len(c.got) < n {
		if code := c.poll(t, nodes[c.polls%len(nodes)]); code != "" {
			t.Fatalf("%s polling: %s", c.email, code)
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: %d events after 20s, want %d: %v", c.email, len(c.got), n, c.got)
		}
	}
	time.Sleep(100 * time.Millisecond)
	status, out := call(t, nodes[c.polls%len(nodes)], http.MethodGet, "events", c.email,
		url.Values{"queue_id": {c.queue}, "last_event_id": {fmt.Sprint(c.last)}, "dont_block": {"true"}})
	if evs, _ := out["events"].([]any); status != 200 || len(evs) != 0 {
		t.Fatalf("%s: extra events after the expected %d: %d %v", c.email, n, status, out)
	}
}

// TestThreeProcesses runs three chatserver processes on one PostgreSQL schema: every client
// gets exactly its events, in commit order, through whichever process it polls; after one
// process is killed the others serve on, its clients get BAD_EVENT_QUEUE_ID and register
// elsewhere, and no acknowledged write is lost.
func TestThreeProcesses(t *testing.T) {
	_, _, nodes, emails, ids, clients := startCluster(t)
	seeded := map[string]int{} // the drafts the dev organization gives (Iago's two)
	for _, e := range emails {
		seeded[e] = len(mustCall(t, nodes[0], http.MethodGet, "drafts", e, nil)["drafts"].([]any))
	}
	want := make([][]string, len(emails))
	rename := func(via *node, who, name string) {
		mustCall(t, via, http.MethodPatch, fmt.Sprintf("users/%d", ids[who]), "iago@zulip.com", url.Values{"full_name": {name}})
	}
	draft := func(via *node, as, content string) {
		d, _ := json.Marshal([]map[string]any{{"type": "", "to": []int64{}, "topic": "", "content": content}})
		mustCall(t, via, http.MethodPost, "drafts", as, url.Values{"drafts": {string(d)}})
	}

	// Sequential writes through every process: commit order is the order below.
	for r := range 3 {
		name := fmt.Sprintf("Hamlet round %d", r)
		rename(nodes[r%3], "hamlet@zulip.com", name)
		for i := range want {
			want[i] = append(want[i], "rename "+name)
		}
		for i, e := range emails {
			content := fmt.Sprintf("draft of %s in round %d", e, r)
			if r == 1 && i == 0 {
				content += strings.Repeat(" and a long tail", 600) // past NOTIFY's 8000 bytes
			}
			draft(nodes[(r+i)%3], e, content)
			want[i] = append(want[i], fmt.Sprintf("drafts add %.24s (%d)", content, len(content)))
		}
	}
	// Concurrent writes through all three: every client sees them in one order.
	var wg sync.WaitGroup
	concurrent := []string{"othello@zulip.com", "cordelia@zulip.com", "prospero@zulip.com"}
	for w, who := range concurrent {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range 4 {
				rename(nodes[(w+k)%3], who, fmt.Sprintf("%s %d", strings.Split(who, "@")[0], k))
			}
		}()
	}
	wg.Wait()
	for i, c := range clients {
		c.collect(t, nodes, len(want[i])+len(concurrent)*4)
	}
	for i, c := range clients {
		if diff := cmp.Diff(want[i], c.got[:len(want[i])]); diff != "" {
			t.Errorf("%s: sequential events (-want +got):\n%s", c.email, diff)
		}
		if diff := cmp.Diff(clients[0].got[len(want[0]):], c.got[len(want[i]):]); diff != "" {
			t.Errorf("%s sees the concurrent renames in another order than %s (-%s +%s):\n%s",
				c.email, clients[0].email, clients[0].email, c.email, diff)
		}
	}
	for w, who := range concurrent {
		var seen []string
		for _, k := range clients[0].got[len(want[0]):] {
			if strings.HasPrefix(k, "rename "+strings.Split(who, "@")[0]+" ") {
				seen = append(seen, k)
			}
		}
		var wantSeen []string
		for k := range 4 {
			wantSeen = append(wantSeen, fmt.Sprintf("rename %s %d", strings.Split(who, "@")[0], k))
		}
		if diff := cmp.Diff(wantSeen, seen); diff != "" {
			t.Errorf("writer %d: renames of %s out of commit order (-want +got):\n%s", w, who, diff)
		}
	}

	// SIGKILL the third process. The others keep serving; clients of the dead one get
	// BAD_EVENT_QUEUE_ID (after the node timeout) and register elsewhere.
	nodes[2].kill(t)
	live := nodes[:2]
	rename(live[0], "hamlet@zulip.com", "Hamlet after the kill")
	for i, c := range clients {
		before := len(c.got)
		if i%3 != 2 {
			c.collect(t, live, before+1)
			if got := c.got[before]; got != "rename Hamlet after the kill" {
				t.Errorf("%s after the kill: got %q", c.email, got)
			}
			continue
		}
		deadline := time.Now().Add(15 * time.Second)
		for {
			code := c.poll(t, live[c.polls%2])
			if code == "BAD_EVENT_QUEUE_ID" {
				break
			}
			if code != "" && code != "502" || time.Now().After(deadline) {
				t.Fatalf("%s on the killed node: got %q, want BAD_EVENT_QUEUE_ID", c.email, code)
			}
			time.Sleep(100 * time.Millisecond)
		}
		c.got = nil
		c.register(t, live[i%2])
	}
	rename(live[1], "hamlet@zulip.com", "Hamlet at the end")
	for i, c := range clients {
		if i%3 == 2 {
			c.collect(t, live, 1)
		} else {
			c.collect(t, live, len(c.got)+1)
		}
		if got := c.got[len(c.got)-1]; got != "rename Hamlet at the end" {
			t.Errorf("%s at the end: got %q", c.email, got)
		}
	}
	// DELETE /events through another process reaches the owner.
	c := clients[1] // registered on n2
	mustCall(t, live[0], http.MethodDelete, "events", c.email, url.Values{"queue_id": {c.queue}})
	if code := c.poll(t, live[1]); code != "BAD_EVENT_QUEUE_ID" {
		t.Errorf("polling a queue deleted through another process: %q, want BAD_EVENT_QUEUE_ID", code)
	}
	// No acknowledged write is lost.
	out := mustCall(t, live[1], http.MethodGet, fmt.Sprintf("users/%d", ids["hamlet@zulip.com"]), "iago@zulip.com", nil)
	if name := out["user"].(map[string]any)["full_name"]; name != "Hamlet at the end" {
		t.Errorf("hamlet's name is %v", name)
	}
	for _, e := range emails {
		out := mustCall(t, live[0], http.MethodGet, "drafts", e, nil)
		if n := len(out["drafts"].([]any)); n != seeded[e]+3 {
			t.Errorf("%s has %d drafts, want %d", e, n, seeded[e]+3)
		}
	}
}

// startCluster starts three processes n1-n3 on a fresh schema (the first seeds the empty store;
// the others find it provisioned) and registers a client for each of six dev users, client i
// on node i%3. ids maps each email to its user id.
func startCluster(t *testing.T) (bin, dsn string, nodes []*node, emails []string, ids map[string]int64, clients []*client) {
	t.Helper()
	dsn = clusterSchema(t)
	bin = buildServer(t)
	nodes = []*node{startNode(t, bin, dsn, "n1")}
	nodes = append(nodes, startNode(t, bin, dsn, "n2"), startNode(t, bin, dsn, "n3"))
	emails = []string{"iago@zulip.com", "hamlet@zulip.com", "othello@zulip.com", "cordelia@zulip.com",
		"prospero@zulip.com", "ZOE@zulip.com"}
	ids = map[string]int64{}
	for _, e := range emails {
		ids[e] = int64(mustCall(t, nodes[0], http.MethodGet, "users/me", e, nil)["user_id"].(float64))
	}
	clients = make([]*client, len(emails))
	for i, e := range emails {
		clients[i] = &client{email: e}
		clients[i].register(t, nodes[i%3])
	}
	return bin, dsn, nodes, emails, ids, clients
}
