package httpapi_test

import (
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	chat "github.com/teamchat/chat"
	blobmemory "github.com/teamchat/chat/blobs/memory"
	"github.com/teamchat/chat/httpapi"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/storage/memory"
	"github.com/teamchat/chat/users"
)

// server is a test HTTP server over a real Service on the memory store.
type server struct {
	*httptest.Server
	svc   *chat.Service
	store storage.Storage
	keys  map[string]string // email -> API key
}

const password = "let me in please"

func newServer(t testing.TB, opts ...func(*chat.Options)) *server {
	t.Helper()
	store := memory.New()
	o := chat.Options{
		Store: store, Dev: true, HeartbeatWait: 50 * time.Millisecond,
		PasswordHashing: chat.PasswordHashing{MemoryKiB: 64, Passes: 1, Threads: 1},
		Blobs:           blobmemory.New(),
	}
	for _, f := range opts {
		f(&o)
	}
	svc, err := chat.New(o)
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	if _, err := svc.CreateOrganization(ctx, chat.CreateOrganizationParams{Name: "HTTP Org", URL: "http://chat.test"}); err != nil {
		t.Fatal(err)
	}
	s := &server{svc: svc, store: store, keys: map[string]string{}}
	for _, u := range []chat.ProvisionUserParams{
		{Email: "iago@zulip.com", FullName: "Iago", Role: users.RoleAdministrator, Password: password},
		{Email: "hamlet@zulip.com", FullName: "King Hamlet", Password: password},
	} {
		res, err := svc.ProvisionUser(ctx, u)
		if err != nil {
			t.Fatal(err)
		}
		s.keys[u.Email] = res.APIKey
	}
	s.Server = httptest.NewServer(httpapi.RecordForOpenAPI(httpapi.New(svc, httpapi.Options{MaxBodyBytes: 1 << 16})))
	t.Cleanup(func() { s.Close(); svc.Close(); store.Close() })
	return s
}

// call sends a request; form values go in the body for non-GET methods. as is an email
// whose key authenticates the request ("" for none).
func (s *server) call(t *testing.T, method, path, as string, form url.Values) (int, http.Header, map[string]any) {
	t.Helper()
	var body io.Reader
	target := s.URL + path
	if method == http.MethodGet {
		if len(form) > 0 {
			target += "?" + form.Encode()
		}
	} else {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, target, body)
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	if as != "" {
		req.SetBasicAuth(as, s.keys[as])
	}
	return do(t, req)
}

func do(t *testing.T, req *http.Request) (int, http.Header, map[string]any) {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatalf("%s %s: body %q is not a JSON object: %v", req.Method, req.URL.Path, raw, err)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type = %q", ct)
	}
	return resp.StatusCode, resp.Header, got
}

// wantErr checks an error envelope.
func wantErr(t *testing.T, status int, body map[string]any, wantStatus int, code, msg string) {
	t.Helper()
	if status != wantStatus || body["result"] != "error" || body["code"] != code || (msg != "" && body["msg"] != msg) {
		t.Errorf("got %d %v, want %d %s %q", status, body, wantStatus, code, msg)
	}
}

func TestServerSettings(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	status, _, body := s.call(t, http.MethodGet, "/api/v1/server_settings", "", nil)
	if status != 200 || body["result"] != "success" || body["msg"] != "" {
		t.Fatalf("got %d %v", status, body)
	}
	for _, key := range []string{"authentication_methods", "external_authentication_methods", "service_feature_level",
		"service_version", "service_merge_base", "zulip_version", "zulip_feature_level", "zulip_merge_base",
		"push_notifications_enabled", "is_incompatible", "email_auth_enabled", "require_email_format_usernames",
		"realm_url", "realm_uri", "realm_name", "realm_icon", "realm_description", "realm_web_public_access_enabled"} {
		if _, ok := body[key]; !ok {
			t.Errorf("server_settings lacks %s", key)
		}
	}
	if body["zulip_feature_level"] != 484.0 || body["realm_uri"] != "http://chat.test" {
		t.Errorf("got %v", body)
	}
}

