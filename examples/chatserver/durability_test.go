package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib"

	"github.com/teamchat/chat/internal/pgtest"
	"github.com/teamchat/chat/seeds"
)

// childEnv makes the test binary run as chatserver itself (see TestMain), so that the
// durability test can start, kill and restart a real server process without building one.
const childEnv = "CHATSERVER_TEST_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "1" {
		os.Args = append([]string{"chatserver"}, strings.Fields(os.Getenv("CHATSERVER_TEST_ARGS"))...)
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestDurabilityAcrossKill starts the server as a subprocess, sends messages from several
// clients at once, kills the process with SIGKILL in the middle of the stream, restarts it on
// the same store and checks that every acknowledged message is there, once, with its content.
func TestDurabilityAcrossKill(t *testing.T) {
	if testing.Short() {
		t.Skip("starts server processes")
	}
	t.Parallel()
	t.Run("sqlite", func(t *testing.T) {
		t.Parallel()
		testDurability(t, "sqlite:"+filepath.Join(t.TempDir(), "chat.db"))
	})
	t.Run("postgres", func(t *testing.T) {
		t.Parallel()
		base := os.Getenv("CHAT_TEST_POSTGRES_URL")
		if base == "" {
			t.Skip("CHAT_TEST_POSTGRES_URL is not set: PostgreSQL durability test skipped")
		}
		testDurability(t, freshPostgresSchema(t, base))
	})
}

func testDurability(t *testing.T, store string) {
	srv := startChild(t, store)
	key := seeds.DevAPIKey("iago@zulip.com", "devpassword")

	type ack struct {
		id      int64
		content string
	}
	var (
		mu    sync.Mutex
		acked []ack
		wg    sync.WaitGroup
	)
	stop := make(chan struct{})
	const writers = 6
	for w := range writers {
		wg.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				content := fmt.Sprintf("durability writer %d message %d", w, i)
				id, err := sendMessage(srv.base, key, content)
				if err != nil {
					return // the server is gone: this write was not acknowledged
				}
				mu.Lock()
				acked = append(acked, ack{id, content})
				mu.Unlock()
			}
		})
	}
	// Kill once enough writes are acknowledged, while the writers keep going.
	deadline := time.Now().Add(60 * time.Second)
	for {
		mu.Lock()
		n := len(acked)
		mu.Unlock()
		if n >= 150 || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	srv.kill(t)
	close(stop)
	wg.Wait()
	if len(acked) == 0 {
		t.Fatal("no write was acknowledged before the kill")
	}

	srv = startChild(t, store)
	got, err := fetchAll(srv.base, key)
	if err != nil {
		t.Fatalf("fetch after restart: %v", err)
	}
	seen := map[int64]int{}
	for id := range got {
		seen[id]++
	}
	missing := 0
	for _, a := range acked {
		content, ok := got[a.id]
		switch {
		case !ok:
			missing++
			if missing < 5 {
				t.Errorf("acknowledged message %d (%q) is missing after the restart", a.id, a.content)
			}
		case content != a.content:
			t.Errorf("message %d content = %q after the restart, want %q", a.id, content, a.content)
		}
	}
	if missing > 0 {
		t.Fatalf("%d of %d acknowledged messages lost", missing, len(acked))
	}
	// The store still takes writes after the crash.
	if _, err := sendMessage(srv.base, key, "after the restart"); err != nil {
		t.Fatalf("send after restart: %v", err)
	}
	t.Logf("%d acknowledged writes survived kill -9 on %s", len(acked), strings.SplitN(store, ":", 2)[0])
}

// child is a chatserver subprocess.
type child struct {
	cmd  *exec.Cmd
	base string
	done chan struct{}
}

var servingAddr = regexp.MustCompile(`msg=serving addr=(\S+)`)

