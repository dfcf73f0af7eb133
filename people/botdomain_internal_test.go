package people

import (
	"testing"

	"github.com/teamchat/chat/realms"
)

// TestBotDomain checks Zulip's get_bot_domain: the realm host when it forms email addresses,
// else FAKE_EMAIL_DOMAIN (zulip.invalid when unset).
func TestBotDomain(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		url, fake, want string
	}{
		{"https://chat.example.com/", "zulipdev.com", "chat.example.com"},
		{"http://localhost/", "zulipdev.com", "localhost"},
		{"http://127.0.0.1:9991/", "zulipdev.com", "zulipdev.com"},
		{"http://zulip.zulipdev.com:9991/", "zulipdev.com", "zulipdev.com"},
		{"http://[::1]:9991/", "zulipdev.com", "zulipdev.com"},
		{"http://intranet/", "", "zulip.invalid"},
		{"https://-bad-.example.com/", "x.test", "x.test"},
		{"https://chat.example.c/", "x.test", "x.test"},
	} {
		s := &Service{cfg: Config{FakeEmailDomain: c.fake}}
		if got := s.BotDomain(realms.Realm{URL: c.url}); got != c.want {
			t.Errorf("BotDomain(%s, %q) = %q, want %q", c.url, c.fake, got, c.want)
		}
	}
}

// TestPasswordStrong checks the password policy, Zulip's by default and its development
// settings' under WeakPasswords.
func TestPasswordStrong(t *testing.T) {
	t.Parallel()
	long := string(make([]rune, PasswordMaxLength+1))
	for _, c := range []struct {
		weak     bool
		password string
		want     bool
	}{
		{false, "temp", false},
		{false, "secret", true},
		{false, long, false},
		{true, "temp", true},
		{true, "", false},
		{true, long, false},
	} {
		s := &Service{cfg: Config{WeakPasswords: c.weak}}
		if got := s.passwordStrong(c.password); got != c.want {
			t.Errorf("weak=%v passwordStrong(%q) = %v, want %v", c.weak, c.password, got, c.want)
		}
	}
}
