package httpapi_test

import (
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"

	chat "github.com/teamchat/chat"
)

// noRedirects is a client that shows redirects instead of following them.
var noRedirects = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

var formToken = regexp.MustCompile(`name="csrfmiddlewaretoken" value="([A-Za-z0-9]+)"`)

// loginPage loads the login page as a new browser: its CSRF cookie and the form's token.
func loginPage(t *testing.T, s *server) (cookie, token string) {
	t.Helper()
	resp, err := http.Get(s.URL + "/login/")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("GET /login/: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	for _, c := range resp.Cookies() {
		if c.Name == "csrftoken" {
			cookie = c.Value
		}
	}
	m := formToken.FindSubmatch(body)
	if cookie == "" || m == nil || len(m[1]) != 64 {
		t.Fatalf("login page: cookie %q, form %s", cookie, body)
	}
	return cookie, string(m[1])
}

// postForm posts a form with a CSRF cookie, without following redirects.
func postForm(t *testing.T, s *server, path, csrfCookie string, form url.Values) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, s.URL+path, strings.NewReader(form.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if csrfCookie != "" {
		req.AddCookie(&http.Cookie{Name: "csrftoken", Value: csrfCookie})
	}
	resp, err := noRedirects.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp, string(body)
}

// sessionOf is the browser a login's cookies make.
func sessionOf(resp *http.Response) browser {
	var b browser
	for _, c := range resp.Cookies() {
		switch c.Name {
		case "sessionid":
			b.session = c.Value
		case "csrftoken":
			b.csrf = c.Value
		}
	}
	return b
}

func TestPasswordLoginForm(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	cookie, token := loginPage(t, s)

	// Without the CSRF cookie, or with another token: Django's 403 page.
	resp, body := postForm(t, s, "/accounts/login/", "", url.Values{"csrfmiddlewaretoken": {token}, "username": {"hamlet@zulip.com"}, "password": {password}})
	if resp.StatusCode != 403 || !strings.Contains(body, "CSRF cookie not set.") || sessionOf(resp).session != "" {
		t.Errorf("login without the CSRF cookie: %d %s", resp.StatusCode, body)
	}
	resp, body = postForm(t, s, "/accounts/login/", cookie, url.Values{"csrfmiddlewaretoken": {strings.Repeat("a", 32)}, "username": {"hamlet@zulip.com"}, "password": {password}})
	if resp.StatusCode != 403 || !strings.Contains(body, "CSRF token from POST incorrect.") {
		t.Errorf("login with another token: %d %s", resp.StatusCode, body)
	}

	// A wrong password shows the form again with Django's message, and logs nobody in.
	resp, body = postForm(t, s, "/accounts/login/", cookie, url.Values{"csrfmiddlewaretoken": {token}, "username": {"hamlet@zulip.com"}, "password": {"wrong"}})
	if resp.StatusCode != 200 || !strings.Contains(body, "Please enter a correct email and password. Note that both fields may be case-sensitive.") || sessionOf(resp).session != "" {
		t.Errorf("wrong password: %d %s", resp.StatusCode, body)
	}

	// The right one: the session cookies, a new CSRF secret, and the redirect to next.
	resp, body = postForm(t, s, "/accounts/login/?next=/%23narrow/channel/1", cookie, url.Values{"csrfmiddlewaretoken": {token}, "username": {"hamlet@zulip.com"}, "password": {password}})
	b := sessionOf(resp)
	if resp.StatusCode != http.StatusFound || resp.Header.Get("Location") != "/#narrow/channel/1" || !chat.ValidSessionID(b.session) || b.csrf == "" || b.csrf == cookie {
		t.Fatalf("login: %d to %q, cookies %v: %s", resp.StatusCode, resp.Header.Get("Location"), resp.Header["Set-Cookie"], body)
	}
	status, _, me := b.web(t, s, "GET", "/json/users/me", "-", nil)
	if status != 200 || me["email"] != "hamlet@zulip.com" {
		t.Errorf("GET /json/users/me after the login: %d %v", status, me)
	}
	if status, _, body := b.web(t, s, "POST", "/json/users/me/alert_words", b.csrf, url.Values{"alert_words": {`["x"]`}}); status != 200 {
		t.Errorf("POST /json/ after the login: %d %v", status, body)
	}

	// next must stay on this server.
	for _, next := range []string{"//evil.test/", "https://evil.test/", "/\\evil.test"} {
		resp, _ = postForm(t, s, "/accounts/login/", cookie, url.Values{"csrfmiddlewaretoken": {token}, "username": {"hamlet@zulip.com"}, "password": {password}, "next": {next}})
		if resp.Header.Get("Location") != "/" {
			t.Errorf("next %q: redirected to %q", next, resp.Header.Get("Location"))
		}
	}

	if resp, err := noRedirects.Do(mustRequest(t, http.MethodPut, s.URL+"/accounts/login/")); err != nil || resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("PUT /accounts/login/: %v %v", resp, err)
	}
}

