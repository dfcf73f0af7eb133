package httpapi_test

import (
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/internal/pgtest"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/storage/sqlstore"
)

// hostileBackends opens the stores a hostile request is tried against: memory (newServer's
// own), SQLite, and PostgreSQL when CHAT_TEST_POSTGRES_URL is set.
func hostileBackends(t *testing.T) map[string]func(t *testing.T) storage.Storage {
	t.Helper()
	open := func(dsn string) func(t *testing.T) storage.Storage {
		return func(t *testing.T) storage.Storage {
			s, err := sqlstore.Open(t.Context(), dsn)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s.Close() })
			return s
		}
	}
	b := map[string]func(t *testing.T) storage.Storage{
		"memory": nil,
		"sqlite": open("sqlite:" + filepath.Join(t.TempDir(), "chat.db")),
	}
	if pgtest.Configured() {
		b["postgres"] = open(pgtest.Schema(t))
	}
	return b
}

// TestNullBytesAnsweredAlikeEverywhere sends a null byte in text inputs, before and after
// login: every one is refused with the same client error on every backend (PostgreSQL cannot
// store it, and used to answer 500).
func TestNullBytesAnsweredAlikeEverywhere(t *testing.T) {
	t.Parallel()
	requests := []struct {
		method, path, as string
		form             url.Values
		basicEmail       string // with the member's key, instead of as
		msg              string // the answer's message, when pinned
	}{
		{"GET", "/api/v1/users/me", "", nil, "hamlet@zulip.com\x00", ""},
		{"POST", "/api/v1/fetch_api_key", "", url.Values{"username": {"hamlet@zulip.com\x00"}, "password": {password}}, "", ""},
		{"POST", "/api/v1/dev_fetch_api_key", "", url.Values{"username": {"hamlet\x00@zulip.com"}}, "", ""},
		{"PATCH", "/api/v1/settings", "hamlet@zulip.com", url.Values{"full_name": {"Ham\x00let"}}, "", ""},
		{"POST", "/api/v1/users/me/subscriptions", "hamlet@zulip.com", url.Values{"subscriptions": {`[{"name":"new\u0000channel"}]`}}, "", ""},
		{"POST", "/api/v1/users/me/subscriptions", "hamlet@zulip.com", url.Values{"subscriptions": {`[{"name":"new` + "\x00" + `channel"}]`}}, "", ""},
		{"POST", "/api/v1/users/me/alert_words", "hamlet@zulip.com", url.Values{"alert_words": {`["a\u0000"]`}}, "", ""},
		{"POST", "/api/v1/user_groups/create", "iago@zulip.com", url.Values{"name": {"g\x00"}, "description": {"d"}, "members": {"[]"}}, "", ""},
		{"POST", "/api/v1/messages", "hamlet@zulip.com", url.Values{"type": {"direct"}, "to": {`["iago@zulip.com"]`}, "content": {"a\x00b"}}, "", ""},
		{"POST", "/api/v1/drafts", "hamlet@zulip.com", url.Values{"drafts": {`[{"type":"","to":[],"topic":"","content":"a\u0000"}]`}}, "", ""},
		{"POST", "/api/v1/realm/filters", "iago@zulip.com", url.Values{"pattern": {"#(?P<id>[0-9]+)\x00"}, "url_template": {"https://x/{id}"}}, "", ""},
		// The shapes that reached PostgreSQL after the parameters had been checked one by one:
		// path segments, emails inside JSON, parameters the Service was trusted with.
		{"GET", "/api/v1/users/a%00b@zulip.com", "hamlet@zulip.com", nil, "", "Invalid user_id_or_email: must not contain null bytes"},
		{"GET", "/api/v1/users/a%00b@zulip.com/presence", "hamlet@zulip.com", nil, "", "Invalid user_id_or_email: must not contain null bytes"},
		{"PATCH", "/api/v1/users/a%00b@zulip.com", "iago@zulip.com", url.Values{"full_name": {"X"}}, "", "Invalid email: must not contain null bytes"},
		{"PATCH", "/api/v1/users/1%00", "iago@zulip.com", url.Values{"full_name": {"X"}}, "", "Invalid email: must not contain null bytes"},
		{"GET", "/avatar/a%00b@zulip.com", "hamlet@zulip.com", nil, "", "Invalid path: must not contain null bytes"},
		{"GET", "/avatar/a%00b@zulip.com/medium", "hamlet@zulip.com", nil, "", "Invalid path: must not contain null bytes"},
		{"POST", "/api/v1/saved_snippets", "hamlet@zulip.com", url.Values{"title": {"t"}, "content": {"a\x00b"}}, "", "Message must not contain null bytes"},
		{"PATCH", "/api/v1/saved_snippets/1", "hamlet@zulip.com", url.Values{"content": {"a\x00b"}}, "", "Message must not contain null bytes"},
		{"POST", "/api/v1/mark_topic_as_read", "hamlet@zulip.com", url.Values{"stream_id": {"1"}, "topic_name": {"a\x00b"}}, "", "Topic must not contain null bytes"},
		{"POST", "/api/v1/messages", "hamlet@zulip.com", url.Values{"type": {"direct"}, "to": {`["a\u0000b@zulip.com"]`}, "content": {"x"}}, "", "Invalid to: must not contain null bytes"},
		{"POST", "/api/v1/messages", "hamlet@zulip.com", url.Values{"type": {"stream"}, "to": {`"a\u0000b"`}, "topic": {"t"}, "content": {"x"}}, "", "Invalid to: must not contain null bytes"},
		{"GET", "/api/v1/messages", "hamlet@zulip.com", url.Values{"anchor": {"newest"}, "num_before": {"1"}, "num_after": {"0"}, "narrow": {`[["search","a\u0000b"]]`}}, "", "Invalid narrow: must not contain null bytes"},
		// Escaped in text that is never JSON, \u0000 is text.
		{"POST", "/api/v1/messages", "hamlet@zulip.com", url.Values{"type": {"direct"}, "to": {`["iago@zulip.com"]`}, "content": {`["\u0000"]`}}, "", ""},
	}
	type answer struct {
		Status int
		Body   map[string]any
	}
	got := map[string][]answer{}
	for name, open := range hostileBackends(t) {
		s := newServer(t, func(o *chat.Options) {
			if open != nil {
				o.Store = open(t)
			}
		})
		for _, r := range requests {
			var status int
			var body map[string]any
			if r.basicEmail != "" {
				req, err := http.NewRequest(r.method, s.URL+r.path, nil)
				if err != nil {
					t.Fatal(err)
				}
				req.SetBasicAuth(r.basicEmail, s.keys["hamlet@zulip.com"])
				status, _, body = do(t, req)
			} else {
				status, _, body = s.call(t, r.method, r.path, r.as, r.form)
			}
			switch {
			case strings.Contains(r.form.Get("content"), `\u0000`):
				if status != http.StatusOK {
					t.Errorf("%s: %s %s %v: %d %v, want success", name, r.method, r.path, r.form, status, body)
				}
				body = map[string]any{"result": body["result"]} // the message's id may differ
			case status != http.StatusBadRequest && status != http.StatusUnauthorized:
				t.Errorf("%s: %s %s %v: %d %v, want a client error", name, r.method, r.path, r.form, status, body)
			case r.msg != "" && body["msg"] != r.msg:
				t.Errorf("%s: %s %s %v: %d %v, want %q", name, r.method, r.path, r.form, status, body, r.msg)
			}
			got[name] = append(got[name], answer{status, body})
		}
	}
	for name, answers := range got {
		if diff := cmp.Diff(got["memory"], answers); diff != "" {
			t.Errorf("%s answers differently from memory (-memory +%s):\n%s", name, name, diff)
		}
	}
}
