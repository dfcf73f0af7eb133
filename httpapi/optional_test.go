package httpapi_test

import (
	"net/http"
	"net/url"
	"testing"
)

// TestOptionalValues pins the answers for values that reach the Service as typed optionals
// or counts: an explicit invite_as of 0 is no role (absent means member), a visibility policy
// out of range, and counts of any size or sign.
func TestOptionalValues(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	const iago, hamlet = "iago@zulip.com", "hamlet@zulip.com"
	for _, tt := range []struct {
		name         string
		method, path string
		form         url.Values
		status       int
		code, msg    string
	}{
		{"invite_as 0", http.MethodPost, "/api/v1/invites/multiuse", url.Values{"invite_as": {"0"}}, 400, "BAD_REQUEST", "Invalid invite_as"},
		{"invite_as -1", http.MethodPost, "/api/v1/invites/multiuse", url.Values{"invite_as": {"-1"}}, 400, "BAD_REQUEST", "Invalid invite_as"},
		{"invite_as beyond 32 bits", http.MethodPost, "/api/v1/invites/multiuse", url.Values{"invite_as": {"4294967696"}}, 400, "BAD_REQUEST", "Invalid invite_as"},
		{"invite_as absent", http.MethodPost, "/api/v1/invites/multiuse", url.Values{}, 200, "", ""},
		{"visibility_policy 4", http.MethodPost, "/api/v1/user_topics", url.Values{"stream_id": {"1"}, "topic": {"t"}, "visibility_policy": {"4"}}, 400, "BAD_REQUEST", "Invalid visibility_policy"},
		{"visibility_policy -1", http.MethodPost, "/api/v1/user_topics", url.Values{"stream_id": {"1"}, "topic": {"t"}, "visibility_policy": {"-1"}}, 400, "BAD_REQUEST", "Invalid visibility_policy"},
		{"visibility_policy beyond 32 bits", http.MethodPost, "/api/v1/user_topics", url.Values{"stream_id": {"1"}, "topic": {"t"}, "visibility_policy": {"4294967297"}}, 400, "BAD_REQUEST", "Invalid visibility_policy"},
		{"negative num_before", http.MethodGet, "/api/v1/messages", url.Values{"anchor": {"newest"}, "num_before": {"-5"}, "num_after": {"0"}}, 400, "BAD_REQUEST", "Invalid num_before or num_after"},
		{"huge num_after", http.MethodGet, "/api/v1/messages", url.Values{"anchor": {"newest"}, "num_before": {"0"}, "num_after": {"9223372036854775807"}}, 400, "BAD_REQUEST", "Too many messages requested (maximum 5000)."},
		{"negative num_before for a narrow", http.MethodPost, "/api/v1/messages/flags/narrow", url.Values{"anchor": {"newest"}, "num_before": {"-9223372036854775808"}, "num_after": {"0"}, "narrow": {"[]"}, "op": {"add"}, "flag": {"read"}}, 400, "BAD_REQUEST", "Invalid num_before or num_after"},
	} {
		as := iago
		if tt.path == "/api/v1/user_topics" {
			as = hamlet
		}
		status, _, body := s.call(t, tt.method, tt.path, as, tt.form)
		t.Run(tt.name, func(t *testing.T) {
			if tt.status == 200 {
				if status != 200 || body["result"] != "success" {
					t.Errorf("got %d %v", status, body)
				}
				return
			}
			wantErr(t, status, body, tt.status, tt.code, tt.msg)
		})
	}
}
