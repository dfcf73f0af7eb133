package httpapi_test

import (
	"net/http"
	"net/url"
	"strconv"
	"testing"
)

func TestProfileFieldsEndpoints(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	status, _, body := s.call(t, http.MethodPost, "/api/v1/realm/profile_fields", "iago@zulip.com", url.Values{
		"name": {"Team"}, "field_type": {"3"}, "field_data": {`{"0":{"text":"Core","order":"1"}}`}, "hint": {"Your team"}})
	if status != 200 || body["id"] == nil {
		t.Fatalf("create: %d %v", status, body)
	}
	id := strconv.FormatInt(int64(body["id"].(float64)), 10)
	status, _, body = s.call(t, http.MethodPost, "/api/v1/realm/profile_fields", "hamlet@zulip.com", url.Values{"name": {"X"}})
	wantErr(t, status, body, 400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization administrator")
	status, _, body = s.call(t, http.MethodPost, "/api/v1/realm/profile_fields", "iago@zulip.com", url.Values{"name": {"Y"}, "field_data": {"{"}})
	wantErr(t, status, body, 400, "BAD_REQUEST", "field_data is not valid JSON")
	status, _, body = s.call(t, http.MethodGet, "/api/v1/realm/profile_fields", "hamlet@zulip.com", nil)
	if fields, _ := body["custom_fields"].([]any); status != 200 || len(fields) != 1 || fields[0].(map[string]any)["field_data"] != `{"0":{"text":"Core","order":"1"}}` {
		t.Errorf("list: %d %v", status, body)
	}
	status, _, body = s.call(t, http.MethodPatch, "/api/v1/users/me/profile_data", "hamlet@zulip.com", url.Values{"data": {`[{"id":` + id + `,"value":"0"}]`}})
	if status != 200 {
		t.Fatalf("update: %d %v", status, body)
	}
	status, _, body = s.call(t, http.MethodPatch, "/api/v1/users/me/profile_data", "hamlet@zulip.com", url.Values{"data": {`[{"id":` + id + `,"value":"9"}]`}})
	wantErr(t, status, body, 400, "BAD_REQUEST", "'9' is not a valid choice for 'Team'.")
	status, _, body = s.call(t, http.MethodPatch, "/api/v1/users/me/profile_data", "hamlet@zulip.com", url.Values{"data": {`[{"id":` + id + `,"value":"0","x":1}]`}})
	wantErr(t, status, body, 400, "BAD_REQUEST", "")
	status, _, body = s.call(t, http.MethodGet, "/api/v1/users/me", "hamlet@zulip.com", url.Values{"include_custom_profile_fields": {"true"}})
	if pd, _ := body["profile_data"].(map[string]any); status != 200 || pd[id] == nil {
		t.Errorf("profile_data: %d %v", status, body)
	}
	status, _, body = s.call(t, http.MethodDelete, "/api/v1/users/me/profile_data", "hamlet@zulip.com", url.Values{"data": {"[" + id + "]"}})
	if status != 200 {
		t.Errorf("delete: %d %v", status, body)
	}
}
