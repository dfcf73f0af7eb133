package httpapi_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/httpapi"
	"github.com/teamchat/chat/internal/benchorg"
	"github.com/teamchat/chat/internal/cputime"
	"github.com/teamchat/chat/ratelimit"
	"github.com/teamchat/chat/storage/memory"
)

// benchServer is an HTTP server over a Service on the memory store with spec's organization;
// each setup runs on the store and organization before the server starts.
func benchServer(b *testing.B, spec benchorg.Spec, setup ...func(*memory.Store, *benchorg.Org) error) (*httptest.Server, *chat.Service, *benchorg.Org) {
	b.Helper()
	store := memory.New()
	svc, err := chat.New(chat.Options{
		Store: store, HeartbeatWait: time.Hour, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		APIRateLimit: &ratelimit.Rule{}, AnonymousAPIRateLimit: &ratelimit.Rule{},
	})
	if err != nil {
		b.Fatal(err)
	}
	ctx := b.Context()
	if _, err := svc.CreateOrganization(ctx, chat.CreateOrganizationParams{Name: "Bench", URL: "http://chat.test"}); err != nil {
		b.Fatal(err)
	}
	org, err := benchorg.Build(ctx, svc, store, spec)
	if err != nil {
		b.Fatal(err)
	}
	for _, f := range setup {
		if err := f(store, org); err != nil {
			b.Fatal(err)
		}
	}
	srv := httptest.NewServer(httpapi.New(svc, httpapi.Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}))
	b.Cleanup(func() { srv.Close(); svc.Close(); store.Close() })
	return srv, svc, org
}

func benchGet(b *testing.B, c *http.Client, target, email, key string, out any) {
	req, err := http.NewRequest(http.MethodGet, target, nil)
	if err != nil {
		b.Error(err)
		return
	}
	req.SetBasicAuth(email, key)
	resp, err := c.Do(req)
	if err != nil {
		b.Error(err)
		return
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		b.Errorf("GET %s: %d %s", target, resp.StatusCode, body)
		return
	}
	if out != nil {
		if err := json.Unmarshal(body, out); err != nil {
			b.Error(err)
		}
	}
}

// BenchmarkGetEventsWakeup: a client long-polls GET /events; each iteration sends a message
// (through the Service) and waits for the long-poll's response, then polls again. ns/op is
// the time from the send to the client holding the event, plus re-arming the poll.
func BenchmarkGetEventsWakeup(b *testing.B) {
	srv, svc, org := benchServer(b, benchorg.Spec{Users: 10, Channels: 1, SubsPerUser: 1})
	ctx := b.Context()
	me := chat.Actor{UserID: org.Members[0]}
	reg, err := svc.RegisterQueue(ctx, me, chat.RegisterQueueParams{EventTypes: []string{"message"}, FetchEventTypes: []string{}})
	if err != nil {
		b.Fatal(err)
	}
	c := srv.Client()
	last := reg.LastEventID
	got := make(chan int64)
	poll := func(last int64) {
		var res struct {
			Events []struct{ ID int64 } `json:"events"`
		}
		q := url.Values{"queue_id": {*reg.QueueID}, "last_event_id": {strconv.FormatInt(last, 10)}}
		benchGet(b, c, srv.URL+"/api/v1/events?"+q.Encode(), org.Emails[0], org.Keys[0], &res)
		id := last
		for _, e := range res.Events {
			id = max(id, e.ID)
		}
		got <- id
	}
	topic := "wake"
	b.ReportAllocs()
	for b.Loop() {
		go poll(last)
		// Let the poll attach (untimed) so that the send wakes a waiting long-poll.
		b.StopTimer()
		time.Sleep(200 * time.Microsecond)
		b.StartTimer()
		if _, err := svc.SendMessage(ctx, org.Admin, chat.SendMessageParams{
			Type: "stream", ChannelID: &org.Channels[0], Topic: &topic, Content: "wake up",
		}); err != nil {
			b.Fatal(err)
		}
		last = <-got
	}
}

// BenchmarkGetSubscriptionsHTTP serves GET /users/me/subscriptions (20 subscriptions, 100
// users) over loopback HTTP, against a bare net/http handler writing the same bytes.
func BenchmarkGetSubscriptionsHTTP(b *testing.B) {
	srv, _, org := benchServer(b, benchorg.Spec{Users: 100, Channels: 20, SubsPerUser: 20})
	c := srv.Client()
	target := srv.URL + "/api/v1/users/me/subscriptions"
	b.Run("server", func(b *testing.B) {
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				benchGet(b, c, target, org.Emails[0], org.Keys[0], nil)
			}
		})
	})
	req, _ := http.NewRequest(http.MethodGet, target, nil)
	req.SetBasicAuth(org.Emails[0], org.Keys[0])
	resp, err := c.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(body), `"subscriptions"`) {
		b.Fatalf("unexpected body %s", body)
	}
	bare := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write(body)
	}))
	defer bare.Close()
	b.Run("baseline=bare-net-http", func(b *testing.B) {
		b.ReportAllocs()
		bc := bare.Client()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				benchGet(b, bc, bare.URL+"/api/v1/users/me/subscriptions", org.Emails[0], org.Keys[0], nil)
			}
		})
	})
}

