package httpapi_test

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	chat "github.com/teamchat/chat"
)

// testClock is a settable clock for the Service, so that sessions expire without sleeping.
type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *testClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }

func (c *testClock) Advance(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

// browser holds the cookies a login set: the session and the CSRF secret.
type browser struct {
	session, csrf string
}

// devLogin logs a browser in through POST /api/v1/dev_fetch_api_key, as Zulip's clients do.
func devLogin(t *testing.T, s *server, email string) browser {
	t.Helper()
	resp, err := http.PostForm(s.URL+"/api/v1/dev_fetch_api_key", url.Values{"username": {email}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("dev_fetch_api_key: %d", resp.StatusCode)
	}
	var b browser
	for _, c := range resp.Cookies() {
		switch c.Name {
		case "sessionid":
			b.session = c.Value
		case "csrftoken":
			b.csrf = c.Value
		}
	}
	if b.session == "" || b.csrf == "" {
		t.Fatalf("dev_fetch_api_key set no session cookies: %v", resp.Header["Set-Cookie"])
	}
	return b
}

// web sends a request as a browser: the cookies it holds, and the X-CSRFToken header when
// token is not "-".
func (b browser) web(t *testing.T, s *server, method, path, token string, form url.Values, header ...string) (int, http.Header, map[string]any) {
	t.Helper()
	target := s.URL + path
	var body *strings.Reader
	if method == http.MethodGet {
		target += "?" + form.Encode()
		body = strings.NewReader("")
	} else {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, target, body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if b.session != "" {
		req.AddCookie(&http.Cookie{Name: "sessionid", Value: b.session})
	}
	if b.csrf != "" {
		req.AddCookie(&http.Cookie{Name: "csrftoken", Value: b.csrf})
	}
	if token != "-" {
		req.Header.Set("X-CSRFToken", token)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	return do(t, req)
}

// mask is Django's _mask_cipher_secret with a fixed mask: what Zulip's web pages carry.
func mask(secret string) string {
	const chars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	m := "0123456789abcdefghijABCDEFGHIJkl"
	out := []byte(m)
	for i := range secret {
		x, y := strings.IndexByte(chars, secret[i]), strings.IndexByte(chars, m[i])
		out = append(out, chars[(x+y)%len(chars)])
	}
	return string(out)
}

func TestDevLoginSetsSessionCookies(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	resp, err := http.PostForm(s.URL+"/api/v1/dev_fetch_api_key", url.Values{"username": {"hamlet@zulip.com"}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	got := map[string]*http.Cookie{}
	for _, c := range resp.Cookies() {
		got[c.Name] = c
	}
	sess, csrf := got["sessionid"], got["csrftoken"]
	if sess == nil || csrf == nil {
		t.Fatalf("cookies = %v", resp.Header["Set-Cookie"])
	}
	if !chat.ValidSessionID(sess.Value) || sess.MaxAge != 14*24*3600 || !sess.HttpOnly || sess.SameSite != http.SameSiteLaxMode || sess.Path != "/" || sess.Secure {
		t.Errorf("session cookie = %+v", sess)
	}
	if len(csrf.Value) != 32 || csrf.HttpOnly || csrf.SameSite != http.SameSiteLaxMode || csrf.MaxAge != 31449600 {
		t.Errorf("csrftoken cookie = %+v", csrf)
	}
	// A refused login sets no cookie.
	resp, err = http.PostForm(s.URL+"/api/v1/dev_fetch_api_key", url.Values{"username": {"nobody@zulip.com"}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode == http.StatusOK || len(resp.Cookies()) != 0 {
		t.Errorf("refused login: %d, cookies %v", resp.StatusCode, resp.Cookies())
	}
}

// TestJSONRouteParity calls a few routes under /json/ with a session and under /api/v1/ with
// the API key: same answers.
func TestJSONRouteParity(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	b := devLogin(t, s, "hamlet@zulip.com")
	for _, c := range []struct {
		method, path string
		form         url.Values
	}{
		{"GET", "users/me", nil},
		{"GET", "streams", nil},
		{"POST", "users/me/alert_words", url.Values{"alert_words": {`["lunch"]`}}},
		{"GET", "users/me/alert_words", nil},
		{"DELETE", "users/me/alert_words", url.Values{"alert_words": {`["lunch"]`}}},
		{"POST", "channels/create", url.Values{"name": {"web"}, "subscribers": {"[]"}}},
		{"PATCH", "settings", url.Values{"enter_sends": {"true"}}},
		{"GET", "users/999", nil},
	} {
		webStatus, _, webBody := b.web(t, s, c.method, "/json/"+c.path, b.csrf, c.form)
		if c.method == "POST" && c.path == "channels/create" {
			c.form.Set("name", "api") // the channel the web created now exists
		}
		apiStatus, _, apiBody := s.call(t, c.method, "/api/v1/"+c.path, "hamlet@zulip.com", c.form)
		if c.path == "channels/create" {
			delete(webBody, "id")
			delete(apiBody, "id")
		}
		if webStatus != apiStatus || !cmp.Equal(webBody, apiBody) {
			t.Errorf("%s %s: /json/ %d %v; /api/v1/ %d %v", c.method, c.path, webStatus, webBody, apiStatus, apiBody)
		}
	}
}

func TestJSONWithoutSession(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	status, header, body := s.call(t, "GET", "/json/users/me", "", nil)
	wantErr(t, status, body, 401, "UNAUTHORIZED", "Not logged in: API authentication or user session required")
	if got := header.Get("WWW-Authenticate"); got != `Session realm="zulip"` {
		t.Errorf("WWW-Authenticate = %q", got)
	}
	// A dead session is no session.
	status, header, body = browser{session: strings.Repeat("a", 32), csrf: strings.Repeat("b", 32)}.web(t, s, "GET", "/json/users/me", "-", nil)
	wantErr(t, status, body, 401, "UNAUTHORIZED", "Not logged in: API authentication or user session required")
	if got := header.Get("WWW-Authenticate"); got != `Session realm="zulip"` {
		t.Errorf("WWW-Authenticate = %q", got)
	}
	// /json/ takes HTTP Basic credentials too, as Zulip's does, without any CSRF check.
	status, _, body = s.call(t, "POST", "/json/users/me/alert_words", "hamlet@zulip.com", url.Values{"alert_words": {`["x"]`}})
	if status != 200 {
		t.Errorf("POST /json/ with the API key: %d %v", status, body)
	}
	// Routes that need no credentials are there too.
	if status, _, body := s.call(t, "GET", "/json/server_settings", "", nil); status != 200 {
		t.Errorf("GET /json/server_settings: %d %v", status, body)
	}
}

func TestCSRFRefusals(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	b := devLogin(t, s, "hamlet@zulip.com")
	other := strings.Repeat("Z", 32)
	tests := []struct {
		name    string
		browser browser
		token   string
		header  []string
		reason  string // "" for accepted
	}{
		{name: "the secret", browser: b, token: b.csrf},
		{name: "the masked secret", browser: b, token: mask(b.csrf)},
		{name: "same origin", browser: b, token: b.csrf, header: []string{"Origin", s.URL}},
		{name: "no header", browser: b, token: "-", reason: "CSRF token missing."},
		{name: "another token", browser: b, token: other, reason: "CSRF token from the 'X-Csrftoken' HTTP header incorrect."},
		{name: "another masked token", browser: b, token: mask(other), reason: "CSRF token from the 'X-Csrftoken' HTTP header incorrect."},
		{name: "empty header", browser: b, token: "", reason: "CSRF token from the 'X-Csrftoken' HTTP header has incorrect length."},
		{name: "a token of symbols", browser: b, token: strings.Repeat("!", 32), reason: "CSRF token from the 'X-Csrftoken' HTTP header has invalid characters."},
		{name: "no CSRF cookie", browser: browser{session: b.session}, token: b.csrf, reason: "CSRF cookie not set."},
		{name: "a short CSRF cookie", browser: browser{session: b.session, csrf: "abc"}, token: "abc", reason: "CSRF cookie has incorrect length."},
		{name: "another origin", browser: b, token: b.csrf, header: []string{"Origin", "http://evil.test"}, reason: "Origin checking failed - http://evil.test does not match any trusted origins."},
	}
	for _, tt := range tests {
		status, _, body := tt.browser.web(t, s, "POST", "/json/users/me/alert_words", tt.token, url.Values{"alert_words": {`["` + tt.name + `"]`}}, tt.header...)
		if tt.reason == "" {
			if status != 200 {
				t.Errorf("%s: %d %v", tt.name, status, body)
			}
			continue
		}
		wantErr(t, status, body, 403, "CSRF_FAILED", "CSRF error: "+tt.reason)
		if body["reason"] != tt.reason {
			t.Errorf("%s: reason = %v", tt.name, body["reason"])
		}
	}
	// Refusals changed nothing; reads need no token.
	status, _, body := b.web(t, s, "GET", "/json/users/me/alert_words", "-", nil)
	want := []any{"same origin", "the masked secret", "the secret"}
	if status != 200 || !cmp.Equal(sortedStrings(body["alert_words"]), want) {
		t.Errorf("alert words after the refusals: %d %v, want %v", status, body, want)
	}
}

func sortedStrings(v any) []any {
	list, _ := v.([]any)
	out := append([]any(nil), list...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j].(string) < out[i].(string) {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

func TestSessionExpiryOverHTTP(t *testing.T) {
	t.Parallel()
	c := &testClock{t: time.Date(2026, 11, 23, 22, 0, 0, 0, time.UTC)}
	s := newServer(t, func(o *chat.Options) { o.Now = c.Now })
	b := devLogin(t, s, "hamlet@zulip.com")
	c.Advance(14*24*time.Hour - time.Second)
	if status, _, body := b.web(t, s, "GET", "/json/users/me", "-", nil); status != 200 {
		t.Fatalf("a second before expiry: %d %v", status, body)
	}
	c.Advance(time.Second)
	status, _, body := b.web(t, s, "GET", "/json/users/me", "-", nil)
	wantErr(t, status, body, 401, "UNAUTHORIZED", "Not logged in: API authentication or user session required")
}

// logout posts the logout form of a browser.
func logout(t *testing.T, s *server, b browser, token string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, s.URL+"/accounts/logout/", strings.NewReader(url.Values{"csrfmiddlewaretoken": {token}}.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.AddCookie(&http.Cookie{Name: "sessionid", Value: b.session})
	req.AddCookie(&http.Cookie{Name: "csrftoken", Value: b.csrf})
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp
}

func TestLogout(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	b := devLogin(t, s, "hamlet@zulip.com")
	other := devLogin(t, s, "hamlet@zulip.com")
	if resp := logout(t, s, b, "wrong"); resp.StatusCode != http.StatusForbidden {
		t.Fatalf("logout without the token: %d", resp.StatusCode)
	}
	if status, _, _ := b.web(t, s, "GET", "/json/users/me", "-", nil); status != 200 {
		t.Fatalf("a refused logout logged out: %d", status)
	}
	resp := logout(t, s, b, b.csrf)
	if resp.StatusCode != http.StatusFound || resp.Header.Get("Location") != "/login/" {
		t.Errorf("logout: %d to %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	cleared := false
	for _, c := range resp.Cookies() {
		cleared = cleared || (c.Name == "sessionid" && c.Value == "" && c.MaxAge < 0)
	}
	if !cleared {
		t.Errorf("logout left the session cookie: %v", resp.Header["Set-Cookie"])
	}
	status, _, body := b.web(t, s, "GET", "/json/users/me", "-", nil)
	wantErr(t, status, body, 401, "UNAUTHORIZED", "Not logged in: API authentication or user session required")
	if status, _, _ := other.web(t, s, "GET", "/json/users/me", "-", nil); status != 200 {
		t.Errorf("logout ended another session: %d", status)
	}
	if resp, err := http.Get(s.URL + "/accounts/logout/"); err != nil || resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("GET /accounts/logout/: %v %v", resp, err)
	}
}

func TestSessionRevocationOverHTTP(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	hamlet, second := devLogin(t, s, "hamlet@zulip.com"), devLogin(t, s, "hamlet@zulip.com")
	iago := devLogin(t, s, "iago@zulip.com")
	// A password change from one session keeps it and ends the other.
	status, _, body := hamlet.web(t, s, "PATCH", "/json/settings", hamlet.csrf, url.Values{"old_password": {password}, "new_password": {"a brand new password"}})
	if status != 200 {
		t.Fatalf("password change: %d %v", status, body)
	}
	if status, _, _ := hamlet.web(t, s, "GET", "/json/users/me", "-", nil); status != 200 {
		t.Errorf("the session that changed the password: %d", status)
	}
	if status, _, _ := second.web(t, s, "GET", "/json/users/me", "-", nil); status != 401 {
		t.Errorf("another session after a password change: %d", status)
	}
	// A new API key asked with the API key ends every session.
	if status, _, body := s.call(t, "POST", "/api/v1/users/me/api_key/regenerate", "hamlet@zulip.com", nil); status != 200 {
		t.Fatalf("regenerate: %d %v", status, body)
	}
	if status, _, _ := hamlet.web(t, s, "GET", "/json/users/me", "-", nil); status != 401 {
		t.Errorf("a session after a new API key: %d", status)
	}
	// Deactivation ends the user's sessions.
	hamlet = devLogin(t, s, "hamlet@zulip.com")
	var hamletID float64
	if _, _, me := hamlet.web(t, s, "GET", "/json/users/me", "-", nil); me != nil {
		hamletID, _ = me["user_id"].(float64)
	}
	if status, _, body := iago.web(t, s, "DELETE", "/json/users/"+strconv.Itoa(int(hamletID)), iago.csrf, nil); status != 200 {
		t.Fatalf("deactivate: %d %v", status, body)
	}
	if status, _, _ := hamlet.web(t, s, "GET", "/json/users/me", "-", nil); status != 401 {
		t.Errorf("a session after deactivation: %d", status)
	}
}
