package main

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/eventbus/pgbus"
	"github.com/teamchat/chat/httpapi"
	"github.com/teamchat/chat/internal/pgtest"
	"github.com/teamchat/chat/ratelimit"
	"github.com/teamchat/chat/seeds"
	"github.com/teamchat/chat/storage/sqlstore"
)

// senders are the dev users who send in the contention tests, and the channel each sends to:
// four into Verona (the same channel), four into a channel of their own.
var senders = []struct{ email, channel string }{
	{"iago@zulip.com", "Verona"},
	{"hamlet@zulip.com", "Verona"},
	{"othello@zulip.com", "Verona"},
	{"cordelia@zulip.com", "Verona"},
	{"prospero@zulip.com", "Denmark"},
	{"ZOE@zulip.com", "Scotland"},
	{"AARON@zulip.com", "Venice"},
	{"shiva@zulip.com", "Rome"},
}

// sendTally counts the answers to the sends of one run: by status, the ids of the messages
// answered with 200, and the requests that got no answer at all.
type sendTally struct {
	mu        sync.Mutex
	statuses  map[int]int
	ids       map[int64]string // message id -> content
	noAnswer  []string         // transport errors after the request was sent
	refused   int              // connections refused: the request never reached a server
	retryHint map[string]int   // Retry-After values seen on 503 answers
	wait      func()           // waits for the senders (sendUntilGone)
}

func newSendTally() *sendTally {
	return &sendTally{statuses: map[int]int{}, ids: map[int64]string{}, retryHint: map[string]int{}}
}

