package httpapi_test

import (
	"net/http"
	"net/url"
	"path/filepath"
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
	}{
		{"GET", "/api/v1/users/me", "", nil, "hamlet@zulip.com\x00"},
		{"POST", "/api/v1/fetch_api_key", "", url.Values{"username": {"hamlet@zulip.com\x00"}, "password": {password}}, ""},
		{"POST", "/api/v1/dev_fetch_api_key", "", url.Values{"username": {"hamlet\x00@zulip.com"}}, ""},
		{"PATCH", "/api/v1/settings", "hamlet@zulip.com", url.Values{"full_name": {"Ham\x00let"}}, ""},
		{"POST", "/api/v1/users/me/subscriptions", "hamlet@zulip.com", url.Values{"subscriptions": {`[{"name":"new\u0000channel"}]`}}, ""},
		{"POST", "/api/v1/users/me/subscriptions", "hamlet@zulip.com", url.Values{"subscriptions": {`[{"name":"new` + "\x00" + `channel"}]`}}, ""},
		{"POST", "/api/v1/users/me/alert_words", "hamlet@zulip.com", url.Values{"alert_words": {`["a\u0000"]`}}, ""},
		{"POST", "/api/v1/user_groups/create", "iago@zulip.com", url.Values{"name": {"g\x00"}, "description": {"d"}, "members": {"[]"}}, ""},
		{"POST", "/api/v1/messages", "hamlet@zulip.com", url.Values{"type": {"direct"}, "to": {`["iago@zulip.com"]`}, "content": {"a\x00b"}}, ""},
		{"POST", "/api/v1/drafts", "hamlet@zulip.com", url.Values{"drafts": {`[{"type":"","to":[],"topic":"","content":"a\u0000"}]`}}, ""},
		{"POST", "/api/v1/realm/filters", "iago@zulip.com", url.Values{"pattern": {"#(?P<id>[0-9]+)\x00"}, "url_template": {"https://x/{id}"}}, ""},
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
			if status != http.StatusBadRequest && status != http.StatusUnauthorized {
				t.Errorf("%s: %s %s %v: %d %v, want a client error", name, r.method, r.path, r.form, status, body)
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
