package httpapi_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestBigBlueButtonJoin follows a link of GET /calls/bigbluebutton/create: an unconfigured
// Zulip refuses it, and so does this server, with Zulip's errors.
func TestBigBlueButtonJoin(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	status, _, body := s.call(t, http.MethodGet, "/api/v1/calls/bigbluebutton/create", "iago@zulip.com",
		url.Values{"meeting_name": {"standup"}})
	link, _ := body["url"].(string)
	if status != 200 || !strings.HasPrefix(link, "/calls/bigbluebutton/join?bigbluebutton=") {
		t.Fatalf("create = %d %v", status, body)
	}
	status, _, body = s.call(t, http.MethodGet, link, "", nil)
	wantErr(t, status, body, 400, "BAD_REQUEST", "BigBlueButton is not configured.")
	status, _, body = s.call(t, http.MethodGet, "/calls/bigbluebutton/join", "", nil)
	wantErr(t, status, body, 400, "REQUEST_VARIABLE_MISSING", "Missing 'bigbluebutton' argument")
}
