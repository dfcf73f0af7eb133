package httpapi_test

import (
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"testing"
)

func TestInvitesHTTP(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	const iago, hamlet = "iago@zulip.com", "hamlet@zulip.com"
	status, _, body := s.call(t, http.MethodPost, "/api/v1/channels/create", iago, url.Values{"name": {"lobby"}, "subscribers": {"[]"}})
	ch, _ := body["id"].(float64)
	if status != 200 {
		t.Fatalf("create channel: %d %v", status, body)
	}
	status, _, body = s.call(t, http.MethodPost, "/api/v1/invites/multiuse", iago, url.Values{
		"invite_expires_in_minutes": {"null"}, "invite_as": {"300"}, "stream_ids": {"[" + strconv.Itoa(int(ch)) + "]"},
		"include_realm_default_subscriptions": {"true"}, "welcome_message_custom_text": {"Hello"},
	})
	link, _ := body["invite_link"].(string)
	if status != 200 || !regexp.MustCompile(`^http://chat\.test/join/[a-z2-7]{24}/$`).MatchString(link) {
		t.Fatalf("POST /invites/multiuse: %d %v", status, body)
	}
	status, _, body = s.call(t, http.MethodGet, "/api/v1/invites", iago, nil)
	invites, _ := body["invites"].([]any)
	if status != 200 || len(invites) != 1 {
		t.Fatalf("GET /invites: %d %v", status, body)
	}
	inv := invites[0].(map[string]any)
	if inv["link_url"] != link || inv["expiry_date"] != nil || inv["invited_as"] != 300.0 || inv["is_multiuse"] != true {
		t.Errorf("invite = %v", inv)
	}
	for _, tt := range []struct {
		name   string
		as     string
		form   url.Values
		status int
		code   string
		msg    string
	}{
		{"member without permission", hamlet, nil, 400, "BAD_REQUEST", "Insufficient permission"},
		{"bad invite_as", iago, url.Values{"invite_as": {`"member"`}}, 400, "BAD_REQUEST", "invite_as is not an integer"},
		{"bad stream_ids", iago, url.Values{"stream_ids": {"1,2"}}, 400, "BAD_REQUEST", "stream_ids is not valid JSON"},
		{"unknown channel", iago, url.Values{"stream_ids": {"[999]"}}, 400, "BAD_REQUEST", "Invalid channel ID 999. No invites were sent."},
		{"zero minutes", iago, url.Values{"invite_expires_in_minutes": {"0"}}, 400, "BAD_REQUEST", "Invalid invite_expires_in_minutes"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			status, _, body := s.call(t, http.MethodPost, "/api/v1/invites/multiuse", tt.as, tt.form)
			wantErr(t, status, body, tt.status, tt.code, tt.msg)
		})
	}
	status, _, body = s.call(t, http.MethodDelete, "/api/v1/invites/multiuse/"+strconv.Itoa(int(inv["id"].(float64))), iago, nil)
	if status != 200 {
		t.Fatalf("DELETE: %d %v", status, body)
	}
	status, _, body = s.call(t, http.MethodDelete, "/api/v1/invites/multiuse/"+strconv.Itoa(int(inv["id"].(float64))), iago, nil)
	wantErr(t, status, body, 400, "BAD_REQUEST", "Invitation has already been revoked")
	_, _, body = s.call(t, http.MethodGet, "/api/v1/invites", iago, nil)
	if l, _ := body["invites"].([]any); len(l) != 0 {
		t.Errorf("after DELETE: %v", body)
	}
}