func TestRouting(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	t.Run("doubled slash is served", func(t *testing.T) {
		status, _, body := s.call(t, http.MethodGet, "//api/v1/server_settings", "", nil)
		if status != 200 || body["result"] != "success" {
			t.Errorf("got %d %v", status, body)
		}
	})
	t.Run("unknown route", func(t *testing.T) {
		status, _, body := s.call(t, http.MethodGet, "/api/v1/no/such/thing", "", nil)
		wantErr(t, status, body, 404, "NOT_FOUND", "Not Found")
	})
	t.Run("outside the API", func(t *testing.T) {
		status, _, body := s.call(t, http.MethodGet, "/index.html", "", nil)
		wantErr(t, status, body, 404, "NOT_FOUND", "")
	})
	t.Run("wrong method", func(t *testing.T) {
		status, header, body := s.call(t, http.MethodPut, "/api/v1/events", "", nil)
		if status != 405 || body["result"] != "error" || header.Get("Allow") != "DELETE, GET, HEAD" {
			t.Errorf("got %d %v allow %q", status, body, header.Get("Allow"))
		}
		if diff := cmp.Diff([]any{"DELETE", "GET", "HEAD"}, body["allowed_methods"]); diff != "" {
			t.Errorf("allowed_methods (-want +got):\n%s", diff)
		}
	})
	t.Run("ignored parameters are listed", func(t *testing.T) {
		status, _, body := s.call(t, http.MethodPost, "/api/v1/fetch_api_key", "", url.Values{
			"username": {"hamlet@zulip.com"}, "password": {password}, "zebra": {"1"}, "apple": {"2"},
		})
		if status != 200 {
			t.Fatalf("got %d %v", status, body)
		}
		if diff := cmp.Diff([]any{"apple", "zebra"}, body["ignored_parameters_unsupported"]); diff != "" {
			t.Errorf("ignored_parameters_unsupported (-want +got):\n%s", diff)
		}
	})
	t.Run("body too large", func(t *testing.T) {
		status, _, body := s.call(t, http.MethodPost, "/api/v1/fetch_api_key", "", url.Values{"username": {strings.Repeat("x", 1<<17)}})
		if status != 413 || body["result"] != "error" {
			t.Errorf("got %d %v", status, body)
		}
	})
}

func TestBasicAuth(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	hamlet := s.keys["hamlet@zulip.com"]
	basic := func(user, pass string) string {
		return "Basic " + base64.StdEncoding.EncodeToString([]byte(user+":"+pass))
	}
	tests := []struct {
		name   string
		header string
		status int
		code   string
		msg    string
	}{
		{"no credentials", "", 401, "UNAUTHORIZED", "Not logged in: API authentication or user session required"},
		{"not basic", "Bearer abc", 400, "BAD_REQUEST", "This endpoint requires HTTP basic authentication."},
		{"not base64", "Basic !!!", 401, "UNAUTHORIZED", "Invalid authorization header for basic auth"},
		{"no colon", "Basic " + base64.StdEncoding.EncodeToString([]byte("hamlet")), 401, "UNAUTHORIZED", "Invalid authorization header for basic auth"},
		{"two colons", basic("hamlet@zulip.com", hamlet+":x"), 401, "UNAUTHORIZED", "Invalid authorization header for basic auth"},
		{"malformed key", basic("hamlet@zulip.com", "abc"), 401, "UNAUTHORIZED", "Malformed API key"},
		{"wrong key", basic("hamlet@zulip.com", strings.Repeat("a", 32)), 401, "UNAUTHORIZED", "Invalid API key"},
		{"unknown user", basic("ghost@zulip.com", hamlet), 401, "UNAUTHORIZED", "Invalid API key"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, _ := http.NewRequest(http.MethodGet, s.URL+"/api/v1/events?queue_id=x&last_event_id=-1", nil)
			if tt.header != "" {
				req.Header.Set("Authorization", tt.header)
			}
			status, header, body := do(t, req)
			wantErr(t, status, body, tt.status, tt.code, tt.msg)
			if tt.status == 401 && header.Get("WWW-Authenticate") != `Basic realm="zulip"` {
				t.Errorf("WWW-Authenticate = %q", header.Get("WWW-Authenticate"))
			}
		})
	}
	t.Run("deactivated user", func(t *testing.T) {
		err := s.store.Update(t.Context(), func(tx storage.Tx) error {
			u, err := tx.Users().GetByEmail("hamlet@zulip.com")
			if err != nil {
				return err
			}
			u.IsActive = false
			return tx.Users().Update(u)
		})
		if err != nil {
			t.Fatal(err)
		}
		s.svc.ForgetCredentials() // a write behind the Service's back
		status, _, body := s.call(t, http.MethodPost, "/api/v1/register", "hamlet@zulip.com", nil)
		wantErr(t, status, body, 401, "UNAUTHORIZED", "Account is deactivated")
	})
}

