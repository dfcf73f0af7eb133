package httpapi_test

import (
	"net/http"
	"net/url"
	"strconv"
	"testing"
)

func TestUserGroupsEndpoints(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	hamlet := strconv.FormatInt(s.userID(t, "hamlet@zulip.com"), 10)
	iago := strconv.FormatInt(s.userID(t, "iago@zulip.com"), 10)

	status, _, body := s.call(t, http.MethodPost, "/api/v1/user_groups/create", "hamlet@zulip.com", url.Values{
		"name": {"denmark"}, "description": {"Danes"}, "members": {"[" + hamlet + "]"},
		"can_mention_group": {`{"direct_members":[` + iago + `],"direct_subgroups":[]}`},
	})
	if status != 200 || body["group_id"] == nil {
		t.Fatalf("create: %d %v", status, body)
	}
	id := strconv.FormatInt(int64(body["group_id"].(float64)), 10)
	status, _, body = s.call(t, http.MethodPost, "/api/v1/user_groups/create", "hamlet@zulip.com", url.Values{"name": {"x"}, "description": {""}})
	wantErr(t, status, body, 400, "REQUEST_VARIABLE_MISSING", "Missing 'members' argument")
	status, _, body = s.call(t, http.MethodPost, "/api/v1/user_groups/create", "hamlet@zulip.com", url.Values{
		"name": {"x"}, "description": {""}, "members": {"[]"}, "can_join_group": {`"everyone"`}})
	wantErr(t, status, body, 400, "BAD_REQUEST", "")

	status, _, body = s.call(t, http.MethodPost, "/api/v1/user_groups/"+id+"/members", "hamlet@zulip.com", url.Values{"add": {"[" + iago + "]"}})
	if status != 200 {
		t.Fatalf("add members: %d %v", status, body)
	}
	status, _, body = s.call(t, http.MethodGet, "/api/v1/user_groups/"+id+"/members/"+iago, "hamlet@zulip.com", url.Values{"direct_member_only": {"true"}})
	if status != 200 || body["is_user_group_member"] != true {
		t.Errorf("membership: %d %v", status, body)
	}
	status, _, body = s.call(t, http.MethodGet, "/api/v1/user_groups/"+id+"/members", "hamlet@zulip.com", nil)
	if members, _ := body["members"].([]any); status != 200 || len(members) != 2 {
		t.Errorf("members: %d %v", status, body)
	}
	status, _, body = s.call(t, http.MethodPatch, "/api/v1/user_groups/"+id, "hamlet@zulip.com", url.Values{
		"name": {"danes"}, "can_mention_group": {`{"new":1}`}})
	if status != 200 {
		t.Errorf("patch: %d %v", status, body)
	}
	status, _, body = s.call(t, http.MethodGet, "/api/v1/user_groups", "hamlet@zulip.com", nil)
	groups, _ := body["user_groups"].([]any)
	last, _ := groups[len(groups)-1].(map[string]any)
	if status != 200 || last["name"] != "danes" || last["can_mention_group"] != 1.0 {
		t.Errorf("list: %d %v", status, last)
	}
	status, _, body = s.call(t, http.MethodPost, "/api/v1/user_groups/"+id+"/subgroups", "hamlet@zulip.com", url.Values{"add": {"[" + id + "]"}})
	wantErr(t, status, body, 400, "BAD_REQUEST", "")
	status, _, body = s.call(t, http.MethodGet, "/api/v1/user_groups/999/members/"+iago, "hamlet@zulip.com", nil)
	wantErr(t, status, body, 400, "BAD_REQUEST", "Invalid user group")
	status, _, body = s.call(t, http.MethodPost, "/api/v1/user_groups/"+id+"/deactivate", "hamlet@zulip.com", nil)
	if status != 200 {
		t.Errorf("deactivate: %d %v", status, body)
	}
}
