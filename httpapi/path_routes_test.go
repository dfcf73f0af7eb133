package httpapi_test

import (
	"net/http"
	"testing"
)

// TestPathIDs pins the answers for ids in the path: a segment that is no id is an unknown
// route; an id that names nothing is the Service's answer.
func TestPathIDs(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	const hamlet = "hamlet@zulip.com"
	for _, tt := range []struct {
		method, path string
		status       int
		code, msg    string
	}{
		{http.MethodGet, "/api/v1/messages/abc", 404, "NOT_FOUND", "Not Found"},
		{http.MethodGet, "/api/v1/messages/-1", 404, "NOT_FOUND", "Not Found"},
		{http.MethodGet, "/api/v1/messages/1.5", 404, "NOT_FOUND", "Not Found"},
		{http.MethodGet, "/api/v1/messages/1000000000000000000", 404, "NOT_FOUND", "Not Found"},
		{http.MethodGet, "/api/v1/streams/x1", 404, "NOT_FOUND", "Not Found"},
		{http.MethodDelete, "/api/v1/drafts/1e3", 404, "NOT_FOUND", "Not Found"},
		{http.MethodGet, "/api/v1/messages/999999999999999999", 400, "BAD_REQUEST", "Invalid message(s)"},
		{http.MethodGet, "/api/v1/streams/999999999999999999", 400, "BAD_REQUEST", "Invalid channel ID"},
		{http.MethodGet, "/api/v1/users/999999999999999999", 400, "BAD_REQUEST", "No such user"},
		{http.MethodGet, "/api/v1/users/1000000000000000000", 400, "BAD_REQUEST", "No such user"}, // read as an email
	} {
		status, _, body := s.call(t, tt.method, tt.path, hamlet, nil)
		t.Run(tt.method+" "+tt.path, func(t *testing.T) {
			wantErr(t, status, body, tt.status, tt.code, tt.msg)
		})
	}
}
