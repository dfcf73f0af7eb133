package httpapi_test

import (
	"context"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	chat "github.com/teamchat/chat"
)

func TestUserStatusAndMutingEndpoints(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	status, _, body := s.call(t, http.MethodPost, "/api/v1/users/me/status", "hamlet@zulip.com", url.Values{
		"away": {"true"}, "status_text": {"Out to lunch"}, "emoji_name": {"burrito"}, "emoji_code": {"1f32f"}, "reaction_type": {"unicode_emoji"}})
	if status != 200 {
		t.Fatalf("set status: %d %v", status, body)
	}
	status, _, body = s.call(t, http.MethodGet, "/api/v1/users/2/status", "iago@zulip.com", nil)
	want := map[string]any{"away": true, "status_text": "Out to lunch", "emoji_name": "burrito", "emoji_code": "1f32f", "reaction_type": "unicode_emoji"}
	if diff := cmp.Diff(want, body["status"]); status != 200 || diff != "" {
		t.Fatalf("get status: %d %v %s", status, body, diff)
	}
	status, _, body = s.call(t, http.MethodGet, "/api/v1/users/1/status", "hamlet@zulip.com", nil)
	if diff := cmp.Diff(map[string]any{}, body["status"]); status != 200 || diff != "" {
		t.Fatalf("get empty status: %d %v %s", status, body, diff)
	}
	status, _, body = s.call(t, http.MethodPost, "/api/v1/users/me/status", "hamlet@zulip.com", url.Values{"away": {"yes"}})
	wantErr(t, status, body, 400, "BAD_REQUEST", "")
	status, _, body = s.call(t, http.MethodPost, "/api/v1/users/2/status", "iago@zulip.com", url.Values{"status_text": {""}})
	if status != 200 {
		t.Fatalf("admin clears the text: %d %v", status, body)
	}
	status, _, body = s.call(t, http.MethodPost, "/api/v1/users/me/muted_users/1", "hamlet@zulip.com", nil)
	if status != 200 {
		t.Fatalf("mute: %d %v", status, body)
	}
	status, _, body = s.call(t, http.MethodPost, "/api/v1/users/me/muted_users/1", "hamlet@zulip.com", nil)
	wantErr(t, status, body, 400, "BAD_REQUEST", "User already muted")
	status, _, body = s.call(t, http.MethodDelete, "/api/v1/users/me/muted_users/1", "hamlet@zulip.com", nil)
	if status != 200 {
		t.Fatalf("unmute: %d %v", status, body)
	}
	status, _, body = s.call(t, http.MethodDelete, "/api/v1/users/me/muted_users/1", "hamlet@zulip.com", nil)
	wantErr(t, status, body, 400, "BAD_REQUEST", "User is not muted")
}

func TestBotEndpoints(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	status, _, body := s.call(t, http.MethodPost, "/api/v1/bots", "hamlet@zulip.com", url.Values{
		"full_name": {"Hook Bot"}, "short_name": {"hook"}, "bot_type": {"3"}, "payload_url": {`"https://hooks.example.com/z"`}, "interface_type": {"2"}})
	if status != 200 {
		t.Fatalf("create: %d %v", status, body)
	}
	id := strconv.Itoa(int(body["user_id"].(float64)))
	status, _, body = s.call(t, http.MethodGet, "/api/v1/bots", "hamlet@zulip.com", nil)
	bots, _ := body["bots"].([]any)
	if status != 200 || len(bots) != 1 || bots[0].(map[string]any)["username"] != "hook-bot@chat.test" {
		t.Fatalf("list: %d %v", status, body)
	}
	status, _, body = s.call(t, http.MethodPatch, "/api/v1/bots/"+id, "hamlet@zulip.com", url.Values{
		"full_name": {"Deploy Hook"}, "service_payload_url": {`"https://hooks.example.com/v2"`}, "service_interface": {"1"}})
	if status != 200 || body["full_name"] != "Deploy Hook" || body["service_payload_url"] != "https://hooks.example.com/v2" || body["bot_owner"] != "hamlet@zulip.com" {
		t.Fatalf("update: %d %v", status, body)
	}
	status, _, body = s.call(t, http.MethodPost, "/api/v1/bots/"+id+"/api_key/regenerate", "hamlet@zulip.com", nil)
	if key, _ := body["api_key"].(string); status != 200 || len(key) != 32 {
		t.Fatalf("regenerate: %d %v", status, body)
	}
	status, _, body = s.call(t, http.MethodPatch, "/api/v1/bots/1", "hamlet@zulip.com", url.Values{"full_name": {"X Y"}})
	wantErr(t, status, body, 400, "BAD_REQUEST", "No such bot")
	status, _, body = s.call(t, http.MethodDelete, "/api/v1/bots/"+id, "hamlet@zulip.com", nil)
	if status != 200 {
		t.Fatalf("deactivate: %d %v", status, body)
	}
	status, _, body = s.call(t, http.MethodGet, "/api/v1/bots", "hamlet@zulip.com", nil)
	if bots, _ := body["bots"].([]any); status != 200 || len(bots) != 0 {
		t.Fatalf("list after deactivation: %d %v", status, body)
	}
}

