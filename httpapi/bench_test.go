package httpapi_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/httpapi"
	"github.com/teamchat/chat/internal/benchorg"
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
	ctx := context.Background()
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
	ctx := context.Background()
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
