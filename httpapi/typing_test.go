package httpapi_test

import (
	"net/http"
	"net/url"
	"testing"
)

func TestTypingOverHTTP(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	hamlet, iago := "hamlet@zulip.com", "iago@zulip.com"
	status, _, body := s.call(t, http.MethodPost, "/api/v1/register", iago, url.Values{"event_types": {`["typing"]`}})
	if status != 200 {
		t.Fatalf("register: %d %v", status, body)
	}
	queue := body["queue_id"].(string)
	status, _, body = s.call(t, http.MethodPost, "/api/v1/typing", hamlet, url.Values{"op": {"start"}, "to": {"[1]"}})
	if status != 200 {
		t.Fatalf("typing: %d %v", status, body)
	}
	status, _, body = s.call(t, http.MethodGet, "/api/v1/events", iago, url.Values{"queue_id": {queue}, "last_event_id": {"-1"}, "dont_block": {"true"}})
	if status != 200 || len(body["events"].([]any)) != 1 {
		t.Fatalf("events: %d %v", status, body)
	}
	status, _, body = s.call(t, http.MethodPost, "/api/v1/typing", hamlet, url.Values{"op": {"start"}, "to": {"[]"}})
	wantErr(t, status, body, 400, "BAD_REQUEST", "Empty 'to' list")
	status, _, body = s.call(t, http.MethodPost, "/api/v1/typing", hamlet, url.Values{"op": {"start"}, "to": {`"x"`}})
	if status != 400 {
		t.Errorf("to that is no list: %d %v", status, body)
	}
	status, _, body = s.call(t, http.MethodPost, "/api/v1/typing", hamlet, url.Values{"to": {"[1]"}})
	wantErr(t, status, body, 400, "REQUEST_VARIABLE_MISSING", "Missing 'op' argument")
	status, _, body = s.call(t, http.MethodPost, "/api/v1/typing", hamlet, url.Values{"type": {"channel"}, "op": {"start"}, "topic": {"t"}})
	wantErr(t, status, body, 400, "BAD_REQUEST", "Missing channel ID")
}
