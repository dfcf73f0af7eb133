package httpapi_test

import (
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"strconv"
	"testing"
	"time"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/httpapi"
	"github.com/teamchat/chat/internal/benchorg"
	"github.com/teamchat/chat/ratelimit"
	"github.com/teamchat/chat/storage/memory"
)

// parkedServer serves a Service over a real listener with parked long-polls.
func parkedServer(t testing.TB, heartbeat, parkAfter time.Duration) (base string, svc *chat.Service, org *benchorg.Org) {
	t.Helper()
	base, svc, org, _ = parkedServerListener(t, heartbeat, parkAfter)
	return base, svc, org
}

// parkedServerListener is parkedServer, with the server's listener.
func parkedServerListener(t testing.TB, heartbeat, parkAfter time.Duration) (base string, svc *chat.Service, org *benchorg.Org, pl *httpapi.LongPollListener) {
	t.Helper()
	return parkedServerLimited(t, heartbeat, parkAfter, ratelimit.Rule{})
}

// parkedServerLimited is parkedServerListener with an API rate limit per user.
func parkedServerLimited(t testing.TB, heartbeat, parkAfter time.Duration, limit ratelimit.Rule) (base string, svc *chat.Service, org *benchorg.Org, pl *httpapi.LongPollListener) {
	t.Helper()
	return parkedServerUsers(t, heartbeat, parkAfter, limit, 3)
}

