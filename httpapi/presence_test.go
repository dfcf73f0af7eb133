package httpapi_test

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestAlertWordsEndpoints(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	words := func(body map[string]any) []any { l, _ := body["alert_words"].([]any); return l }
	status, _, body := s.call(t, http.MethodGet, "/api/v1/users/me/alert_words", "hamlet@zulip.com", nil)
	if status != 200 || words(body) == nil || len(words(body)) != 0 {
		t.Fatalf("get none: %d %v", status, body)
	}
	status, _, body = s.call(t, http.MethodPost, "/api/v1/users/me/alert_words", "hamlet@zulip.com", url.Values{"alert_words": {`["lunch"," Deploy ","deploy"]`}})
	if diff := cmp.Diff([]any{"lunch", "deploy"}, words(body)); status != 200 || diff != "" {
		t.Fatalf("add: %d %v %s", status, body, diff)
	}
	status, _, body = s.call(t, http.MethodDelete, "/api/v1/users/me/alert_words", "hamlet@zulip.com", url.Values{"alert_words": {`["LUNCH"]`}})
	if diff := cmp.Diff([]any{"deploy"}, words(body)); status != 200 || diff != "" {
		t.Fatalf("remove: %d %v %s", status, body, diff)
	}
	for _, tc := range []struct {
		name   string
		method string
		params url.Values
		code   string
		msg    string
	}{
		{"missing list", http.MethodPost, url.Values{}, "REQUEST_VARIABLE_MISSING", "Missing 'alert_words' argument"},
		{"not JSON", http.MethodPost, url.Values{"alert_words": {"lunch"}}, "BAD_REQUEST", "alert_words is not valid JSON"},
		{"not strings", http.MethodPost, url.Values{"alert_words": {`[1]`}}, "BAD_REQUEST", ""},
		{"too long", http.MethodPost, url.Values{"alert_words": {`["` + strings.Repeat("x", 101) + `"]`}}, "BAD_REQUEST", "alert_words[0] is too long (limit: 100 characters)"},
		{"missing list to remove", http.MethodDelete, url.Values{}, "REQUEST_VARIABLE_MISSING", "Missing 'alert_words' argument"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, _, body := s.call(t, tc.method, "/api/v1/users/me/alert_words", "hamlet@zulip.com", tc.params)
			wantErr(t, status, body, 400, tc.code, tc.msg)
		})
	}
	status, _, body = s.call(t, http.MethodGet, "/api/v1/users/me/alert_words", "hamlet@zulip.com", nil)
	if diff := cmp.Diff([]any{"deploy"}, words(body)); status != 200 || diff != "" {
		t.Errorf("after refusals: %d %v %s", status, body, diff)
	}
}

func TestDeactivateUserDeletesMessagesOverHTTP(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	status, _, body := s.call(t, http.MethodPost, "/api/v1/messages", "hamlet@zulip.com", url.Values{
		"type": {"direct"}, "to": {`["iago@zulip.com"]`}, "content": {"to be deleted"}})
	if status != 200 {
		t.Fatalf("send: %d %v", status, body)
	}
	msg := strconv.FormatInt(int64(body["id"].(float64)), 10)
	status, _, body = s.call(t, http.MethodGet, "/api/v1/users/hamlet@zulip.com", "iago@zulip.com", nil)
	user, _ := body["user"].(map[string]any)
	if status != 200 || user == nil {
		t.Fatalf("get hamlet: %d %v", status, body)
	}
	hamlet := strconv.FormatInt(int64(user["user_id"].(float64)), 10)
	status, _, body = s.call(t, http.MethodDelete, "/api/v1/users/"+hamlet, "iago@zulip.com", url.Values{"actions": {`{"delete_direct_messages":"yes"}`}})
	wantErr(t, status, body, 400, "BAD_REQUEST", "")
	status, _, body = s.call(t, http.MethodGet, "/api/v1/messages/"+msg, "iago@zulip.com", nil)
	if status != 200 {
		t.Fatalf("message after a refused deactivation: %d %v", status, body)
	}
	status, _, body = s.call(t, http.MethodDelete, "/api/v1/users/"+hamlet, "iago@zulip.com", url.Values{"actions": {`{"delete_direct_messages":true}`}})
	if status != 200 {
		t.Fatalf("deactivate: %d %v", status, body)
	}
	status, _, body = s.call(t, http.MethodGet, "/api/v1/messages/"+msg, "iago@zulip.com", nil)
	wantErr(t, status, body, 400, "BAD_REQUEST", "Invalid message(s)")
}

