package httpapi_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"runtime"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/httpapi"
	"github.com/teamchat/chat/internal/benchorg"
	"github.com/teamchat/chat/internal/pgtest"
	"github.com/teamchat/chat/ratelimit"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/storage/memory"
	"github.com/teamchat/chat/storage/sqlstore"
)

// countingStore counts what reaches the store: the transactions opened outside the contexts
// carrying sendMark (the sends of the test), and, on a SQL store, the statements.
type countingStore struct {
	storage.Storage
	statements func() uint64 // the SQL store's count (sqlstore.Store.Statements); nil on memory
	other      atomic.Int64  // transactions outside a marked context
	marked     atomic.Uint64 // statements counted during the marked transactions
}

// sendMark marks the context of the test's own writes.
type sendMark struct{}

func (c *countingStore) stmts() uint64 {
	if c.statements == nil {
		return 0
	}
	return c.statements()
}

func (c *countingStore) View(ctx context.Context, fn func(storage.ReadTx) error) error {
	if ctx.Value(sendMark{}) == nil {
		c.other.Add(1)
		return c.Storage.View(ctx, fn)
	}
	before := c.stmts()
	defer func() { c.marked.Add(c.stmts() - before) }()
	return c.Storage.View(ctx, fn)
}

func (c *countingStore) Update(ctx context.Context, fn func(storage.Tx) error) error {
	if ctx.Value(sendMark{}) == nil {
		c.other.Add(1)
		return c.Storage.Update(ctx, fn)
	}
	before := c.stmts()
	defer func() { c.marked.Add(c.stmts() - before) }()
	return c.Storage.Update(ctx, fn)
}

// wakeupBackends are the stores of TestLongPollWakeupTouchesNoStore.
func wakeupBackends(t *testing.T) map[string]func(t *testing.T) *countingStore {
	sql := func(dsn func(t *testing.T) string) func(t *testing.T) *countingStore {
		return func(t *testing.T) *countingStore {
			s, err := sqlstore.Open(t.Context(), dsn(t))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s.Close() })
			return &countingStore{Storage: s, statements: s.Statements}
		}
	}
	b := map[string]func(t *testing.T) *countingStore{
		"memory": func(t *testing.T) *countingStore {
			s := memory.New()
			t.Cleanup(func() { s.Close() })
			return &countingStore{Storage: s}
		},
		"sqlite": sql(func(t *testing.T) string { return "sqlite:" + filepath.Join(t.TempDir(), "chat.db") }),
	}
	if pgtest.Configured() {
		b["postgres"] = sql(func(t *testing.T) string { return pgtest.Schema(t) })
	}
	return b
}

// TestLongPollWakeupTouchesNoStore: clients long-poll GET /events over HTTP; each message
// sent to their channel wakes them and they poll again. Once each client's credentials have
// been checked (its first request), the wake-ups, the responses and the next polls run no
// transaction and no statement at all: authentication comes from the credential cache (API
// keys on /api/v1/events, web sessions on /json/events) and the events from the in-memory
// queues.
func TestLongPollWakeupTouchesNoStore(t *testing.T) {
	t.Parallel()
	for name, open := range wakeupBackends(t) {
		t.Run(name+"/api key", func(t *testing.T) { testLongPollWakeups(t, open, false) })
		t.Run(name+"/session", func(t *testing.T) { testLongPollWakeups(t, open, true) })
	}
}