// parkedServerUsers is parkedServerLimited with this many members, all in the one channel.
func parkedServerUsers(t testing.TB, heartbeat, parkAfter time.Duration, limit ratelimit.Rule, users int) (base string, svc *chat.Service, org *benchorg.Org, pl *httpapi.LongPollListener) {
	t.Helper()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	store := memory.New()
	svc, err := chat.New(chat.Options{
		Store: store, HeartbeatWait: heartbeat, Logger: quiet,
		APIRateLimit: &limit, AnonymousAPIRateLimit: &ratelimit.Rule{},
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	if _, err := svc.CreateOrganization(ctx, chat.CreateOrganizationParams{Name: "Park", URL: "http://chat.test"}); err != nil {
		t.Fatal(err)
	}
	if org, err = benchorg.Build(ctx, svc, store, benchorg.Spec{Users: users, Channels: 1, SubsPerUser: 1}); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	pl = httpapi.NewLongPollListener(ln)
	srv := &http.Server{Handler: httpapi.New(svc, httpapi.Options{Logger: quiet, LongPolls: pl, ParkAfter: parkAfter})}
	go func() { _ = srv.Serve(pl) }()
	t.Cleanup(func() { svc.Close(); srv.Close(); store.Close() })
	return "http://" + ln.Addr().String(), svc, org, pl
}

// TestParkedLongPolls: with a LongPollListener, a waiting GET /events gives its connection up
// while it waits, answers when the event comes (or with a heartbeat, or an error), and the
// client's next requests go over the same keep-alive connection. With ParkAfter, a long-poll
// first waits in net/http, and the event finds it on either side of the switch.
func TestParkedLongPolls(t *testing.T) {
	t.Parallel()
	for _, after := range []time.Duration{0, time.Millisecond} {
		t.Run("park-after="+after.String(), func(t *testing.T) {
			t.Parallel()
			testParkedLongPolls(t, after)
		})
	}
}

func testParkedLongPolls(t *testing.T, parkAfter time.Duration) {
	base, svc, org := parkedServer(t, time.Hour, parkAfter)
	ctx := t.Context()
	me := chat.Actor{UserID: org.Members[0]}
	reg, err := svc.RegisterQueue(ctx, me, chat.RegisterQueueParams{EventTypes: []string{"message"}})
	if err != nil {
		t.Fatal(err)
	}
	client := &http.Client{Transport: &http.Transport{MaxConnsPerHost: 1}}
	var conns []string // the local address of each request's connection
	get := func(q url.Values, close bool) (int, http.Header, map[string]any) {
		t.Helper()
		req, err := http.NewRequest(http.MethodGet, base+"/api/v1/events?"+q.Encode(), nil)
		if err != nil {
			t.Fatal(err)
		}
		req.SetBasicAuth(org.Emails[0], org.Keys[0])
		req.Close = close
		req = req.WithContext(httptrace.WithClientTrace(req.Context(), &httptrace.ClientTrace{
			GotConn: func(i httptrace.GotConnInfo) { conns = append(conns, i.Conn.LocalAddr().String()) },
		}))
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var body map[string]any
		if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
			t.Fatal(err)
		}
		if resp.Close {
			resp.Header.Set("X-Connection-Closed", "true")
		}
		return resp.StatusCode, resp.Header, body
	}
	last := reg.LastEventID
	for round := range 3 {
		type answer struct {
			status int
			body   map[string]any
		}
		done := make(chan answer)
		go func() {
			status, _, body := get(url.Values{"queue_id": {*reg.QueueID}, "last_event_id": {strconv.FormatInt(last, 10)}}, false)
			done <- answer{status, body}
		}()
		waitLongPolls(t, svc, 1)
		topic := "park"
		if _, err := svc.SendMessage(ctx, org.Admin, chat.SendMessageParams{
			Type: "stream", ChannelID: &org.Channels[0], Topic: &topic, Content: "round " + strconv.Itoa(round),
		}); err != nil {
			t.Fatal(err)
		}
		a := <-done
		evs, _ := a.body["events"].([]any)
		if a.status != http.StatusOK || len(evs) != 1 || a.body["result"] != "success" {
			t.Fatalf("round %d: %d %v", round, a.status, a.body)
		}
		last = int64(evs[0].(map[string]any)["id"].(float64))
	}
	// An error found while parked: the queue is deleted meanwhile.
	done := make(chan map[string]any)
	go func() {
		status, _, body := get(url.Values{"queue_id": {*reg.QueueID}, "last_event_id": {strconv.FormatInt(last, 10)}}, false)
		if status != http.StatusBadRequest {
			t.Errorf("status %d, want 400", status)
		}
		done <- body
	}()
	waitLongPolls(t, svc, 1)
	if _, err := svc.DeleteQueue(ctx, me, chat.DeleteQueueParams{QueueID: *reg.QueueID}); err != nil {
		t.Fatal(err)
	}
	if body := <-done; body["code"] != "BAD_EVENT_QUEUE_ID" {
		t.Errorf("after the queue's deletion: %v, want BAD_EVENT_QUEUE_ID", body)
	}
	for i, c := range conns {
		if c != conns[0] {
			t.Errorf("request %d went over connection %s, want the first one (%s) kept alive", i, c, conns[0])
		}
	}
	// Connection: close is honoured.
	reg2, err := svc.RegisterQueue(ctx, me, chat.RegisterQueueParams{EventTypes: []string{"message"}})
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		waitLongPolls(t, svc, 1)
		topic := "park"
		if _, err := svc.SendMessage(ctx, org.Admin, chat.SendMessageParams{Type: "stream", ChannelID: &org.Channels[0], Topic: &topic, Content: "last"}); err != nil {
			t.Error(err)
		}
	}()
	_, header, _ := get(url.Values{"queue_id": {*reg2.QueueID}, "last_event_id": {strconv.FormatInt(reg2.LastEventID, 10)}}, true)
	if header.Get("X-Connection-Closed") != "true" {
		t.Errorf("the response to a request with Connection: close left the connection open")
	}
}

// TestParkedLongPollHeartbeat: a parked long-poll answers with a heartbeat when nothing
// comes.
func TestParkedLongPollHeartbeat(t *testing.T) {
	t.Parallel()
	base, svc, org := parkedServer(t, 10*time.Millisecond, 0)
	reg, err := svc.RegisterQueue(t.Context(), chat.Actor{UserID: org.Members[1]}, chat.RegisterQueueParams{EventTypes: []string{"message"}})
	if err != nil {
		t.Fatal(err)
	}
	req, err := http.NewRequest(http.MethodGet, base+"/api/v1/events?"+url.Values{"queue_id": {*reg.QueueID}, "last_event_id": {"-1"}}.Encode(), nil)
	if err != nil {
		t.Fatal(err)
	}
	req.SetBasicAuth(org.Emails[1], org.Keys[1])
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body struct {
		Events []struct {
			Type string `json:"type"`
		} `json:"events"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK || len(body.Events) != 1 || body.Events[0].Type != "heartbeat" {
		t.Errorf("%d %+v, want a heartbeat", resp.StatusCode, body)
	}
	if resp.Header.Get("Content-Type") != "application/json" || resp.Header.Get("Cache-Control") == "" {
		t.Errorf("headers %v", resp.Header)
	}
}
