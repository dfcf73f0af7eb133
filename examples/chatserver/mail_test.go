package main

import (
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/teamchat/chat/internal/smtptest"
)

var joinPath = regexp.MustCompile(`/join/[a-z2-7]{24}/`)

// TestInvitationBySMTP serves with --smtp-host pointing at an SMTP server the test starts: an
// invitation sent through the API arrives there, and its link creates the account.
func TestInvitationBySMTP(t *testing.T) {
	t.Parallel()
	srv := smtptest.Start(t)
	c := &serveCmd{orgFlags: orgFlags{Store: "memory", Dev: true, DevPassword: "devpassword"},
		mailFlags:     mailFlags{SMTPHost: srv.Host, SMTPPort: srv.Port, SMTPTLS: "none", MailFrom: "Dev <noreply@chat.test>"},
		HeartbeatWait: time.Second, RateLimits: false}
	base := serveInProcess(t, c)
	api := base + "/api/v1/"
	key := apiCall(t, "POST", api+"dev_fetch_api_key", "", "", url.Values{"username": {"iago@zulip.com"}})["api_key"].(string)
	apiCall(t, "POST", api+"invites", "iago@zulip.com", key, url.Values{"invitee_emails": {"ada@example.org"}, "stream_ids": {"[]"}})
	got := srv.Wait(1, 10*time.Second)
	if len(got) != 1 || got[0].To[0] != "ada@example.org" || got[0].From != "noreply@chat.test" {
		t.Fatalf("messages at the SMTP server: %+v", got)
	}
	link := joinPath.FindString(strings.ReplaceAll(got[0].Data, "=\r\n", ""))
	if link == "" {
		t.Fatalf("no link in:\n%s", got[0].Data)
	}
	// The form, as a browser loads it: its csrftoken cookie and the csrfmiddlewaretoken the
	// post must carry (Django's CSRF check of the sign-up form).
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	browser := &http.Client{Jar: jar}
	form, err := browser.Get(base + link)
	if err != nil {
		t.Fatal(err)
	}
	formPage, _ := io.ReadAll(form.Body)
	form.Body.Close()
	token := regexp.MustCompile(`name="csrfmiddlewaretoken" value="([A-Za-z0-9]+)"`).FindSubmatch(formPage)
	if token == nil {
		t.Fatalf("sign-up form without a CSRF token:\n%s", formPage)
	}
	res, err := browser.PostForm(base+link, url.Values{"full_name": {"Ada Lovelace"}, "password": {"a long password"},
		"csrfmiddlewaretoken": {string(token[1])}})
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Fatalf("sign-up: %d\n%s", res.StatusCode, page)
	}
	apiCall(t, "POST", api+"fetch_api_key", "", "", url.Values{"username": {"ada@example.org"}, "password": {"a long password"}})
}

// TestDevMailLog: with --dev and no --smtp-host, sent mail goes to --mail-log.
func TestDevMailLog(t *testing.T) {
	t.Parallel()
	log := filepath.Join(t.TempDir(), "mail.log")
	c := &serveCmd{orgFlags: orgFlags{Store: "memory", Dev: true, DevPassword: "devpassword"},
		mailFlags: mailFlags{MailLog: log, SMTPTLS: "starttls", SMTPPort: 587}, HeartbeatWait: time.Second, RateLimits: false}
	base := serveInProcess(t, c)
	api := base + "/api/v1/"
	key := apiCall(t, "POST", api+"dev_fetch_api_key", "", "", url.Values{"username": {"iago@zulip.com"}})["api_key"].(string)
	apiCall(t, "POST", api+"invites", "iago@zulip.com", key, url.Values{"invitee_emails": {"bob@example.org"}, "stream_ids": {"[]"}})
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	if s := string(b); !strings.Contains(s, "bob@example.org") || !joinPath.MatchString(strings.ReplaceAll(s, "=\r\n", "")) {
		t.Errorf("mail log:\n%s", s)
	}
}

// TestDevMissedMessageEmail: with --dev and its mail log, a direct message to a user with no
// client open, whose batching period is 5 seconds, is in the log within the period and a few
// seconds (the worker looks every second), and not before the period ends.
func TestDevMissedMessageEmail(t *testing.T) {
	t.Parallel()
	log := filepath.Join(t.TempDir(), "mail.log")
	c := &serveCmd{orgFlags: orgFlags{Store: "memory", Dev: true, DevPassword: "devpassword"},
		mailFlags: mailFlags{MailLog: log, SMTPTLS: "starttls", SMTPPort: 587}, HeartbeatWait: time.Second, RateLimits: false,
		SchedulerInterval: time.Second}
	base := serveInProcess(t, c)
	api := base + "/api/v1/"
	fetch := func(email string) string {
		return apiCall(t, "POST", api+"dev_fetch_api_key", "", "", url.Values{"username": {email}})["api_key"].(string)
	}
	iago, hamlet := fetch("iago@zulip.com"), fetch("hamlet@zulip.com")
	apiCall(t, "PATCH", api+"settings", "hamlet@zulip.com", hamlet, url.Values{"email_notifications_batching_period_seconds": {"5"}})
	sent := time.Now()
	apiCall(t, "POST", api+"messages", "iago@zulip.com", iago, url.Values{
		"type": {"private"}, "to": {`["hamlet@zulip.com"]`}, "content": {"are you there, Hamlet?"}})
	var arrived time.Duration
	for deadline := sent.Add(5*time.Second + 5*time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		b, _ := os.ReadFile(log)
		if s := strings.ReplaceAll(string(b), "=\r\n", ""); strings.Contains(s, "are you there, Hamlet?") {
			arrived = time.Since(sent)
			if !strings.Contains(s, "hamlet@zulip.com") || !strings.Contains(s, "DMs with") {
				t.Errorf("mail log:\n%s", s)
			}
			break
		}
	}
	switch {
	case arrived == 0:
		t.Fatal("no email in the mail log within the period and 5 seconds")
	case arrived < 4*time.Second: // the message's time is in whole seconds
		t.Errorf("email after %v, before the 5-second period ended", arrived)
	}
	t.Logf("email in the mail log %v after the send (period 5s)", arrived.Round(time.Millisecond))
}
