package httpapi_test

import (
	"net/http"
	"net/url"
	"strconv"
	"testing"
)

// userID finds a user's id through GET /users/{email}.
func (s *server) userID(t *testing.T, email string) int64 {
	t.Helper()
	status, _, body := s.call(t, http.MethodGet, "/api/v1/users/"+email, "iago@zulip.com", nil)
	if status != 200 {
		t.Fatalf("GET /users/%s: %d %v", email, status, body)
	}
	return int64(body["user"].(map[string]any)["user_id"].(float64))
}

func TestUsersEndpoints(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	hamlet := s.userID(t, "hamlet@zulip.com")
	id := strconv.FormatInt(hamlet, 10)

	status, _, body := s.call(t, http.MethodGet, "/api/v1/users/"+id, "hamlet@zulip.com",
		url.Values{"include_custom_profile_fields": {"true"}, "client_gravatar": {"false"}})
	user, _ := body["user"].(map[string]any)
	if status != 200 || user["full_name"] != "King Hamlet" || user["profile_data"] == nil || user["avatar_url"] == nil {
		t.Errorf("GET /users/{id}: %d %v", status, body)
	}
	status, _, body = s.call(t, http.MethodGet, "/api/v1/users/me", "hamlet@zulip.com", nil)
	if status != 200 || body["user_id"] != float64(hamlet) || body["max_message_id"] != -1.0 {
		t.Errorf("GET /users/me: %d %v", status, body)
	}
	status, _, body = s.call(t, http.MethodGet, "/api/v1/users", "hamlet@zulip.com", url.Values{"user_ids": {"[" + id + "]"}})
	if members, _ := body["members"].([]any); status != 200 || len(members) != 1 {
		t.Errorf("GET /users?user_ids: %d %v", status, body)
	}
	status, _, body = s.call(t, http.MethodGet, "/api/v1/users", "hamlet@zulip.com", url.Values{"client_gravatar": {"yes"}})
	wantErr(t, status, body, 400, "BAD_REQUEST", "client_gravatar is not valid JSON")

	// PATCH: a member is refused; the administrator changes the role.
	status, _, body = s.call(t, http.MethodPatch, "/api/v1/users/"+id, "hamlet@zulip.com", url.Values{"role": {"200"}})
	wantErr(t, status, body, 400, "BAD_REQUEST", "Insufficient permission")
	status, _, body = s.call(t, http.MethodPatch, "/api/v1/users/"+id, "iago@zulip.com", url.Values{"role": {"300"}, "foo": {"1"}})
	if status != 200 || body["result"] != "success" || len(body["ignored_parameters_unsupported"].([]any)) != 1 {
		t.Errorf("PATCH role: %d %v", status, body)
	}
	status, _, body = s.call(t, http.MethodPatch, "/api/v1/users/"+id, "iago@zulip.com", url.Values{"role": {"\"300\""}})
	wantErr(t, status, body, 400, "BAD_REQUEST", "role is not an integer")

	// POST /bots, then DELETE of its owner deactivates both; bad actions are refused first.
	status, _, body = s.call(t, http.MethodPost, "/api/v1/bots", "hamlet@zulip.com", url.Values{"full_name": {"Hamlet Bot"}, "short_name": {"ham"}})
	if status != 200 || body["api_key"] == nil || body["user_id"] == nil {
		t.Fatalf("POST /bots: %d %v", status, body)
	}
	bot := strconv.FormatInt(int64(body["user_id"].(float64)), 10)
	status, _, body = s.call(t, http.MethodDelete, "/api/v1/users/"+id, "iago@zulip.com", url.Values{"actions": {`{"delete_profile":true,"wipe":true}`}})
	wantErr(t, status, body, 400, "BAD_REQUEST", "")
	status, _, body = s.call(t, http.MethodDelete, "/api/v1/users/"+id, "iago@zulip.com", url.Values{"actions": {`{"delete_profile":false}`}})
	if status != 200 {
		t.Fatalf("DELETE /users/{id}: %d %v", status, body)
	}
	status, _, body = s.call(t, http.MethodGet, "/api/v1/users/"+bot, "iago@zulip.com", nil)
	if user, _ := body["user"].(map[string]any); status != 200 || user["is_active"] != false {
		t.Errorf("bot after owner deactivation: %d %v", status, body)
	}
	status, _, body = s.call(t, http.MethodPost, "/api/v1/users/"+id+"/reactivate", "iago@zulip.com", nil)
	if status != 200 {
		t.Errorf("reactivate: %d %v", status, body)
	}
	// POST /users needs can_create_users.
	status, _, body = s.call(t, http.MethodPost, "/api/v1/users", "iago@zulip.com", url.Values{"email": {"x@zulip.com"}, "password": {"abcdefgh"}, "full_name": {"X Person"}})
	wantErr(t, status, body, 400, "BAD_REQUEST", "User not authorized to create users")
	status, _, body = s.call(t, http.MethodPost, "/api/v1/users", "iago@zulip.com", url.Values{"email": {"x@zulip.com"}})
	wantErr(t, status, body, 400, "REQUEST_VARIABLE_MISSING", "Missing 'password' argument")
}