// send posts one channel message to base and records the answer. It reports whether the
// sender should go on (false once the server is gone).
func (st *sendTally) send(client *http.Client, base, email, channel, content string) bool {
	form := url.Values{"type": {"stream"}, "to": {channel}, "topic": {"contention"}, "content": {content}}
	req, err := http.NewRequest(http.MethodPost, base+"/api/v1/messages", strings.NewReader(form.Encode()))
	if err != nil {
		panic(err) // a constant URL
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(email, seeds.DevAPIKey(email, "devpassword"))
	resp, err := client.Do(req)
	st.mu.Lock()
	defer st.mu.Unlock()
	if err != nil {
		if isRefused(err) {
			st.refused++
			return false
		}
		st.noAnswer = append(st.noAnswer, err.Error())
		return false
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	st.statuses[resp.StatusCode]++
	switch resp.StatusCode {
	case http.StatusOK:
		var out struct {
			ID int64 `json:"id"`
		}
		if json.Unmarshal(raw, &out) == nil {
			st.ids[out.ID] = content
		}
	case http.StatusServiceUnavailable:
		st.retryHint[resp.Header.Get("Retry-After")]++
	default:
		if len(st.noAnswer) < 20 {
			st.noAnswer = append(st.noAnswer, fmt.Sprintf("%d %s", resp.StatusCode, raw))
		}
	}
	return true
}

// isRefused reports whether err is a refused connection: the request was never sent.
func isRefused(err error) bool {
	return strings.Contains(err.Error(), "connection refused")
}

// count returns how many answers had a status of at least min.
func (st *sendTally) count(min int) int {
	st.mu.Lock()
	defer st.mu.Unlock()
	n := 0
	for s, c := range st.statuses {
		if s >= min {
			n += c
		}
	}
	return n
}

// cluster is three Services (three processes) on one PostgreSQL schema, each with its bus
// and the HTTP API on a test server.
type cluster struct {
	bases []string
	svcs  []*chat.Service
}

// startInProcessCluster starts three Services on a fresh schema sharing events through pgbus,
// each serving the HTTP API; the first provisions the dev organization.
func startInProcessCluster(t *testing.T) *cluster {
	t.Helper()
	dsn := pgtest.Schema(t)
	if os.Getenv("DRAIN_LOG_STATEMENTS") != "" {
		dsn += "&log_statement=all"
	}
	ctx := t.Context()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	c := &cluster{}
	for i := range 3 {
		node := "n" + strconv.Itoa(i+1)
		store, err := sqlstore.Open(ctx, dsn)
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewUnstartedServer(nil)
		base := "http://" + srv.Listener.Addr().String()
		bus, err := pgbus.Open(ctx, pgbus.Options{URL: dsn, Node: node, AdvertiseURL: base, Logger: quiet,
			HeartbeatInterval: 200 * time.Millisecond, NodeTimeout: 5 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		svc, err := chat.New(chat.Options{Store: store, Bus: bus, NodeID: node, Logger: quiet, Dev: true,
			HeartbeatWait: 2 * time.Second, PasswordHashing: chat.PasswordHashing{MemoryKiB: 64, Passes: 1, Threads: 1},
			APIRateLimit: &ratelimit.Rule{}, AnonymousAPIRateLimit: &ratelimit.Rule{}})
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			if _, err := seeds.Dev("devpassword").Apply(ctx, svc, "http://chat.test"); err != nil {
				t.Fatal(err)
			}
		}
		srv.Config.Handler = httpapi.New(svc, httpapi.Options{Logger: quiet, Queues: bus})
		srv.Start()
		t.Cleanup(func() { srv.Close(); svc.Close(); bus.Close(); store.Close() })
		c.bases, c.svcs = append(c.bases, base), append(c.svcs, svc)
	}
	return c
}

// channelID returns the id of the channel named name, asked of base.
func channelID(t *testing.T, base, name string) string {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, base+"/api/v1/get_stream_id?stream="+url.QueryEscape(name), nil)
	req.SetBasicAuth("iago@zulip.com", seeds.DevAPIKey("iago@zulip.com", "devpassword"))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct {
		StreamID int64 `json:"stream_id"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || out.StreamID == 0 {
		t.Fatalf("get_stream_id %s: %d %v", name, resp.StatusCode, err)
	}
	return strconv.FormatInt(out.StreamID, 10)
}

// runSenders has the eight senders send n messages each, sender i through bases[i%len],
// concurrently, and returns the tally. Senders 0-3 name their channel by name, 4-7 by id
// (as most clients do: a send announced ahead, storage.PrefetchSend).
func runSenders(t *testing.T, bases []string, n int) *sendTally {
	ctx := t.Context()
	byID := map[string]string{}
	for _, s := range senders {
		byID[s.channel] = channelID(t, bases[0], s.channel)
	}
	st := newSendTally()
	var wg sync.WaitGroup
	for i, s := range senders {
		wg.Go(func() {
			client := &http.Client{Timeout: 30 * time.Second}
			for k := range n {
				if ctx.Err() != nil {
					return
				}
				content := fmt.Sprintf("%s #%d", s.email, k)
				channel := s.channel
				if i%2 == 1 || os.Getenv("DRAIN_ALL_ID") != "" {
					channel = byID[s.channel]
				}
				if !st.send(client, bases[i%len(bases)], s.email, channel, content) {
					return
				}
			}
		})
	}
	wg.Wait()
	return st
}

// storedContents reads every message of the contention topics back through base, as iago
// (who can read every public channel).
func storedContents(t *testing.T, base string) map[int64]string {
	t.Helper()
	got := map[int64]string{}
	anchor := "0"
	for {
		narrow := `[{"operator":"channels","operand":"public"},{"operator":"topic","operand":"contention"}]` // every public channel's history, as Zulip reads it
		q := url.Values{"anchor": {anchor}, "num_before": {"0"}, "num_after": {"1000"}, "narrow": {narrow}, "apply_markdown": {"false"}}
		req, _ := http.NewRequest(http.MethodGet, base+"/api/v1/messages?"+q.Encode(), nil)
		req.SetBasicAuth("iago@zulip.com", seeds.DevAPIKey("iago@zulip.com", "devpassword"))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var out struct {
			Messages []struct {
				ID      int64  `json:"id"`
				Content string `json:"content"`
			} `json:"messages"`
			FoundNewest bool `json:"found_newest"`
		}
		err = json.NewDecoder(resp.Body).Decode(&out)
		resp.Body.Close()
		if err != nil || resp.StatusCode != 200 {
			t.Fatalf("GET messages: %d %v", resp.StatusCode, err)
		}
		for _, m := range out.Messages {
			got[m.ID] = m.Content
		}
		if out.FoundNewest || len(out.Messages) == 0 {
			return got
		}
		anchor = strconv.FormatInt(out.Messages[len(out.Messages)-1].ID+1, 10)
	}
}

// TestThreeServicesConcurrentSends (measurement knobs: DRAIN_PER_SENDER sends per sender,
// default 60; DRAIN_ALL_ID=1 has every sender name its channel by id; DRAIN_LOG_STATEMENTS=1
// makes PostgreSQL log every statement of the three stores): three Services on one PostgreSQL database, eight senders
// (four into one channel, four into a channel each) through all three at once. Every send is
// answered with 200 (contention is retried or serialized, never a 500), and every answered
// message is stored, once.
func TestThreeServicesConcurrentSends(t *testing.T) {
	c := startInProcessCluster(t)
	perSender := 60
	if v, err := strconv.Atoi(os.Getenv("DRAIN_PER_SENDER")); err == nil {
		perSender = v
	}
	st := runSenders(t, c.bases, perSender)
	t.Logf("statuses %v, retry-after %v", st.statuses, st.retryHint)
	if len(st.noAnswer) > 0 {
		t.Errorf("answers other than 200 or 503 (first %d): %q", len(st.noAnswer), st.noAnswer)
	}
	if diff := cmp.Diff(map[int]int{http.StatusOK: perSender * len(senders)}, st.statuses); diff != "" {
		t.Errorf("statuses (-want +got):\n%s", diff)
	}
	stored := storedContents(t, c.bases[0])
	if diff := cmp.Diff(st.ids, stored); diff != "" {
		t.Errorf("messages answered with 200 vs stored (-answered +stored):\n%s", diff)
	}
}
