package httpapi_test

import (
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/internal/benchorg"
	"github.com/teamchat/chat/ratelimit"
)

// selfServed registers a queue for the org's member i and returns a raw connection whose
// first long-poll net/http parked and answered, so that it serves the next ones itself, and
// the last event id seen.
func selfServed(t *testing.T, base string, svc *chat.Service, org *benchorg.Org, i int) (*rawClient, string, int64) {
	t.Helper()
	reg, err := svc.RegisterQueue(t.Context(), chat.Actor{UserID: org.Members[i]}, chat.RegisterQueueParams{EventTypes: []string{"message"}})
	if err != nil {
		t.Fatal(err)
	}
	c := dialRaw(t, base)
	c.write(c.request(pollQuery(*reg.QueueID, reg.LastEventID), org.Emails[i], org.Keys[i]))
	waitLongPolls(t, svc, 1)
	sendTo(t, svc, org, "first")
	_, body := c.read()
	return c, *reg.QueueID, lastEventID(t, body)
}

// TestParkedConnectionWaitEnds: a long-poll that a parked connection read itself waits on its
// queue while the connection's goroutine waits for its client, and its response (written by
// the deliverer) is the one GetEvents gives however the wait ends: the queue deleted, a newer
// long-poll from another connection, the heartbeat. A client that closes its side meanwhile,
// and the listener's Close, end the connection once the response is written.
func TestParkedConnectionWaitEnds(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		heartbeat time.Duration
		// end ends the wait; check reads and checks what the client gets.
		end func(t *testing.T, env *waitEnv)
	}{
		{name: "queue deleted", end: func(t *testing.T, env *waitEnv) {
			if _, err := env.svc.DeleteQueue(t.Context(), chat.Actor{UserID: env.org.Members[0]}, chat.DeleteQueueParams{QueueID: env.queue}); err != nil {
				t.Fatal(err)
			}
			if resp, body := env.c.read(); resp.StatusCode != http.StatusBadRequest || body["code"] != "BAD_EVENT_QUEUE_ID" || resp.Close {
				t.Fatalf("after the queue's deletion: %d %v", resp.StatusCode, body)
			}
		}},
		{name: "superseded", end: func(t *testing.T, env *waitEnv) {
			other := dialRaw(t, env.base)
			other.write(other.request(pollQuery(env.queue, env.last), env.org.Emails[0], env.org.Keys[0]))
			resp, body := env.c.read()
			if evs, _ := body["events"].([]any); resp.StatusCode != http.StatusOK || body["result"] != "success" || len(evs) != 0 {
				t.Fatalf("superseded long-poll: %d %v", resp.StatusCode, body)
			}
			waitLongPolls(t, env.svc, 1)
			sendTo(t, env.svc, env.org, "to the newer")
			if _, body := other.read(); lastEventID(t, body) != env.last+1 {
				t.Fatalf("the newer long-poll: %v", body)
			}
		}},
		{name: "heartbeat", heartbeat: 100 * time.Millisecond, end: func(t *testing.T, env *waitEnv) {
			_, body := env.c.read()
			if evs, _ := body["events"].([]any); len(evs) != 1 || evs[0].(map[string]any)["type"] != "heartbeat" {
				t.Fatalf("heartbeat: %v", body)
			}
		}},
		{name: "client closed", end: func(t *testing.T, env *waitEnv) {
			if err := env.c.conn.(*net.TCPConn).CloseWrite(); err != nil {
				t.Fatal(err)
			}
			sendTo(t, env.svc, env.org, "after the close")
			if _, body := env.c.read(); lastEventID(t, body) != env.last+1 {
				t.Fatalf("response after the client's close: %v", body)
			}
			wantClosed(t, env.c)
			if n := env.svc.QueueStats().LongPolls; n != 0 {
				t.Errorf("%d long-polls wait after the connection closed", n)
			}
		}},
		{name: "listener closed", end: func(t *testing.T, env *waitEnv) {
			if err := env.pl.Close(); err != nil {
				t.Fatal(err)
			}
			sendTo(t, env.svc, env.org, "after the listener's close")
			if _, body := env.c.read(); lastEventID(t, body) != env.last+1 {
				t.Fatalf("response after the listener's close: %v", body)
			}
			wantClosed(t, env.c)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			hb := tt.heartbeat
			if hb == 0 {
				hb = time.Hour
			}
			base, svc, org, pl := parkedServerListener(t, hb, 0)
			c, queue, last := selfServed(t, base, svc, org, 0)
			c.write(c.request(pollQuery(queue, last), org.Emails[0], org.Keys[0]))
			waitLongPolls(t, svc, 1)
			tt.end(t, &waitEnv{base: base, svc: svc, org: org, pl: pl, c: c, queue: queue, last: last})
		})
	}
}

// waitEnv is what TestParkedConnectionWaitEnds' cases work on.
type waitEnv struct {
	base  string
	svc   *chat.Service
	org   *benchorg.Org
	pl    interface{ Close() error }
	c     *rawClient
	queue string
	last  int64
}