// startChild runs `chatserver serve --dev --store store` on a free port and waits until it
// serves; the process is killed when the test ends.
func startChild(t *testing.T, store string) *child {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"=1",
		"CHATSERVER_TEST_ARGS=serve --dev --no-rate-limits --listen 127.0.0.1:0 --store "+store)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := &child{cmd: cmd, done: make(chan struct{})}
	addr := make(chan string, 1)
	var log strings.Builder
	var logMu sync.Mutex
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			logMu.Lock()
			log.WriteString(sc.Text() + "\n")
			logMu.Unlock()
			if m := servingAddr.FindStringSubmatch(sc.Text()); m != nil {
				select {
				case addr <- m[1]:
				default:
				}
			}
		}
		io.Copy(io.Discard, stderr)
	}()
	go func() { cmd.Wait(); close(c.done) }()
	t.Cleanup(func() { c.kill(t) })
	select {
	case a := <-addr:
		c.base = "http://" + a
		return c
	case <-c.done:
	case <-time.After(60 * time.Second):
	}
	logMu.Lock()
	defer logMu.Unlock()
	t.Fatalf("chatserver did not start serving:\n%s", log.String())
	return nil
}

// kill sends SIGKILL and waits for the process to end.
func (c *child) kill(t *testing.T) {
	select {
	case <-c.done:
		return
	default:
	}
	if err := c.cmd.Process.Kill(); err != nil {
		t.Logf("kill: %v", err)
	}
	<-c.done
}

var httpClient = &http.Client{Timeout: 30 * time.Second}

// sendMessage posts a channel message and returns its id once the server acknowledged it.
func sendMessage(base, key, content string) (int64, error) {
	form := url.Values{"type": {"stream"}, "to": {"Verona"}, "topic": {"durability"}, "content": {content}}
	req, err := http.NewRequest(http.MethodPost, base+"/api/v1/messages", strings.NewReader(form.Encode()))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth("iago@zulip.com", key)
	resp, err := httpClient.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	var body struct {
		Result string `json:"result"`
		Msg    string `json:"msg"`
		ID     int64  `json:"id"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		return 0, err
	}
	if body.Result != "success" {
		return 0, fmt.Errorf("send: %s", body.Msg)
	}
	return body.ID, nil
}

// fetchAll returns the raw content of every message iago can read, by id.
func fetchAll(base, key string) (map[int64]string, error) {
	out := map[int64]string{}
	anchor := "0"
	for {
		q := url.Values{"anchor": {anchor}, "num_before": {"0"}, "num_after": {"1000"},
			"apply_markdown": {"false"}, "include_anchor": {"false"}}
		req, err := http.NewRequest(http.MethodGet, base+"/api/v1/messages?"+q.Encode(), nil)
		if err != nil {
			return nil, err
		}
		req.SetBasicAuth("iago@zulip.com", key)
		resp, err := httpClient.Do(req)
		if err != nil {
			return nil, err
		}
		var body struct {
			Result      string `json:"result"`
			Msg         string `json:"msg"`
			FoundNewest bool   `json:"found_newest"`
			Messages    []struct {
				ID      int64  `json:"id"`
				Content string `json:"content"`
			} `json:"messages"`
		}
		err = json.NewDecoder(resp.Body).Decode(&body)
		resp.Body.Close()
		if err != nil {
			return nil, err
		}
		if body.Result != "success" {
			return nil, fmt.Errorf("get messages: %s", body.Msg)
		}
		for _, m := range body.Messages {
			if _, dup := out[m.ID]; dup {
				return nil, fmt.Errorf("message %d returned twice", m.ID)
			}
			out[m.ID] = m.Content
		}
		if body.FoundNewest || len(body.Messages) == 0 {
			return out, nil
		}
		anchor = fmt.Sprint(body.Messages[len(body.Messages)-1].ID)
	}
}

// freshPostgresSchema creates an empty schema dropped when the test ends and returns base's
// DSN with that schema as its search_path.
func freshPostgresSchema(t *testing.T, base string) string { return pgtest.SchemaOf(t, base) }
