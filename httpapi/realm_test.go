package httpapi_test

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/google/go-cmp/cmp"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/users"
)

func TestUpdateRealmHTTP(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	const desdemona, iago = "desdemona@zulip.com", "iago@zulip.com"
	owner, err := s.svc.ProvisionUser(t.Context(), chat.ProvisionUserParams{Email: desdemona, FullName: "Desdemona", Role: users.RoleOwner})
	if err != nil {
		t.Fatal(err)
	}
	s.keys[desdemona] = owner.APIKey
	status, _, body := s.call(t, http.MethodPatch, "/api/v1/realm", desdemona, url.Values{
		"message_retention_days":               {`"unlimited"`},
		"message_content_delete_limit_seconds": {`"unlimited"`},
		"jitsi_server_url":                     {`"https://jitsi.example.com"`},
		"video_chat_provider":                  {"0"},
		"description":                          {"New *description*"},
		"authentication_methods":               {`{"Email": true, "Dev": true}`},
	})
	if status != 200 {
		t.Fatalf("PATCH /realm: %d %v", status, body)
	}
	want := map[string]any{"result": "success", "msg": "", "message_content_delete_limit_seconds": nil,
		"jitsi_server_url": "updated", "video_chat_provider": float64(0), "description": "updated"}
	if diff := cmp.Diff(want, body); diff != "" {
		t.Errorf("response (-want +got):\n%s", diff)
	}
	status, _, body = s.call(t, http.MethodPatch, "/api/v1/realm", iago, url.Values{"jitsi_server_url": {`"default"`}})
	if diff := cmp.Diff(map[string]any{"result": "success", "msg": "", "jitsi_server_url": nil}, body); status != 200 || diff != "" {
		t.Errorf("jitsi default: %d (-want +got):\n%s", status, diff)
	}
	for _, c := range []struct {
		params    url.Values
		code, msg string
	}{
		{url.Values{"message_content_delete_limit_seconds": {"0"}}, "BAD_REQUEST", "Bad value for 'message_content_delete_limit_seconds': 0"},
		{url.Values{"enable_read_receipts": {"maybe"}}, "BAD_REQUEST", "enable_read_receipts is not valid JSON"},
		{url.Values{"digest_weekday": {"9"}}, "BAD_REQUEST", "Invalid digest_weekday"},
		{url.Values{"jitsi_server_url": {`"ftp://x"`}}, "BAD_REQUEST", "jitsi_server_url is not an allowed_type"},
		{url.Values{"can_delete_any_message_group": {`{"new": 99999}`}}, "BAD_REQUEST", "Invalid user group ID: 99999"},
		{url.Values{"waiting_period_threshold": {"3"}}, "UNAUTHORIZED_PRINCIPAL", "Must be an organization owner"},
	} {
		status, _, body := s.call(t, http.MethodPatch, "/api/v1/realm", iago, c.params)
		wantErr(t, status, body, 400, c.code, c.msg)
	}
}
