package httpapi_test

import (
	"net/http"
	"net/url"
	"testing"
)

func TestMarkAsReadOverHTTP(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	hamlet, iago := "hamlet@zulip.com", "iago@zulip.com"
	for _, content := range []string{"one", "two", "three"} {
		if status, _, body := s.call(t, http.MethodPost, "/api/v1/messages", iago, url.Values{
			"type": {"direct"}, "to": {`["hamlet@zulip.com"]`}, "content": {content},
		}); status != 200 {
			t.Fatalf("send: %d %v", status, body)
		}
	}
	status, _, body := s.call(t, http.MethodPost, "/api/v1/messages/flags/narrow", hamlet, url.Values{
		"anchor": {"oldest"}, "num_before": {"0"}, "num_after": {"1"}, "narrow": {`[{"operator":"is","operand":"dm"}]`}, "op": {"add"}, "flag": {"read"},
	})
	if status != 200 || body["processed_count"] != float64(1) || body["updated_count"] != float64(1) || body["found_newest"] != false {
		t.Fatalf("flags/narrow: %d %v", status, body)
	}
	status, _, body = s.call(t, http.MethodPost, "/api/v1/messages/flags/narrow", hamlet, url.Values{
		"anchor": {"oldest"}, "num_before": {"0"}, "num_after": {"1"}, "op": {"add"}, "flag": {"read"},
	})
	wantErr(t, status, body, 400, "REQUEST_VARIABLE_MISSING", "Missing 'narrow' argument")
	status, _, body = s.call(t, http.MethodPost, "/api/v1/mark_all_as_read", hamlet, nil)
	if status != 200 || body["complete"] != true {
		t.Fatalf("mark_all_as_read: %d %v", status, body)
	}
	status, _, body = s.call(t, http.MethodPost, "/api/v1/mark_topic_as_read", hamlet, url.Values{"stream_id": {"1"}})
	wantErr(t, status, body, 400, "REQUEST_VARIABLE_MISSING", "Missing 'topic_name' argument")
	status, _, body = s.call(t, http.MethodPost, "/api/v1/mark_stream_as_read", hamlet, url.Values{"stream_id": {"999"}})
	wantErr(t, status, body, 400, "BAD_REQUEST", "Invalid channel ID")
}
