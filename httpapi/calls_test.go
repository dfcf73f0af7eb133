package httpapi_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestBigBlueButtonJoin follows a link of GET /calls/bigbluebutton/create as an unconfigured
// Zulip answers it: a browser without a session goes to the login page first; a logged-in one
// gets Zulip's errors.
func TestBigBlueButtonJoin(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	status, _, body := s.call(t, http.MethodGet, "/api/v1/calls/bigbluebutton/create", "iago@zulip.com",
		url.Values{"meeting_name": {"standup"}})
	link, _ := body["url"].(string)
	if status != 200 || !strings.HasPrefix(link, "/calls/bigbluebutton/join?bigbluebutton=") {
		t.Fatalf("create = %d %v", status, body)
	}
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := noRedirect.Get(s.URL + link)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if loc := resp.Header.Get("Location"); resp.StatusCode != http.StatusFound ||
		!strings.HasPrefix(loc, "/login/?next=/calls/bigbluebutton/join%3Fbigbluebutton%3D") {
		t.Errorf("without a session: %d to %q, want a redirect to the login page", resp.StatusCode, loc)
	}
	signed, err := url.ParseQuery(strings.TrimPrefix(link, "/calls/bigbluebutton/join?"))
	if err != nil {
		t.Fatal(err)
	}
	b := devLogin(t, s, "iago@zulip.com")
	status, _, body = b.web(t, s, http.MethodGet, "/calls/bigbluebutton/join", "-", signed)
	wantErr(t, status, body, 400, "BAD_REQUEST", "BigBlueButton is not configured.")
	status, _, body = b.web(t, s, http.MethodGet, "/calls/bigbluebutton/join", "-", nil)
	wantErr(t, status, body, 400, "REQUEST_VARIABLE_MISSING", "Missing 'bigbluebutton' argument")
}