// mailbox is a chat.Mailer keeping the last body it was given.
type mailbox struct {
	mu   sync.Mutex
	body string
}

func (m *mailbox) Send(_ context.Context, _, _, body string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.body = body
	return nil
}

func TestEmailInvitationJoinPage(t *testing.T) {
	t.Parallel()
	box := &mailbox{}
	s := newServer(t, func(o *chat.Options) { o.Mailer = box })
	status, _, body := s.call(t, http.MethodPost, "/api/v1/invites", "iago@zulip.com", url.Values{
		"invitee_emails": {"newbie@example.org"}, "stream_ids": {"[]"}})
	if status != 200 {
		t.Fatalf("invite: %d %v", status, body)
	}
	box.mu.Lock()
	link := regexp.MustCompile(`/join/[a-z2-7]{24}/`).FindString(box.body)
	box.mu.Unlock()
	if link == "" {
		t.Fatal("no link in the invitation")
	}
	jb := newJoinBrowser(t)
	token := jb.joinToken(t, s.URL+link)

	// Cross-site posts are refused with Django's 403 page and create nothing (before, each of
	// them created the account).
	for _, tc := range []struct {
		name   string
		origin string
		form   url.Values
		cookie bool
		reason string
	}{
		{"another site's page, no cookie", "https://evil.example", url.Values{}, false, "Origin checking failed - https://evil.example does not match any trusted origins."},
		{"no token", "", url.Values{}, true, "CSRF token missing."},
		{"no cookie", "", url.Values{"csrfmiddlewaretoken": {token}}, false, "CSRF cookie not set."},
		{"wrong token", "", url.Values{"csrfmiddlewaretoken": {strings.Repeat("a", 64)}}, true, "CSRF token from POST incorrect."},
	} {
		tc.form.Set("full_name", "Mallory")
		tc.form.Set("password", "a long password")
		req, _ := http.NewRequest(http.MethodPost, s.URL+link, strings.NewReader(tc.form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		if tc.origin != "" {
			req.Header.Set("Origin", tc.origin)
		}
		client := http.DefaultClient
		if tc.cookie {
			client = jb.Client
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		page, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusForbidden || !strings.Contains(string(page), tc.reason) {
			t.Errorf("%s: %d\n%s\nwant 403 with %q", tc.name, resp.StatusCode, page, tc.reason)
		}
	}
	status, _, body = s.call(t, http.MethodPost, "/api/v1/fetch_api_key", "", url.Values{"username": {"newbie@example.org"}, "password": {"a long password"}})
	if status != http.StatusUnauthorized {
		t.Fatalf("a refused cross-site post created the account: %d %v", status, body)
	}

	resp, err := jb.PostForm(s.URL+link, url.Values{"full_name": {"New Bie"}, "password": {"a long password"}, "csrfmiddlewaretoken": {token}})
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(page), "newbie@example.org is ready") {
		t.Fatalf("sign-up: %d\n%s", resp.StatusCode, page)
	}
	status, _, body = s.call(t, http.MethodPost, "/api/v1/fetch_api_key", "", url.Values{"username": {"newbie@example.org"}, "password": {"a long password"}})
	if status != 200 {
		t.Fatalf("login of the new account: %d %v", status, body)
	}
	resp, err = jb.PostForm(s.URL+link, url.Values{"full_name": {"Again"}, "password": {"a long password"}, "csrfmiddlewaretoken": {jb.joinToken(t, s.URL+link)}})
	if err != nil {
		t.Fatal(err)
	}
	page, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 400 || !strings.Contains(string(page), "already been used") {
		t.Errorf("second sign-up: %d\n%s", resp.StatusCode, page)
	}
}

// joinBrowser is an HTTP client with a cookie jar, as a browser keeps the csrftoken cookie.
type joinBrowser struct{ *http.Client }

func newJoinBrowser(t *testing.T) joinBrowser {
	t.Helper()
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	return joinBrowser{&http.Client{Jar: jar}}
}

var formTokenRE = regexp.MustCompile(`name="csrfmiddlewaretoken" value="([A-Za-z0-9]{64})"`)

// joinToken opens the sign-up page at link and returns its form's CSRF token.
func (b joinBrowser) joinToken(t *testing.T, link string) string {
	t.Helper()
	resp, err := b.Get(link)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	m := formTokenRE.FindStringSubmatch(string(page))
	if resp.StatusCode != 200 || !strings.Contains(string(page), `name="password"`) || m == nil {
		t.Fatalf("join page: %d\n%s", resp.StatusCode, page)
	}
	return m[1]
}
