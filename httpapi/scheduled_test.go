package httpapi_test

import (
	"fmt"
	"net/http"
	"net/url"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestScheduledMessagesHTTP(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	const hamlet, iago = "hamlet@zulip.com", "iago@zulip.com"
	status, _, body := s.call(t, http.MethodPost, "/api/v1/channels/create", iago, url.Values{"name": {"lobby"}, "subscribers": {"[1, 2]"}})
	if status != 200 {
		t.Fatalf("create channel: %d %v", status, body)
	}
	ch := body["id"].(float64)

	status, _, body = s.call(t, http.MethodPost, "/api/v1/scheduled_messages", hamlet, url.Values{
		"type": {"channel"}, "to": {fmt.Sprint(ch)}, "topic": {"plans"}, "content": {"see you *later*"}, "scheduled_delivery_timestamp": {"4000000000"},
	})
	if status != 200 || body["scheduled_message_id"] == nil {
		t.Fatalf("POST /scheduled_messages: %d %v", status, body)
	}
	id := body["scheduled_message_id"].(float64)
	status, _, body = s.call(t, http.MethodPost, "/api/v1/scheduled_messages", hamlet, url.Values{
		"type": {"direct"}, "to": {"[1, 1]"}, "content": {"psst"}, "scheduled_delivery_timestamp": {"3900000000"}, "read_by_sender": {"true"},
	})
	if status != 200 {
		t.Fatalf("POST direct: %d %v", status, body)
	}
	dm := body["scheduled_message_id"].(float64)

	status, _, body = s.call(t, http.MethodGet, "/api/v1/scheduled_messages", hamlet, nil)
	want := map[string]any{"result": "success", "msg": "", "scheduled_messages": []any{
		map[string]any{"scheduled_message_id": dm, "type": "private", "to": []any{1.0}, "content": "psst", "rendered_content": "<p>psst</p>",
			"scheduled_delivery_timestamp": 3900000000.0, "failed": false},
		map[string]any{"scheduled_message_id": id, "type": "stream", "to": ch, "topic": "plans", "content": "see you *later*",
			"rendered_content": "<p>see you <em>later</em></p>", "scheduled_delivery_timestamp": 4000000000.0, "failed": false},
	}}
	if diff := cmp.Diff(want, body); status != 200 || diff != "" {
		t.Fatalf("GET /scheduled_messages: %d (-want +got):\n%s", status, diff)
	}

	status, _, body = s.call(t, http.MethodPatch, fmt.Sprintf("/api/v1/scheduled_messages/%d", int(id)), hamlet, url.Values{"topic": {"new plans"}})
	if status != 200 || len(body) != 2 {
		t.Fatalf("PATCH: %d %v", status, body)
	}
	status, _, body = s.call(t, http.MethodDelete, fmt.Sprintf("/api/v1/scheduled_messages/%d", int(dm)), hamlet, nil)
	if status != 200 {
		t.Fatalf("DELETE: %d %v", status, body)
	}

	status, _, body = s.call(t, http.MethodPost, "/api/v1/messages", iago, url.Values{"type": {"direct"}, "to": {"[2]"}, "content": {"remind me"}})
	if status != 200 {
		t.Fatalf("send: %d %v", status, body)
	}
	msg := body["id"].(float64)
	status, _, body = s.call(t, http.MethodPost, "/api/v1/reminders", hamlet, url.Values{
		"message_id": {fmt.Sprint(msg)}, "scheduled_delivery_timestamp": {"4000000000"}, "note": {"reply"},
	})
	if status != 200 || body["reminder_id"] == nil {
		t.Fatalf("POST /reminders: %d %v", status, body)
	}
	rid := body["reminder_id"].(float64)
	status, _, body = s.call(t, http.MethodGet, "/api/v1/reminders", hamlet, nil)
	list, _ := body["reminders"].([]any)
	if status != 200 || len(list) != 1 || list[0].(map[string]any)["reminder_target_message_id"] != msg ||
		list[0].(map[string]any)["reminder_id"] != rid || list[0].(map[string]any)["type"] != "private" {
		t.Fatalf("GET /reminders: %d %v", status, body)
	}
	status, _, body = s.call(t, http.MethodDelete, fmt.Sprintf("/api/v1/reminders/%d", int(rid)), hamlet, nil)
	if status != 200 {
		t.Fatalf("DELETE /reminders: %d %v", status, body)
	}

	path := fmt.Sprintf("/api/v1/scheduled_messages/%d", int(id))
	for _, tt := range []struct {
		name, method, path string
		form               url.Values
		status             int
		code, msg          string
	}{
		{"missing to", http.MethodPost, "/api/v1/scheduled_messages", url.Values{"type": {"direct"}, "content": {"x"}, "scheduled_delivery_timestamp": {"4000000000"}}, 400, "REQUEST_VARIABLE_MISSING", "Missing 'to' argument"},
		{"missing time", http.MethodPost, "/api/v1/scheduled_messages", url.Values{"type": {"direct"}, "to": {"[1]"}, "content": {"x"}}, 400, "REQUEST_VARIABLE_MISSING", "Missing 'scheduled_delivery_timestamp' argument"},
		{"time not an integer", http.MethodPost, "/api/v1/scheduled_messages", url.Values{"type": {"direct"}, "to": {"[1]"}, "content": {"x"}, "scheduled_delivery_timestamp": {"soon"}}, 400, "BAD_REQUEST", ""},
		{"past", http.MethodPost, "/api/v1/scheduled_messages", url.Values{"type": {"direct"}, "to": {"[1]"}, "content": {"x"}, "scheduled_delivery_timestamp": {"1000"}}, 400, "BAD_REQUEST", "Scheduled delivery time must be in the future."},
		{"list for a channel", http.MethodPost, "/api/v1/scheduled_messages", url.Values{"type": {"stream"}, "to": {fmt.Sprintf("[%d]", int(ch))}, "content": {"x"}, "scheduled_delivery_timestamp": {"4000000000"}}, 400, "BAD_REQUEST", "Invalid data type for channel ID"},
		{"emails for users", http.MethodPost, "/api/v1/scheduled_messages", url.Values{"type": {"private"}, "to": {`["iago@zulip.com"]`}, "content": {"x"}, "scheduled_delivery_timestamp": {"4000000000"}}, 400, "BAD_REQUEST", "Recipient list may only contain user IDs"},
		{"integer for users", http.MethodPost, "/api/v1/scheduled_messages", url.Values{"type": {"private"}, "to": {"1"}, "content": {"x"}, "scheduled_delivery_timestamp": {"4000000000"}}, 400, "BAD_REQUEST", "Invalid data type for recipients"},
		{"nothing to change", http.MethodPatch, path, url.Values{}, 400, "BAD_REQUEST", "Nothing to change"},
		{"another user's", http.MethodPatch, path, url.Values{"content": {"x"}}, 404, "BAD_REQUEST", "Scheduled message does not exist"},
		{"reminder of an unknown message", http.MethodPost, "/api/v1/reminders", url.Values{"message_id": {"999"}, "scheduled_delivery_timestamp": {"4000000000"}}, 400, "BAD_REQUEST", "Invalid message(s)"},
		{"deleted reminder", http.MethodDelete, fmt.Sprintf("/api/v1/reminders/%d", int(rid)), nil, 404, "BAD_REQUEST", "Reminder does not exist"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			as := hamlet
			if tt.name == "another user's" {
				as = iago
			}
			status, _, body := s.call(t, tt.method, tt.path, as, tt.form)
			if status != tt.status || body["code"] != tt.code || tt.msg != "" && body["msg"] != tt.msg {
				t.Errorf("%d %v, want %d %s %q", status, body, tt.status, tt.code, tt.msg)
			}
		})
	}
}
