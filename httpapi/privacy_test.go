package httpapi_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestPrivateChannelErrorsMatchMissing checks that a user without access to a private channel
// learns nothing from errors: every endpoint answers exactly as it does for a channel id that
// does not exist (after replacing the id in the message).
func TestPrivateChannelErrorsMatchMissing(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	status, _, body := s.call(t, http.MethodPost, "/api/v1/channels/create", "iago@zulip.com", url.Values{
		"name": {"secret plans"}, "subscribers": {"[]"}, "invite_only": {"true"},
	})
	if status != http.StatusOK {
		t.Fatalf("create private channel: %d %v", status, body)
	}
	private := fmt.Sprint(body["id"])
	const missing = "999"
	calls := []struct {
		method, path string
		form         func(id string) url.Values
	}{
		{http.MethodGet, "/api/v1/streams/%s", nil},
		{http.MethodGet, "/api/v1/streams/%s/members", nil},
		{http.MethodGet, "/api/v1/users/me/%s/topics", nil},
		{http.MethodPatch, "/api/v1/streams/%s", func(string) url.Values { return url.Values{"description": {"x"}} }},
		{http.MethodPost, "/api/v1/user_topics", func(id string) url.Values {
			return url.Values{"stream_id": {id}, "topic": {"t"}, "visibility_policy": {"1"}}
		}},
		{http.MethodPost, "/api/v1/messages", func(id string) url.Values {
			return url.Values{"type": {"stream"}, "to": {id}, "topic": {"t"}, "content": {"hello"}}
		}},
		{http.MethodGet, "/api/v1/messages", func(id string) url.Values {
			return url.Values{"anchor": {"newest"}, "num_before": {"5"}, "num_after": {"0"},
				"narrow": {`[{"operator":"channel","operand":` + id + `}]`}}
		}},
		{http.MethodPost, "/api/v1/drafts", func(id string) url.Values {
			return url.Values{"drafts": {`[{"type":"stream","to":[` + id + `],"topic":"t","content":"c"}]`}}
		}},
	}
	for _, c := range calls {
		t.Run(c.method+" "+c.path, func(t *testing.T) {
			answer := func(id string) (int, map[string]any) {
				path := c.path
				if strings.Contains(path, "%s") {
					path = fmt.Sprintf(path, id)
				}
				var form url.Values
				if c.form != nil {
					form = c.form(id)
				}
				status, _, body := s.call(t, c.method, path, "hamlet@zulip.com", form)
				for _, k := range []string{"msg", "desc"} {
					if msg, ok := body[k].(string); ok {
						body[k] = strings.ReplaceAll(msg, id, "ID")
					}
				}
				if fmt.Sprint(body["stream_id"]) == id {
					body["stream_id"] = "ID" // the id the request named, echoed back
				}
				return status, body
			}
			gotStatus, got := answer(private)
			wantStatus, want := answer(missing)
			if gotStatus != wantStatus || cmp.Diff(want, got) != "" {
				t.Errorf("private channel: %d %v; missing channel: %d %v", gotStatus, got, wantStatus, want)
			}
		})
	}
}
