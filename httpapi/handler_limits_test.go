package httpapi_test

import (
	"bytes"
	"context"
	"log/slog"
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
)

// observed records what a RequestObserver is told.
type observed struct {
	mu       sync.Mutex
	statuses map[string]int // route → last status
}

func (o *observed) ObserveRequest(method, route string, status int, _ time.Duration) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.statuses[method+" "+route] = status
}

func (o *observed) status(key string) (int, bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	s, ok := o.statuses[key]
	return s, ok
}

// TestAbandonedLongPollIsNoServerError: a client that gives up a long-poll is recorded as
// 499 (client closed request), not as a failed request of the server, and nothing is logged as
// an error.
func TestAbandonedLongPollIsNoServerError(t *testing.T) {
	t.Parallel()
	s := newServer(t, func(o *chat.Options) { o.HeartbeatWait = time.Minute })
	var logs lockedBuffer
	obs := &observed{statuses: map[string]int{}}
	api := httptest.NewServer(httpapi.New(s.svc, httpapi.Options{
		Observer: obs, Logger: slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
	}))
	t.Cleanup(api.Close)
	_, _, reg := s.call(t, "POST", "/api/v1/register", "hamlet@zulip.com", url.Values{"event_types": {`["message"]`}})
	q := url.Values{"queue_id": {reg["queue_id"].(string)}, "last_event_id": {strconv.FormatFloat(reg["last_event_id"].(float64), 'f', -1, 64)}}

	ctx, cancel := context.WithCancel(t.Context())
	req, err := http.NewRequestWithContext(ctx, "GET", api.URL+"/api/v1/events?"+q.Encode(), nil)
	if err != nil {
		t.Fatal(err)
	}
	req.SetBasicAuth("hamlet@zulip.com", s.keys["hamlet@zulip.com"])
	go func() {
		time.Sleep(100 * time.Millisecond) // the long-poll is waiting by then
		cancel()
	}()
	if _, err := http.DefaultClient.Do(req); err == nil {
		t.Fatal("the abandoned long-poll got an answer")
	}
	var got int
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		var ok bool
		if got, ok = obs.status("GET /api/v1/events"); ok {
			break
		}
	}
	if got != httpapi.StatusClientClosedRequest {
		t.Errorf("abandoned long-poll recorded as %d, want %d", got, httpapi.StatusClientClosedRequest)
	}
	if bytes.Contains([]byte(logs.String()), []byte("level=ERROR")) {
		t.Errorf("abandoned long-poll logged an error:\n%s", logs.String())
	}
}

// TestLongQueryStringGetsAJSONError: a query string past the limit is refused with a JSON
// error, and one within it (a big narrow) is served.
func TestLongQueryStringGetsAJSONError(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	narrow := `[{"operator":"search","operand":"` + strings.Repeat("x", httpapi.DefaultMaxQueryBytes) + `"}]`
	status, _, body := s.call(t, "GET", "/api/v1/messages", "hamlet@zulip.com", url.Values{"narrow": {narrow}, "anchor": {"newest"}, "num_before": {"1"}, "num_after": {"0"}})
	wantErr(t, status, body, http.StatusRequestURITooLong, "BAD_REQUEST", "")
	big := `[{"operator":"search","operand":"` + strings.Repeat("x", 100<<10) + `"}]` // past Go's old 64 KiB
	status, _, body = s.call(t, "GET", "/api/v1/messages", "hamlet@zulip.com", url.Values{"narrow": {big}, "anchor": {"newest"}, "num_before": {"1"}, "num_after": {"0"}})
	if status == http.StatusRequestURITooLong || status == http.StatusRequestHeaderFieldsTooLarge {
		t.Errorf("a 100 KiB narrow: %d %v", status, body)
	}
}
