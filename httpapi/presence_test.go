package httpapi_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestAlertWordsEndpoints(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	words := func(body map[string]any) []any { l, _ := body["alert_words"].([]any); return l }
	status, _, body := s.call(t, http.MethodGet, "/api/v1/users/me/alert_words", "hamlet@zulip.com", nil)
	if status != 200 || words(body) == nil || len(words(body)) != 0 {
		t.Fatalf("get none: %d %v", status, body)
	}
	status, _, body = s.call(t, http.MethodPost, "/api/v1/users/me/alert_words", "hamlet@zulip.com", url.Values{"alert_words": {`["lunch"," Deploy ","deploy"]`}})
	if diff := cmp.Diff([]any{"lunch", "deploy"}, words(body)); status != 200 || diff != "" {
		t.Fatalf("add: %d %v %s", status, body, diff)
	}
	status, _, body = s.call(t, http.MethodDelete, "/api/v1/users/me/alert_words", "hamlet@zulip.com", url.Values{"alert_words": {`["LUNCH"]`}})
	if diff := cmp.Diff([]any{"deploy"}, words(body)); status != 200 || diff != "" {
		t.Fatalf("remove: %d %v %s", status, body, diff)
	}
	for _, tc := range []struct {
		name   string
		method string
		params url.Values
		code   string
		msg    string
	}{
		{"missing list", http.MethodPost, url.Values{}, "REQUEST_VARIABLE_MISSING", "Missing 'alert_words' argument"},
		{"not JSON", http.MethodPost, url.Values{"alert_words": {"lunch"}}, "BAD_REQUEST", "alert_words is not valid JSON"},
		{"not strings", http.MethodPost, url.Values{"alert_words": {`[1]`}}, "BAD_REQUEST", ""},
		{"too long", http.MethodPost, url.Values{"alert_words": {`["` + strings.Repeat("x", 101) + `"]`}}, "BAD_REQUEST", "alert_words[0] is too long (limit: 100 characters)"},
		{"missing list to remove", http.MethodDelete, url.Values{}, "REQUEST_VARIABLE_MISSING", "Missing 'alert_words' argument"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, _, body := s.call(t, tc.method, "/api/v1/users/me/alert_words", "hamlet@zulip.com", tc.params)
			wantErr(t, status, body, 400, tc.code, tc.msg)
		})
	}
	status, _, body = s.call(t, http.MethodGet, "/api/v1/users/me/alert_words", "hamlet@zulip.com", nil)
	if diff := cmp.Diff([]any{"deploy"}, words(body)); status != 200 || diff != "" {
		t.Errorf("after refusals: %d %v %s", status, body, diff)
	}
}
