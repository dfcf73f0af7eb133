package httpapi_test

import (
	"net/http"
	"net/url"
	"testing"
)

func TestSendMessageLocalEchoOverHTTP(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	hamlet := "hamlet@zulip.com"
	status, _, body := s.call(t, http.MethodPost, "/api/v1/register", hamlet, url.Values{"event_types": {`["message"]`}})
	if status != 200 {
		t.Fatalf("register: %d %v", status, body)
	}
	queue := body["queue_id"].(string)
	status, _, body = s.call(t, http.MethodPost, "/api/v1/messages", hamlet, url.Values{
		"type": {"direct"}, "to": {`[1]`}, "content": {"echo"}, "queue_id": {queue}, "local_id": {"100.01"},
	})
	if status != 200 {
		t.Fatalf("send: %d %v", status, body)
	}
	status, _, body = s.call(t, http.MethodGet, "/api/v1/events", hamlet, url.Values{
		"queue_id": {queue}, "last_event_id": {"-1"}, "dont_block": {"true"},
	})
	if status != 200 {
		t.Fatalf("events: %d %v", status, body)
	}
	evs := body["events"].([]any)
	if len(evs) != 1 || evs[0].(map[string]any)["local_message_id"] != "100.01" {
		t.Errorf("events = %v, want one message event with local_message_id 100.01", evs)
	}
	if _, ok := body["ignored_parameters_unsupported"]; ok {
		t.Errorf("ignored parameters: %v", body["ignored_parameters_unsupported"])
	}
}