// testLongPollWakeups runs TestLongPollWakeupTouchesNoStore on one store, the clients
// authenticating with a web session (web) or their API key.
func testLongPollWakeups(t *testing.T, open func(t *testing.T) *countingStore, web bool) {
	t.Parallel()
	const clients, rounds = 20, 4
	store := open(t)
	srv, svc, org := wakeupServer(t, store, clients)
	mark := context.WithValue(t.Context(), sendMark{}, true)
	proceed := make([]chan struct{}, rounds)
	for i := range proceed {
		proceed[i] = make(chan struct{})
	}
	got := make(chan int, clients)
	for i := range clients {
		reg, err := svc.RegisterQueue(mark, chat.Actor{UserID: org.Members[i]}, chat.RegisterQueueParams{EventTypes: []string{"message"}})
		if err != nil {
			t.Fatal(err)
		}
		auth := func(r *http.Request) { r.SetBasicAuth(org.Emails[i], org.Keys[i]) }
		if web {
			sess, err := svc.StartSession(mark, chat.Actor{UserID: org.Members[i]})
			if err != nil {
				t.Fatal(err)
			}
			auth = func(r *http.Request) { r.AddCookie(&http.Cookie{Name: "sessionid", Value: sess.ID}) }
		}
		go longPollClient(t, srv, web, auth, *reg.QueueID, reg.LastEventID, proceed, got)
	}
	var other0 int64
	var stmts0, marked0 uint64
	topic := "wake"
	for round := range rounds {
		waitLongPolls(t, svc, clients)
		if round == 1 { // round 0 warmed the credentials up
			other0, stmts0, marked0 = store.other.Load(), store.stmts(), store.marked.Load()
		}
		if _, err := svc.SendMessage(mark, org.Admin, chat.SendMessageParams{
			Type: "stream", ChannelID: &org.Channels[0], Topic: &topic, Content: "round " + strconv.Itoa(round),
		}); err != nil {
			t.Fatal(err)
		}
		for range clients {
			if n := <-got; n != 1 {
				t.Fatalf("a long-poll woke with %d events, want 1", n)
			}
		}
		close(proceed[round])
	}
	waitLongPolls(t, svc, clients) // every client polls again after the last round
	wakeups := clients * (rounds - 1)
	if n := store.other.Load() - other0; n != 0 {
		t.Errorf("%d store transactions outside the sends for %d wake-ups and polls, want 0", n, wakeups)
	}
	if stmts := store.stmts() - stmts0; stmts != store.marked.Load()-marked0 {
		t.Errorf("%d statements during %d wake-ups and polls, %d of them the sends': want only the sends'", stmts, wakeups, store.marked.Load()-marked0)
	}
}

// wakeupServer serves a Service on store with an organization of n members in one channel.
func wakeupServer(t *testing.T, store storage.Storage, n int) (*httptest.Server, *chat.Service, *benchorg.Org) {
	t.Helper()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	svc, err := chat.New(chat.Options{
		Store: store, HeartbeatWait: time.Hour, Logger: quiet,
		APIRateLimit: &ratelimit.Rule{}, AnonymousAPIRateLimit: &ratelimit.Rule{},
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.WithValue(t.Context(), sendMark{}, true)
	if _, err := svc.CreateOrganization(ctx, chat.CreateOrganizationParams{Name: "Wake", URL: "http://chat.test"}); err != nil {
		t.Fatal(err)
	}
	org, err := benchorg.Build(ctx, svc, store, benchorg.Spec{Users: n, Channels: 1, SubsPerUser: 1})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(httpapi.New(svc, httpapi.Options{Logger: quiet}))
	// The Service first: closing it ends the waiting long-polls, which the server waits for.
	t.Cleanup(func() { svc.Close(); srv.Close() })
	return srv, svc, org
}

// longPollClient polls the queue over HTTP, reports how many events each poll returned, and
// waits for proceed[round] before polling again; it polls once more after the last round.
func longPollClient(t *testing.T, srv *httptest.Server, web bool, auth func(*http.Request), queueID string, last int64, proceed []chan struct{}, got chan<- int) {
	path := "/api/v1/events?"
	if web {
		path = "/json/events?"
	}
	for round := 0; ; round++ {
		q := url.Values{"queue_id": {queueID}, "last_event_id": {strconv.FormatInt(last, 10)}}
		req, err := http.NewRequest(http.MethodGet, srv.URL+path+q.Encode(), nil)
		if err != nil {
			t.Error(err)
			return
		}
		auth(req)
		resp, err := srv.Client().Do(req)
		if err != nil {
			return // the server is closing
		}
		var res struct {
			Events []struct {
				ID int64 `json:"id"`
			} `json:"events"`
		}
		err = json.NewDecoder(resp.Body).Decode(&res)
		resp.Body.Close()
		if round >= len(proceed) {
			return
		}
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Errorf("GET /events: %d %v", resp.StatusCode, err)
			got <- -1
			return
		}
		for _, e := range res.Events {
			last = max(last, e.ID)
		}
		got <- len(res.Events)
		<-proceed[round]
	}
}

// waitLongPolls waits until n long-polls wait on the Service's queues.
func waitLongPolls(t testing.TB, svc *chat.Service, n int) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for svc.QueueStats().LongPolls < n {
		if time.Now().After(deadline) {
			t.Fatalf("%d long-polls waiting after 30s, want %d", svc.QueueStats().LongPolls, n)
		}
		runtime.Gosched()
	}
}
