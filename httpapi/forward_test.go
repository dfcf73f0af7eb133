package httpapi_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/httpapi"
)

// router places queues "n1:..." at one URL; any other node is gone.
type router struct{ n1 *url.URL }

func (r router) RouteQueue(_ context.Context, id string) (bool, *url.URL, time.Duration, error) {
	node, _, ok := strings.Cut(id, ":")
	switch {
	case !ok || node == "front":
		return true, nil, 0, nil
	case node == "n1":
		return false, r.n1, 0, nil
	case node == "restarting":
		return false, nil, 1500 * time.Millisecond, nil
	}
	return false, nil, 0, nil
}

// TestForwardQueueRequests: GET and DELETE /events for another process's queue reach that
// process with all their parameters; a queue of a gone process is BAD_EVENT_QUEUE_ID, one of
// a restarting process 503 with Retry-After.
func TestForwardQueueRequests(t *testing.T) {
	t.Parallel()
	owner := newServer(t, func(o *chat.Options) { o.NodeID = "n1" })
	var forwarded atomic.Int32
	direct := httpapi.New(owner.svc, httpapi.Options{})
	holder := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-Teamchat-Forwarded") != "" {
			forwarded.Add(1)
		}
		direct.ServeHTTP(w, r)
	}))
	t.Cleanup(holder.Close)
	target, _ := url.Parse(holder.URL)
	front := &server{svc: owner.svc, store: owner.store, keys: owner.keys,
		Server: httptest.NewServer(httpapi.New(owner.svc, httpapi.Options{Queues: router{target}}))}
	t.Cleanup(front.Close)

	const as = "hamlet@zulip.com"
	status, _, body := owner.call(t, http.MethodPost, "/api/v1/register", as, nil)
	if status != 200 {
		t.Fatalf("register: %d %v", status, body)
	}
	q := body["queue_id"].(string)
	if !strings.HasPrefix(q, "n1:") {
		t.Fatalf("queue id %q does not name node n1", q)
	}
	status, _, body = front.call(t, http.MethodGet, "/api/v1/events", as, url.Values{"queue_id": {q}, "last_event_id": {"-1"}, "dont_block": {"true"}})
	if status != 200 || body["queue_id"] != q || forwarded.Load() != 1 {
		t.Fatalf("GET /events through another process: %d %v, %d forwarded", status, body, forwarded.Load())
	}
	status, _, body = front.call(t, http.MethodDelete, "/api/v1/events", as, url.Values{"queue_id": {q}})
	if status != 200 || forwarded.Load() != 2 {
		t.Fatalf("DELETE /events through another process: %d %v, %d forwarded", status, body, forwarded.Load())
	}
	status, _, body = owner.call(t, http.MethodGet, "/api/v1/events", as, url.Values{"queue_id": {q}, "last_event_id": {"-1"}, "dont_block": {"true"}})
	wantErr(t, status, body, 400, "BAD_EVENT_QUEUE_ID", "Bad event queue ID: "+q)

	gone := "n2:0e2b6c1e-0000-4000-8000-000000000000"
	status, _, body = front.call(t, http.MethodGet, "/api/v1/events", as, url.Values{"queue_id": {gone}, "last_event_id": {"-1"}})
	wantErr(t, status, body, 400, "BAD_EVENT_QUEUE_ID", "Bad event queue ID: "+gone)
	if body["queue_id"] != gone || forwarded.Load() != 2 {
		t.Errorf("gone node: body %v, %d forwarded; want queue_id and no forwarding", body, forwarded.Load())
	}
	restarting := "restarting:0e2b6c1e-0000-4000-8000-000000000000"
	status, header, body := front.call(t, http.MethodGet, "/api/v1/events", as, url.Values{"queue_id": {restarting}, "last_event_id": {"-1"}})
	if status != 503 || body["code"] == "BAD_EVENT_QUEUE_ID" || header.Get("Retry-After") != "2" || forwarded.Load() != 2 {
		t.Errorf("restarting node: %d %v (Retry-After %q), %d forwarded; want 503, Retry-After 2, no forwarding",
			status, body, header.Get("Retry-After"), forwarded.Load())
	}
	// Unauthenticated requests are refused before any routing.
	status, _, body = front.call(t, http.MethodGet, "/api/v1/events", "", url.Values{"queue_id": {gone}, "last_event_id": {"-1"}})
	if status != 401 {
		t.Errorf("unauthenticated: %d %v, want 401", status, body)
	}
}