func TestPresenceEndpoints(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	status, _, body := s.call(t, http.MethodPost, "/api/v1/users/me/presence", "hamlet@zulip.com", url.Values{
		"status": {"active"}, "new_user_input": {"true"}, "last_update_id": {"-1"}, "history_limit_days": {"365000"}})
	pr, _ := body["presences"].(map[string]any)
	if status != 200 || len(pr) != 1 || body["presence_last_update_id"] != float64(1) || body["server_timestamp"] == nil {
		t.Fatalf("report: %d %v", status, body)
	}
	var hamlet string
	for id := range pr {
		hamlet = id
	}
	status, _, body = s.call(t, http.MethodGet, "/api/v1/users/iago@zulip.com/presence", "hamlet@zulip.com", nil)
	wantErr(t, status, body, 400, "BAD_REQUEST", "No presence data for iago@zulip.com")
	status, _, body = s.call(t, http.MethodPost, "/api/v1/users/me/presence", "iago@zulip.com", url.Values{"status": {"idle"}, "ping_only": {"true"}})
	if status != 200 || body["presences"] != nil || body["presence_last_update_id"] != nil {
		t.Errorf("ping_only: %d %v", status, body)
	}
	status, _, body = s.call(t, http.MethodGet, "/api/v1/realm/presence", "iago@zulip.com", nil)
	if pr, _ := body["presences"].(map[string]any); status != 200 || len(pr) != 2 || body["presence_last_update_id"] != nil {
		t.Errorf("realm presence: %d %v", status, body)
	}
	status, _, body = s.call(t, http.MethodGet, "/api/v1/users/"+hamlet+"/presence", "iago@zulip.com", nil)
	if p, _ := body["presence"].(map[string]any); status != 200 || p["aggregated"] == nil || p["website"] == nil {
		t.Errorf("user presence by id: %d %v", status, body)
	}
	status, _, body = s.call(t, http.MethodGet, "/api/v1/users/hamlet@zulip.com/presence", "iago@zulip.com", url.Values{"slim_presence": {"true"}})
	if p, _ := body["presence"].(map[string]any); status != 200 || p["active_timestamp"] == nil {
		t.Errorf("user presence by email: %d %v", status, body)
	}
	for _, tc := range []struct {
		name   string
		method string
		path   string
		params url.Values
		code   string
		msg    string
	}{
		{"missing status", http.MethodPost, "users/me/presence", url.Values{}, "REQUEST_VARIABLE_MISSING", "Missing 'status' argument"},
		{"unknown status", http.MethodPost, "users/me/presence", url.Values{"status": {"busy"}}, "BAD_REQUEST", "Invalid status: busy"},
		{"ping_only not a boolean", http.MethodPost, "users/me/presence", url.Values{"status": {"active"}, "ping_only": {"1"}}, "BAD_REQUEST", "ping_only is not a boolean"},
		{"last_update_id not an integer", http.MethodPost, "users/me/presence", url.Values{"status": {"active"}, "last_update_id": {`"5"`}}, "BAD_REQUEST", "last_update_id is not an integer"},
		{"negative history", http.MethodPost, "users/me/presence", url.Values{"status": {"active"}, "history_limit_days": {"-3"}}, "BAD_REQUEST", "history_limit_days is too small"},
		{"unknown user", http.MethodGet, "users/99999/presence", nil, "BAD_REQUEST", "No such user"},
		{"slim_presence not a boolean", http.MethodGet, "users/" + hamlet + "/presence", url.Values{"slim_presence": {"yes"}}, "BAD_REQUEST", "slim_presence is not valid JSON"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, _, body := s.call(t, tc.method, "/api/v1/"+tc.path, "iago@zulip.com", tc.params)
			wantErr(t, status, body, 400, tc.code, tc.msg)
		})
	}
	status, _, body = s.call(t, http.MethodGet, "/api/v1/realm/presence", "iago@zulip.com", nil)
	if pr, _ := body["presences"].(map[string]any); status != 200 || len(pr) != 2 {
		t.Errorf("realm presence after refusals: %d %v", status, body)
	}
}

func TestOnboardingStepsEndpoint(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	path := "/api/v1/users/me/onboarding_steps"
	status, _, body := s.call(t, http.MethodPost, path, "hamlet@zulip.com", url.Values{"onboarding_step": {"intro_resolve_topic"}})
	if status != 200 || body["result"] != "success" {
		t.Fatalf("mark: %d %v", status, body)
	}
	for _, tc := range []struct {
		name   string
		params url.Values
		code   string
		msg    string
	}{
		{"missing step", url.Values{}, "REQUEST_VARIABLE_MISSING", "Missing 'onboarding_step' argument"},
		{"unknown step", url.Values{"onboarding_step": {"intro_streams"}}, "BAD_REQUEST", "Unknown onboarding_step: intro_streams"},
	} {
		status, _, body := s.call(t, http.MethodPost, path, "hamlet@zulip.com", tc.params)
		if status != 400 || body["code"] != tc.code || body["msg"] != tc.msg {
			t.Errorf("%s: %d %v, want 400 %s %q", tc.name, status, body, tc.code, tc.msg)
		}
	}
}