func TestFetchAPIKeyOverHTTP(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	status, _, body := s.call(t, http.MethodPost, "/api/v1/fetch_api_key", "", url.Values{"username": {"hamlet@zulip.com"}, "password": {password}})
	if status != 200 || body["api_key"] != s.keys["hamlet@zulip.com"] || body["email"] != "hamlet@zulip.com" || body["user_id"] == nil {
		t.Errorf("got %d %v", status, body)
	}
	status, _, body = s.call(t, http.MethodPost, "/api/v1/fetch_api_key", "", url.Values{"username": {"hamlet@zulip.com"}})
	wantErr(t, status, body, 400, "REQUEST_VARIABLE_MISSING", "Missing 'password' argument")
	if body["var_name"] != "password" {
		t.Errorf("var_name = %v", body["var_name"])
	}
	for range 5 {
		status, _, body = s.call(t, http.MethodPost, "/api/v1/fetch_api_key", "", url.Values{"username": {"iago@zulip.com"}, "password": {"nope"}})
		wantErr(t, status, body, 401, "AUTHENTICATION_FAILED", "Your username or password is incorrect")
	}
	status, header, body := s.call(t, http.MethodPost, "/api/v1/fetch_api_key", "", url.Values{"username": {"iago@zulip.com"}, "password": {password}})
	wantErr(t, status, body, 429, "RATE_LIMIT_HIT", "API usage exceeded rate limit")
	if header.Get("Retry-After") == "" || body["retry-after"] == nil {
		t.Errorf("Retry-After header %q, body retry-after %v", header.Get("Retry-After"), body["retry-after"])
	}
}

func TestDevLogin(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	status, _, body := s.call(t, http.MethodPost, "/api/v1/dev_fetch_api_key", "", url.Values{"username": {"iago@zulip.com"}})
	if status != 200 || body["api_key"] != s.keys["iago@zulip.com"] {
		t.Errorf("got %d %v", status, body)
	}
	status, _, body = s.call(t, http.MethodGet, "/api/v1/dev_list_users", "", nil)
	if status != 200 || len(body["direct_admins"].([]any)) != 1 || len(body["direct_users"].([]any)) != 1 {
		t.Errorf("got %d %v", status, body)
	}
	prod := newServer(t, func(o *chat.Options) { o.Dev = false })
	status, _, body = prod.call(t, http.MethodPost, "/api/v1/dev_fetch_api_key", "", url.Values{"username": {"iago@zulip.com"}})
	wantErr(t, status, body, 400, "BAD_REQUEST", "DevAuthBackend not enabled.")
}

