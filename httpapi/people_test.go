package httpapi_test

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestUserStatusAndMutingEndpoints(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	status, _, body := s.call(t, http.MethodPost, "/api/v1/users/me/status", "hamlet@zulip.com", url.Values{
		"away": {"true"}, "status_text": {"Out to lunch"}, "emoji_name": {"burrito"}, "emoji_code": {"1f32f"}, "reaction_type": {"unicode_emoji"}})
	if status != 200 {
		t.Fatalf("set status: %d %v", status, body)
	}
	status, _, body = s.call(t, http.MethodGet, "/api/v1/users/2/status", "iago@zulip.com", nil)
	want := map[string]any{"away": true, "status_text": "Out to lunch", "emoji_name": "burrito", "emoji_code": "1f32f", "reaction_type": "unicode_emoji"}
	if diff := cmp.Diff(want, body["status"]); status != 200 || diff != "" {
		t.Fatalf("get status: %d %v %s", status, body, diff)
	}
	status, _, body = s.call(t, http.MethodGet, "/api/v1/users/1/status", "hamlet@zulip.com", nil)
	if diff := cmp.Diff(map[string]any{}, body["status"]); status != 200 || diff != "" {
		t.Fatalf("get empty status: %d %v %s", status, body, diff)
	}
	status, _, body = s.call(t, http.MethodPost, "/api/v1/users/me/status", "hamlet@zulip.com", url.Values{"away": {"yes"}})
	wantErr(t, status, body, 400, "BAD_REQUEST", "")
	status, _, body = s.call(t, http.MethodPost, "/api/v1/users/2/status", "iago@zulip.com", url.Values{"status_text": {""}})
	if status != 200 {
		t.Fatalf("admin clears the text: %d %v", status, body)
	}
	status, _, body = s.call(t, http.MethodPost, "/api/v1/users/me/muted_users/1", "hamlet@zulip.com", nil)
	if status != 200 {
		t.Fatalf("mute: %d %v", status, body)
	}
	status, _, body = s.call(t, http.MethodPost, "/api/v1/users/me/muted_users/1", "hamlet@zulip.com", nil)
	wantErr(t, status, body, 400, "BAD_REQUEST", "User already muted")
	status, _, body = s.call(t, http.MethodDelete, "/api/v1/users/me/muted_users/1", "hamlet@zulip.com", nil)
	if status != 200 {
		t.Fatalf("unmute: %d %v", status, body)
	}
	status, _, body = s.call(t, http.MethodDelete, "/api/v1/users/me/muted_users/1", "hamlet@zulip.com", nil)
	wantErr(t, status, body, 400, "BAD_REQUEST", "User is not muted")
}
