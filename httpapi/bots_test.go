package httpapi_test

import (
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/httpapi"
	"github.com/teamchat/chat/internal/pgtest"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/storage/memory"
	"github.com/teamchat/chat/storage/sqlstore"
	"github.com/teamchat/chat/users"
)

// storageBackends are the stores the bot storage round trip runs on.
func storageBackends() map[string]func(t *testing.T) storage.Storage {
	sql := func(dsn func(t *testing.T) string) func(t *testing.T) storage.Storage {
		return func(t *testing.T) storage.Storage {
			s, err := sqlstore.Open(t.Context(), dsn(t))
			if err != nil {
				t.Fatal(err)
			}
			return s
		}
	}
	b := map[string]func(t *testing.T) storage.Storage{
		"memory": func(*testing.T) storage.Storage { return memory.New() },
		"sqlite": sql(func(t *testing.T) string { return "sqlite:" + filepath.Join(t.TempDir(), "chat.db") }),
	}
	if pgtest.Configured() {
		b["postgres"] = sql(func(t *testing.T) string { return pgtest.Schema(t) })
	}
	return b
}

// pythonClient sends requests exactly as the python zulip library's Client.call_endpoint does:
// Basic auth, GET parameters in the query, other methods' in a form body, non-string values
// JSON-encoded by json.dumps (", " and ": " separators).
type pythonClient struct {
	base, email, key string
}

func (c pythonClient) call(t *testing.T, method, rawQueryOrForm string) (int, map[string]any) {
	t.Helper()
	target := c.base + "/api/v1/bot_storage"
	var body io.Reader
	if method == http.MethodGet {
		if rawQueryOrForm != "" {
			target += "?" + rawQueryOrForm
		}
	} else {
		body = strings.NewReader(rawQueryOrForm)
	}
	req, err := http.NewRequestWithContext(t.Context(), method, target, body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(c.email+":"+c.key)))
	req.Header.Set("User-Agent", "ZulipPython/0.9.0 (Linux; CPython 3.12.3)")
	req.Header.Set("Accept", "*/*")
	req.Header.Set("Accept-Encoding", "gzip, deflate")
	if body != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, out
}

// TestBotStoragePythonRoundTrip sends the requests of the python library's update_storage and
// get_storage (and DELETE /bot_storage through call_endpoint) and checks the answers, on
// every backend.
func TestBotStoragePythonRoundTrip(t *testing.T) {
	t.Parallel()
	for name, open := range storageBackends() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			store := open(t)
			svc, err := chat.New(chat.Options{Store: store, PasswordHashing: chat.PasswordHashing{MemoryKiB: 64, Passes: 1, Threads: 1}})
			if err != nil {
				t.Fatal(err)
			}
			srv := httptest.NewServer(httpapi.New(svc, httpapi.Options{}))
			t.Cleanup(func() { srv.Close(); svc.Close(); store.Close() })
			ctx := t.Context()
			if _, err := svc.CreateOrganization(ctx, chat.CreateOrganizationParams{Name: "HTTP Org", URL: "http://chat.test"}); err != nil {
				t.Fatal(err)
			}
			owner, err := svc.ProvisionUser(ctx, chat.ProvisionUserParams{Email: "hamlet@zulip.com", FullName: "King Hamlet"})
			if err != nil {
				t.Fatal(err)
			}
			bot, err := svc.ProvisionUser(ctx, chat.ProvisionUserParams{Email: "storage-bot@zulip.com", FullName: "Storage",
				BotType: users.BotGeneric, BotOwnerID: owner.UserID})
			if err != nil {
				t.Fatal(err)
			}
			py := pythonClient{base: srv.URL, email: "storage-bot@zulip.com", key: bot.APIKey}
			ok := map[string]any{"result": "success", "msg": ""}
			steps := []struct {
				name, method, params string
				status               int
				want                 map[string]any
			}{
				{"update_storage", http.MethodPut,
					"storage=%7B%22entry+1%22%3A+%22value+1%22%2C+%22entry+2%22%3A+%22value+2%22%2C+%22entry+3%22%3A+%22value+3%22%7D",
					200, ok},
				{"get_storage with keys", http.MethodGet, "keys=%5B%22entry+1%22%2C+%22entry+3%22%5D", 200,
					map[string]any{"result": "success", "msg": "", "storage": map[string]any{"entry 1": "value 1", "entry 3": "value 3"}}},
				{"get_storage", http.MethodGet, "", 200, map[string]any{"result": "success", "msg": "",
					"storage": map[string]any{"entry 1": "value 1", "entry 2": "value 2", "entry 3": "value 3"}}},
				{"get_storage of a missing key", http.MethodGet, "keys=%5B%22entry+4%22%5D", 400,
					map[string]any{"result": "error", "msg": "Key does not exist.", "code": "BAD_REQUEST"}},
				{"remove a missing key removes nothing", http.MethodDelete, "keys=%5B%22entry+2%22%2C+%22entry+4%22%5D", 400,
					map[string]any{"result": "error", "msg": "Key does not exist.", "code": "BAD_REQUEST"}},
				{"remove", http.MethodDelete, "keys=%5B%22entry+2%22%5D", 200, ok},
				{"update_storage replaces", http.MethodPut, "storage=%7B%22entry+1%22%3A+%22%C3%BCber%22%7D", 200, ok},
				{"get_storage after", http.MethodGet, "", 200, map[string]any{"result": "success", "msg": "",
					"storage": map[string]any{"entry 1": "über", "entry 3": "value 3"}}},
				{"storage is not a dict of strings", http.MethodPut, "storage=%7B%22a%22%3A+1%7D", 400,
					map[string]any{"result": "error", "msg": `storage["a"] is not a string`, "code": "BAD_REQUEST"}},
				{"storage missing", http.MethodPut, "", 400,
					map[string]any{"result": "error", "msg": "Missing 'storage' argument", "code": "REQUEST_VARIABLE_MISSING", "var_name": "storage"}},
				{"remove everything", http.MethodDelete, "", 200, ok},
				{"get_storage when empty", http.MethodGet, "", 200, map[string]any{"result": "success", "msg": "", "storage": map[string]any{}}},
			}
			for _, s := range steps {
				status, got := py.call(t, s.method, s.params)
				if status != s.status {
					t.Errorf("%s: status %d, want %d (%v)", s.name, status, s.status, got)
				}
				if diff := cmp.Diff(s.want, got); diff != "" {
					t.Errorf("%s: response (-want +got):\n%s", s.name, diff)
				}
			}
			human := pythonClient{base: srv.URL, email: "hamlet@zulip.com", key: owner.APIKey}
			status, got := human.call(t, http.MethodGet, "")
			want := map[string]any{"result": "error", "msg": "This endpoint is only available to bot users.", "code": "PERMISSION_DENIED"}
			if diff := cmp.Diff(want, got); status != 400 || diff != "" {
				t.Errorf("a human's GET: status %d, response (-want +got):\n%s", status, diff)
			}
		})
	}
}