func TestRegisterAndEvents(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	const iago = "iago@zulip.com"
	status, _, reg := s.call(t, http.MethodPost, "/api/v1/register", iago, url.Values{
		"event_types":         {`["realm_user"]`},
		"client_capabilities": {`{"notification_settings_null": true, "future_capability": true}`},
		"idle_queue_timeout":  {"120"},
	})
	if status != 200 || reg["queue_id"] == nil || reg["last_event_id"] != -1.0 || reg["zulip_version"] == nil ||
		reg["idle_queue_timeout_secs"] != 120.0 || reg["realm_users"] == nil {
		t.Fatalf("register: %d %v", status, reg)
	}
	if _, ok := reg["max_stream_name_length"]; ok {
		t.Errorf("realm state sent for event_types [realm_user]")
	}
	queueID := reg["queue_id"].(string)

	status, _, body := s.call(t, http.MethodGet, "/api/v1/events", iago, url.Values{"queue_id": {queueID}, "last_event_id": {"-1"}, "dont_block": {"true"}})
	if status != 200 || len(body["events"].([]any)) != 0 {
		t.Fatalf("dont_block: %d %v", status, body)
	}
	status, _, body = s.call(t, http.MethodGet, "/api/v1/events", iago, url.Values{"queue_id": {queueID}, "last_event_id": {"-1"}})
	events := body["events"].([]any)
	if status != 200 || len(events) != 1 || events[0].(map[string]any)["type"] != "heartbeat" {
		t.Fatalf("blocking: %d %v", status, body)
	}
	if _, err := s.svc.ProvisionUser(t.Context(), chat.ProvisionUserParams{Email: "new@zulip.com", FullName: "Newcomer"}); err != nil {
		t.Fatal(err)
	}
	status, _, body = s.call(t, http.MethodGet, "/api/v1/events", iago, url.Values{"queue_id": {queueID}, "last_event_id": {"0"}})
	events = body["events"].([]any)
	if status != 200 || len(events) != 1 {
		t.Fatalf("after a new user: %d %v", status, body)
	}
	ev := events[0].(map[string]any)
	if ev["type"] != "realm_user" || ev["op"] != "add" || ev["id"] != 1.0 || ev["person"].(map[string]any)["full_name"] != "Newcomer" {
		t.Errorf("event = %v", ev)
	}

	status, _, body = s.call(t, http.MethodGet, "/api/v1/events", iago, url.Values{"queue_id": {queueID}, "last_event_id": {"true"}})
	wantErr(t, status, body, 400, "BAD_REQUEST", "last_event_id is not an integer")

	status, _, body = s.call(t, http.MethodDelete, "/api/v1/events", iago, url.Values{"queue_id": {queueID}})
	if status != 200 || body["result"] != "success" {
		t.Fatalf("delete: %d %v", status, body)
	}
	status, _, body = s.call(t, http.MethodGet, "/api/v1/events", iago, url.Values{"queue_id": {queueID}, "last_event_id": {"1"}})
	wantErr(t, status, body, 400, "BAD_EVENT_QUEUE_ID", "Bad event queue ID: "+queueID)
	if body["queue_id"] != queueID {
		t.Errorf("queue_id = %v", body["queue_id"])
	}
}

func TestRegisterParameterErrors(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	tests := []struct {
		name string
		form url.Values
		msg  string
	}{
		{"boolean as 1", url.Values{"apply_markdown": {"1"}}, "apply_markdown is not a boolean"},
		{"event_types not a list", url.Values{"event_types": {`"message"`}}, "event_types is not a list"},
		{"event_types not JSON", url.Values{"event_types": {`[message`}}, "event_types is not valid JSON"},
		{"bad include_subscribers", url.Values{"include_subscribers": {"sometimes"}}, "Invalid include_subscribers"},
		{"bad idle_queue_timeout", url.Values{"idle_queue_timeout": {"soon"}}, "Invalid idle_queue_timeout"},
		{"zero idle_queue_timeout", url.Values{"idle_queue_timeout": {"0"}}, "idle_queue_timeout is too small"},
		{"capabilities not an object", url.Values{"client_capabilities": {`[1]`}}, "client_capabilities is not a dict"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, _, body := s.call(t, http.MethodPost, "/api/v1/register", "hamlet@zulip.com", tt.form)
			wantErr(t, status, body, 400, "BAD_REQUEST", tt.msg)
		})
	}
	status, _, body := s.call(t, http.MethodPost, "/api/v1/register", "", nil)
	wantErr(t, status, body, 401, "UNAUTHORIZED", "Not logged in: API authentication or user session required")
}

func TestMultipartAndQueryParameters(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	// zulip-js sends parameters both in the query string and as multipart bodies.
	var b strings.Builder
	b.WriteString("--XYZ\r\nContent-Disposition: form-data; name=\"password\"\r\n\r\n" + password + "\r\n--XYZ--\r\n")
	req, _ := http.NewRequest(http.MethodPost, s.URL+"/api/v1/fetch_api_key?username=hamlet%40zulip.com", strings.NewReader(b.String()))
	req.Header.Set("Content-Type", "multipart/form-data; boundary=XYZ")
	status, _, body := do(t, req)
	if status != 200 || body["api_key"] != s.keys["hamlet@zulip.com"] {
		t.Errorf("got %d %v", status, body)
	}
}