// BenchmarkParkedFanout: 100 clients long-poll GET /events over parked keep-alive
// connections (a LongPollListener), each polling again as soon as its response arrives;
// each iteration sends a message to their channel and waits until every client has it and
// every long-poll waits again. The clients allocate nothing per response, so allocs/op is
// the server's per message (100 deliveries); cpu-ms/op counts the clients' CPU too.
func BenchmarkParkedFanout(b *testing.B) {
	const clients = 100
	base, svc, org, _ := parkedServerUsers(b, time.Hour, 0, ratelimit.Rule{}, clients)
	ctx := b.Context()
	addr := strings.TrimPrefix(base, "http://")
	var got sync.WaitGroup
	stop := make(chan struct{})
	var done sync.WaitGroup
	for i := range clients {
		reg, err := svc.RegisterQueue(ctx, chat.Actor{UserID: org.Members[i]}, chat.RegisterQueueParams{EventTypes: []string{"message"}, FetchEventTypes: []string{}})
		if err != nil {
			b.Fatal(err)
		}
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { conn.Close() })
		auth := base64.StdEncoding.EncodeToString([]byte(org.Emails[i] + ":" + org.Keys[i]))
		fc := &fanoutClient{conn: conn, queue: url.QueryEscape(*reg.QueueID), auth: auth, host: addr, last: reg.LastEventID}
		done.Add(1)
		go func() {
			defer done.Done()
			fc.loop(b, &got, stop)
		}()
	}
	b.Cleanup(func() { close(stop); svc.Close(); done.Wait() })
	waitLongPolls(b, svc, clients)
	topic := "fanout"
	b.ReportAllocs()
	start := cputime.Process()
	for b.Loop() {
		got.Add(clients)
		if _, err := svc.SendMessage(ctx, org.Admin, chat.SendMessageParams{
			Type: "stream", ChannelID: &org.Channels[0], Topic: &topic, Content: "fan out",
		}); err != nil {
			b.Fatal(err)
		}
		got.Wait()
		for svc.QueueStats().LongPolls < clients {
			time.Sleep(20 * time.Microsecond)
		}
	}
	b.ReportMetric(float64(cputime.Process()-start)/float64(b.N)/float64(time.Millisecond), "cpu-ms/op")
}

// fanoutClient is one long-polling client of BenchmarkParkedFanout: its buffers are reused,
// so it allocates nothing per response.
type fanoutClient struct {
	conn              net.Conn
	queue, auth, host string
	last              int64
	req, buf, want    []byte
}

// loop polls until stop closes (or the connection does), counting each response on got.
func (c *fanoutClient) loop(b *testing.B, got *sync.WaitGroup, stop chan struct{}) {
	c.buf = make([]byte, 0, 8<<10)
	for {
		c.req = append(c.req[:0], "GET /api/v1/events?queue_id="...)
		c.req = append(c.req, c.queue...)
		c.req = append(c.req, "&last_event_id="...)
		c.req = strconv.AppendInt(c.req, c.last, 10)
		c.req = append(c.req, " HTTP/1.1\r\nHost: "...)
		c.req = append(c.req, c.host...)
		c.req = append(c.req, "\r\nAuthorization: Basic "...)
		c.req = append(c.req, c.auth...)
		c.req = append(c.req, "\r\n\r\n"...)
		if _, err := c.conn.Write(c.req); err != nil {
			return
		}
		if !c.response() {
			select {
			case <-stop:
			default:
				b.Error("fanout client: connection failed")
			}
			return
		}
		// One message event per response: its id is the next one.
		c.last++
		c.want = append(strconv.AppendInt(append(c.want[:0], `"id":`...), c.last, 10), '}')
		if !bytes.Contains(c.buf, c.want) {
			select {
			case <-stop: // the server closing answers with no events
				return
			default:
			}
			b.Errorf("fanout client: response %q has no event %d", c.buf, c.last)
			return
		}
		got.Done()
	}
}

// response reads one response (head and Content-Length body) into c.buf.
func (c *fanoutClient) response() bool {
	c.buf = c.buf[:0]
	for {
		if end := bytes.Index(c.buf, []byte("\r\n\r\n")); end >= 0 {
			i := bytes.Index(c.buf[:end], []byte("\r\nContent-Length: "))
			if i < 0 {
				return false
			}
			v := c.buf[i+len("\r\nContent-Length: "):]
			n := 0
			for _, d := range v[:bytes.IndexByte(v, '\r')] {
				n = n*10 + int(d-'0')
			}
			if len(c.buf) >= end+4+n {
				return true
			}
		}
		if len(c.buf) == cap(c.buf) {
			return false
		}
		n, err := c.conn.Read(c.buf[len(c.buf):cap(c.buf)])
		c.buf = c.buf[:len(c.buf)+n]
		if err != nil {
			return false
		}
	}
}
