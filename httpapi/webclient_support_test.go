package httpapi_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	chat "github.com/teamchat/chat"
)

// TestUploadDownloadWithWebSession: a browser holding only the session cookie downloads the
// files its user may read (Zulip's serve_file_backend accepts the session), and no others.
func TestUploadDownloadWithWebSession(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	const hamlet = "hamlet@zulip.com"
	status, body := s.postMultipart(t, "/api/v1/user_uploads", hamlet, part{"file", "notes.txt", "hamlet's notes"})
	path, _ := body["url"].(string)
	if status != 200 || path == "" {
		t.Fatalf("upload: %d %v", status, body)
	}
	getWith := func(b browser, target string) *http.Response {
		req, _ := http.NewRequest(http.MethodGet, s.URL+target, nil)
		req.AddCookie(&http.Cookie{Name: "sessionid", Value: b.session})
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { resp.Body.Close() })
		return resp
	}
	if resp := getWith(devLogin(t, s, hamlet), path); resp.StatusCode != 200 || readAll(t, resp.Body) != "hamlet's notes" {
		t.Errorf("the owner's session: %d", resp.StatusCode)
	}
	if resp := getWith(devLogin(t, s, "iago@zulip.com"), path); resp.StatusCode != http.StatusForbidden {
		t.Errorf("another user's session, before any message links the file: %d, want 403", resp.StatusCode)
	}
	if resp := getWith(browser{session: "not-a-session"}, path); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("an unknown session: %d, want 401", resp.StatusCode)
	}
}

// TestLoginPageListsDevUsers: a development server's login page offers its users to log in
// as (forms posting to /accounts/login/local/ that keep next); a production one does not.
func TestLoginPageListsDevUsers(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	resp, err := http.Get(s.URL + "/login/?next=" + url.QueryEscape("/#narrow/channel/1-Denmark"))
	if err != nil {
		t.Fatal(err)
	}
	page := readAll(t, resp.Body)
	resp.Body.Close()
	if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") || !strings.Contains(csp, "frame-ancestors 'none'") || strings.Contains(csp, "script-src") {
		t.Errorf("the login page's Content-Security-Policy: %q", csp)
	}
	for _, want := range []string{
		`action="/accounts/login/local/"`, `name="direct_email" value="iago@zulip.com"`,
		`name="next" value="/#narrow/channel/1-Denmark"`, `>Log in</button>`, `>Email <input`, `>Password <input`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the login page lacks %s", want)
		}
	}
	prod := newServer(t, func(o *chat.Options) { o.Dev = false })
	resp, err = http.Get(prod.URL + "/login/")
	if err != nil {
		t.Fatal(err)
	}
	page = readAll(t, resp.Body)
	resp.Body.Close()
	if strings.Contains(page, "direct_email") {
		t.Error("a production server's login page lists users")
	}
}
