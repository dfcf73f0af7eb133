package httpapi_test

import (
	"fmt"
	"net/http"
	"net/url"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestMessagesOverHTTP(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	hamlet, iago := "hamlet@zulip.com", "iago@zulip.com"
	status, _, body := s.call(t, http.MethodPost, "/api/v1/users/me/subscriptions", hamlet, url.Values{
		"subscriptions": {`[{"name":"Verona"}]`}, "principals": {`[1,2]`},
	})
	if status != 200 {
		t.Fatalf("subscribe: %d %v", status, body)
	}
	var ids []float64
	for _, form := range []url.Values{
		{"type": {"stream"}, "to": {"Verona"}, "topic": {"party"}, "content": {"by name"}},
		{"type": {"channel"}, "to": {"1"}, "subject": {"party"}, "content": {"by id"}},
		{"type": {"stream"}, "to": {`["Verona"]`}, "topic": {"lunch"}, "content": {"by list"}},
		{"type": {"direct"}, "to": {`[1]`}, "content": {"dm by id"}},
		{"type": {"private"}, "to": {"iago@zulip.com"}, "content": {"dm by email"}},
	} {
		status, _, body := s.call(t, http.MethodPost, "/api/v1/messages", hamlet, form)
		if status != 200 {
			t.Fatalf("send %v: %d %v", form, status, body)
		}
		ids = append(ids, body["id"].(float64))
	}

	status, _, body = s.call(t, http.MethodGet, "/api/v1/messages", iago, url.Values{
		"anchor": {"newest"}, "num_before": {"10"}, "num_after": {"0"},
		"narrow": {`[{"operator":"channel","operand":"Verona"},["topic","party"]]`},
	})
	if status != 200 {
		t.Fatalf("get: %d %v", status, body)
	}
	var got []float64
	for _, m := range body["messages"].([]any) {
		got = append(got, m.(map[string]any)["id"].(float64))
	}
	if diff := cmp.Diff(ids[:2], got); diff != "" {
		t.Errorf("narrowed ids (-want +got):\n%s", diff)
	}
	if body["found_newest"] != true || body["found_anchor"] != false || body["anchor"] != 1e16 || body["history_limited"] != false {
		t.Errorf("anchor fields = %v", body)
	}
	first := body["messages"].([]any)[0].(map[string]any)
	if first["content"] != "<p>by name</p>" || !cmp.Equal(first["flags"], []any{}) {
		t.Errorf("first message = %v", first)
	}

	status, _, body = s.call(t, http.MethodGet, "/api/v1/messages", iago, url.Values{
		"anchor": {"oldest"}, "num_before": {"0"}, "num_after": {"10"}, "narrow": {`[{"operator":"is","operand":"dm"}]`},
	})
	if status != 200 || len(body["messages"].([]any)) != 2 {
		t.Fatalf("dm narrow: %d %v", status, body)
	}

	status, _, body = s.call(t, http.MethodGet, fmt.Sprintf("/api/v1/messages/%d", int64(ids[3])), hamlet, url.Values{"apply_markdown": {"false"}})
	if status != 200 || body["raw_content"] != "dm by id" || body["message"].(map[string]any)["content"] != "dm by id" {
		t.Fatalf("get one: %d %v", status, body)
	}

	status, _, body = s.call(t, http.MethodPost, "/api/v1/messages", hamlet, url.Values{
		"type": {"stream"}, "to": {"Verona"}, "topic": {"a"}, "subject": {"b"}, "content": {"x"},
	})
	wantErr(t, status, body, 400, "REQUEST_CONFUSING_VAR", "Can't decide between 'topic' and 'subject' arguments")
	status, _, body = s.call(t, http.MethodPost, "/api/v1/messages", hamlet, url.Values{"type": {"stream"}, "to": {"Verona"}})
	wantErr(t, status, body, 400, "REQUEST_VARIABLE_MISSING", "Missing 'content' argument")
	status, _, body = s.call(t, http.MethodGet, "/api/v1/messages", hamlet, url.Values{
		"anchor": {"newest"}, "num_before": {"1"}, "num_after": {"0"}, "narrow": {`[{"operator":"nope","operand":"x"}]`},
	})
	wantErr(t, status, body, 400, "BAD_NARROW", "Invalid narrow operator: unknown operator nope")
	if body["desc"] != "unknown operator nope" {
		t.Errorf("BAD_NARROW desc = %v", body["desc"])
	}
	status, _, body = s.call(t, http.MethodGet, "/api/v1/messages/999", hamlet, nil)
	wantErr(t, status, body, 400, "BAD_REQUEST", "Invalid message(s)")

	status, _, body = s.call(t, http.MethodPost, "/api/v1/messages/flags", iago, url.Values{
		"messages": {`[1,2]`}, "op": {"add"}, "flag": {"read"},
	})
	if status != 200 || !cmp.Equal(body["messages"], []any{1.0, 2.0}) {
		t.Fatalf("flags: %d %v", status, body)
	}
}