// wantClosed checks that the server closed c.
func wantClosed(t *testing.T, c *rawClient) {
	t.Helper()
	_ = c.conn.SetReadDeadline(time.Now().Add(30 * time.Second)) // fails the test rather than hang
	if n, err := c.br.Read(make([]byte, 1)); n != 0 || !errors.Is(err, io.EOF) {
		t.Errorf("read %d bytes, %v; want the connection closed", n, err)
	}
}

// TestParkedConnectionsManyClients: many clients long-polling over connections that serve
// themselves, with messages sent while their responses are being written, each get every
// message once, in order (run it with -race).
func TestParkedConnectionsManyClients(t *testing.T) {
	t.Parallel()
	const clients, messages = 12, 40
	base, svc, org, _ := parkedServerUsers(t, time.Hour, 0, ratelimit.Rule{}, clients)
	// Each first poll is alone in waiting; the queues of the clients before it keep its
	// message too.
	cs := make([]*rawClient, clients)
	queues := make([]string, clients)
	lasts := make([]int64, clients)
	for i := range clients {
		cs[i], queues[i], lasts[i] = selfServed(t, base, svc, org, i)
	}
	var wg sync.WaitGroup
	errs := make(chan error, clients)
	for i := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- pollAll(cs[i], queues[i], org.Emails[i], org.Keys[i], lasts[i], clients-1-i+messages)
		}()
	}
	for m := range messages {
		sendTo(t, svc, org, "message "+strconv.Itoa(m))
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
}

// pollAll long-polls until it has the next n events after last, checking that they come
// once each, in order.
func pollAll(c *rawClient, queue, email, key string, last int64, n int) error {
	want := last + 1
	for want <= last+int64(n) {
		if _, err := io.WriteString(c.conn, c.request(pollQuery(queue, want-1), email, key)); err != nil {
			return err
		}
		resp, err := http.ReadResponse(c.br, nil)
		if err != nil {
			return err
		}
		var body struct {
			Events []struct{ ID int64 } `json:"events"`
		}
		err = decodeJSON(resp, &body)
		if err != nil || resp.StatusCode != http.StatusOK {
			return errors.Join(err, errors.New(resp.Status))
		}
		for _, e := range body.Events {
			if e.ID != want {
				return errors.New("event " + strconv.FormatInt(e.ID, 10) + ", want " + strconv.FormatInt(want, 10))
			}
			want++
		}
	}
	return nil
}

// decodeJSON decodes resp's body into out.
func decodeJSON(resp *http.Response, out any) error {
	defer resp.Body.Close()
	return json.NewDecoder(resp.Body).Decode(out)
}

// TestParkedConnectionSlowClient: a client that pipelines its polls without reading the
// responses fills its socket, so a response the deliverer writes goes only partly at once: the
// deliverer hands the rest to a goroutine of its own, and the connection serves the next poll
// once it is written. The client then reads every response, each with its one event, in order.
func TestParkedConnectionSlowClient(t *testing.T) {
	t.Parallel()
	base, svc, org := parkedServer(t, time.Hour, 0)
	c, queue, last := selfServed(t, base, svc, org, 0)
	// A smaller receive buffer than loopback's default, so that a few MB fill the sockets (much
	// smaller makes the transfer crawl: the sender waits for windows worth sending).
	if err := c.conn.(*net.TCPConn).SetReadBuffer(64 << 10); err != nil {
		t.Fatal(err)
	}
	const maxRounds = 600 // 9,000 characters each: more than the sockets hold (5 MB)
	content := strings.Repeat("x", 9000)
	rounds := 0
	for rounds < maxRounds {
		c.write(c.request(pollQuery(queue, last+int64(rounds)), org.Emails[0], org.Keys[0]))
		// Give the poll time to wait on its queue, so that the deliverer answers it. Once the
		// socket is full the connection no longer reads (its last response is still being
		// written): this round's message is then queued, and the client starts reading.
		waiting := false
		for i := 0; i < 200 && !waiting; i++ {
			if waiting = svc.QueueStats().LongPolls > 0; !waiting {
				time.Sleep(time.Millisecond)
			}
		}
		sendTo(t, svc, org, content)
		rounds++
		if !waiting {
			break
		}
	}
	if rounds == maxRounds {
		t.Fatalf("%d responses of 9 KB were all written at once", rounds)
	}
	for k := range rounds {
		resp, err := http.ReadResponse(c.br, nil)
		if err != nil {
			t.Fatal(err)
		}
		var body struct {
			Events []struct{ ID int64 } `json:"events"`
		}
		if err := decodeJSON(resp, &body); err != nil || resp.StatusCode != http.StatusOK || len(body.Events) != 1 || body.Events[0].ID != last+int64(k)+1 {
			t.Fatalf("response %d: %d, %v, %+v", k, resp.StatusCode, err, body.Events)
		}
	}
}
