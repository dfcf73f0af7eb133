package people

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/teamchat/chat/realms"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// JustCreatedThreshold is how long after its creation an account's logins send no "new login"
// email (Zulip's JUST_CREATED_THRESHOLD): the login that follows a signup is expected.
const JustCreatedThreshold = 60 * time.Second

// maxUserAgent bounds the User-Agent quoted in a login email.
const maxUserAgent = 512

// loginNotice is the "new login" email of one login, decided in the login's read.
type loginNotice struct{ to, subject, body, html string }

// newLoginNotice is the email Zulip's email_on_new_login sends on a login (its
// zerver/emails/notify_new_login): none when the user turned enable_login_emails off, has no
// email address, or was created within JustCreatedThreshold.
func newLoginNotice(tx storage.ReadTx, realm realms.Realm, u users.User, now time.Time, userAgent, address string) (*loginNotice, error) {
	if u.Email == "" || u.IsBot() || now.Sub(u.DateJoined) <= JustCreatedThreshold {
		return nil, nil
	}
	settings, err := tx.UserSettings().Get(u.ID)
	if err != nil {
		return nil, err
	}
	if on, _ := settings.Value("enable_login_emails").(bool); !on {
		return nil, nil
	}
	loc := time.UTC
	if u.Timezone != "" {
		if l, err := time.LoadLocation(u.Timezone); err == nil {
			loc = l
		}
	}
	clock := "3:04pm"
	if h, _ := settings.Value("twenty_four_hour_time").(bool); h {
		clock = "15:04"
	}
	when := now.In(loc).Format("Monday, January 2, 2006 at " + clock + " MST")
	if len(userAgent) > maxUserAgent {
		userAgent = userAgent[:maxUserAgent]
	}
	device := deviceOf(userAgent)
	if address == "" {
		address = "Unknown IP address"
	}
	body := fmt.Sprintf("Hello %s,\n\nThis is a notice that there was a login to your account (%s) on %s.\n\n"+
		"Organization: %s\nTime: %s\nDevice: %s\nIP address: %s\n\n"+
		"If you do not recognize this login, or think your account may have been accessed without your approval, "+
		"change your password and contact your organization's administrators.\n\n"+
		"You can turn these emails off in your notification settings: %s#settings/notifications\n",
		u.FullName, u.Email, realm.Name, realm.URL, when, device, address, strings.TrimSuffix(realm.URL, "/")+"/")
	base := strings.TrimSuffix(realm.URL, "/") + "/"
	html, err := loginHTML(loginData{Name: u.FullName, Email: u.Email, Org: realm.Name, URL: realm.URL, Time: when,
		Device: device, Address: address, Preferences: base + "#settings/notifications"})
	if err != nil {
		return nil, err
	}
	return &loginNotice{to: u.Email, subject: "New login from " + device, body: body, html: html}, nil
}

// deviceOf names the browser (or Zulip client) and system of a User-Agent, as Zulip's
// get_device_browser and get_device_os do; "an unknown browser" when it tells neither.
func deviceOf(ua string) string {
	l := strings.ToLower(ua)
	browser := ""
	switch {
	case strings.Contains(l, "zulip"):
		browser = "Zulip"
	case strings.Contains(l, "edg/") || strings.Contains(l, "edge"):
		browser = "Edge"
	case strings.Contains(l, "opr/") || strings.Contains(l, "opera"):
		browser = "Opera"
	case strings.Contains(l, "firefox"):
		browser = "Firefox"
	case strings.Contains(l, "chromium"):
		browser = "Chromium"
	case strings.Contains(l, "chrome"):
		browser = "Chrome"
	case strings.Contains(l, "safari"):
		browser = "Safari"
	case strings.Contains(l, "msie") || strings.Contains(l, "trident"):
		browser = "Internet Explorer"
	}
	system := ""
	switch {
	case strings.Contains(l, "windows"):
		system = "Windows"
	case strings.Contains(l, "android"):
		system = "Android"
	case strings.Contains(l, "iphone") || strings.Contains(l, "ipad") || strings.Contains(l, "like mac os x"):
		system = "iOS"
	case strings.Contains(l, "macintosh") || strings.Contains(l, "mac os"):
		system = "macOS"
	case strings.Contains(l, " cros "):
		system = "ChromeOS"
	case strings.Contains(l, "linux"):
		system = "Linux"
	}
	switch {
	case browser != "" && system != "":
		return browser + " on " + system
	case browser != "":
		return browser
	case system != "":
		return "an unknown browser on " + system
	}
	return "an unknown browser"
}

// sendLoginNotice sends a login's email, if any (with its HTML alternative when the Mailer
// takes one), after the login's read; a failure is logged
// (the login stands) and counted.
func (s *Service) sendLoginNotice(ctx context.Context, n *loginNotice) {
	if n == nil {
		return
	}
	if s.cfg.Mailer == nil {
		s.log.Warn("no mailer configured; email not sent", "to", n.to, "subject", n.subject)
		return
	}
	var err error
	if h, ok := s.cfg.Mailer.(HTMLMailer); ok {
		err = h.SendHTML(context.WithoutCancel(ctx), n.to, n.subject, n.body, n.html)
	} else {
		err = s.cfg.Mailer.Send(context.WithoutCancel(ctx), n.to, n.subject, n.body)
	}
	if err != nil {
		s.log.Error("sending the login email failed", "to", n.to, "err", err)
	}
	if s.cfg.EmailSent != nil {
		s.cfg.EmailSent("login", err)
	}
}