func TestPasswordLoginRateLimit(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	cookie, token := loginPage(t, s)
	var body string
	for range 6 {
		_, body = postForm(t, s, "/accounts/login/", cookie, url.Values{"csrfmiddlewaretoken": {token}, "username": {"iago@zulip.com"}, "password": {"wrong"}})
	}
	if !strings.Contains(body, "making too many attempts to sign in. Try again in ") {
		t.Errorf("sixth attempt: %s", body)
	}
}

func TestDevDirectLogin(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	resp, body := postForm(t, s, "/accounts/login/local/", "", url.Values{"direct_email": {"iago@zulip.com"}})
	b := sessionOf(resp)
	if resp.StatusCode != http.StatusFound || resp.Header.Get("Location") != "/" || b.session == "" {
		t.Fatalf("dev login: %d %v %s", resp.StatusCode, resp.Header, body)
	}
	if status, _, me := b.web(t, s, "GET", "/json/users/me", "-", nil); status != 200 || me["email"] != "iago@zulip.com" {
		t.Errorf("after the dev login: %d %v", status, me)
	}
	resp, body = postForm(t, s, "/accounts/login/local/", "", url.Values{"direct_email": {"nobody@zulip.com"}})
	if resp.StatusCode != 401 || sessionOf(resp).session != "" || !strings.Contains(body, "Your username or password is incorrect") {
		t.Errorf("dev login of nobody: %d %s", resp.StatusCode, body)
	}

	prod := newServer(t, func(o *chat.Options) { o.Dev = false })
	resp, body = postForm(t, prod, "/accounts/login/local/", "", url.Values{"direct_email": {"iago@zulip.com"}})
	if resp.StatusCode != 400 || sessionOf(resp).session != "" || !strings.Contains(body, "DevAuthBackend not enabled.") {
		t.Errorf("dev login on a production server: %d %s", resp.StatusCode, body)
	}
}

func mustRequest(t *testing.T, method, target string) *http.Request {
	t.Helper()
	req, err := http.NewRequest(method, target, nil)
	if err != nil {
		t.Fatal(err)
	}
	return req
}

func TestPasswordLoginDeactivated(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	status, _, me := s.call(t, "GET", "/api/v1/users/me", "hamlet@zulip.com", nil)
	if status != 200 {
		t.Fatal(status, me)
	}
	if status, _, body := s.call(t, "DELETE", "/api/v1/users/"+strconv.Itoa(int(me["user_id"].(float64))), "iago@zulip.com", nil); status != 200 {
		t.Fatal(status, body)
	}
	cookie, token := loginPage(t, s)
	resp, body := postForm(t, s, "/accounts/login/", cookie, url.Values{"csrfmiddlewaretoken": {token}, "username": {"hamlet@zulip.com"}, "password": {password}})
	want := "Your account hamlet@zulip.com has been deactivated. Please contact your organization administrator to reactivate it."
	if resp.StatusCode != 200 || !strings.Contains(body, want) || sessionOf(resp).session != "" {
		t.Errorf("deactivated login: %d %s", resp.StatusCode, body)
	}
}
