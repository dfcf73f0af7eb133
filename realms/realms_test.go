package realms

import (
	"net/url"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/teamchat/chat/users"
)

func TestHost(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ url, want string }{
		{"https://chat.example.com/", "chat.example.com"},
		{"https://chat.example.com", "chat.example.com"},
		{"http://localhost:9991/", "localhost"},
		{"https://[::1]:443/", "::1"},
		{"https://user@Chat.Example.com/x", "Chat.Example.com"},
		{"HTTPS://chat.example.com/", "chat.example.com"},
		{"", "zulip.invalid"},
		{"not a url", "zulip.invalid"},
		{"https:///path", "zulip.invalid"},
	} {
		if got := (Realm{URL: tc.url}).Host(); got != tc.want {
			t.Errorf("Host(%q) = %q, want %q", tc.url, got, tc.want)
		}
	}
}

// TestEmailDomain checks Zulip's get_fake_email_domain: the realm host with its port when it
// forms email addresses, else the server's FAKE_EMAIL_DOMAIN when that does, else
// zulip.invalid.
func TestEmailDomain(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		url, fake, want string
	}{
		{"https://chat.example.com/", "zulipdev.com", "chat.example.com"},
		{"https://chat.example.com/", "", "chat.example.com"},
		{"http://localhost/", "zulipdev.com", "localhost"},
		{"http://127.0.0.1:9991/", "zulipdev.com", "zulipdev.com"},
		{"http://127.0.0.1/", "zulipdev.com", "zulipdev.com"},
		{"http://zulip.zulipdev.com:9991/", "zulipdev.com", "zulipdev.com"},
		{"http://localhost:9991/", "", "zulip.invalid"},
		{"http://[::1]:9991/", "zulipdev.com", "zulipdev.com"},
		{"http://intranet/", "", "zulip.invalid"},
		{"http://intranet/", "not a domain", "zulip.invalid"},
		{"http://intranet/", "10.0.0.1", "zulip.invalid"},
		{"https://-bad-.example.com/", "x.test", "x.test"},
		{"https://chat.example.c/", "x.test", "x.test"},
	} {
		if got := (Realm{URL: c.url}).EmailDomain(c.fake); got != c.want {
			t.Errorf("EmailDomain(%s, %q) = %q, want %q", c.url, c.fake, got, c.want)
		}
	}
}

// FuzzHost checks that the fast path of Host agrees with net/url.
func FuzzHost(f *testing.F) {
	for _, s := range []string{"https://chat.example.com/", "http://a-b.c:80/", "https://x/y?z", "http://[fe80::1]/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want := "zulip.invalid"
		if u, err := url.Parse(s); err == nil && u.Hostname() != "" {
			want = u.Hostname()
		}
		if got := (Realm{URL: s}).Host(); got != want {
			t.Fatalf("Host(%q) = %q, net/url says %q", s, got, want)
		}
	})
}

// TestCloneGroupSettings: a clone shares no group-setting list with its original, and every
// group permission keeps its value.
func TestCloneGroupSettings(t *testing.T) {
	var r Realm
	for i, s := range r.GroupSettings() {
		*s.Value = users.GroupSetting{Members: []users.ID{users.ID(i)}, Subgroups: []users.GroupID{users.GroupID(i)}}
	}
	c := r.Clone()
	want := r.GroupSettings()
	for i, s := range c.GroupSettings() {
		if s.Name != want[i].Name || !slices.Equal(s.Value.Members, want[i].Value.Members) || !slices.Equal(s.Value.Subgroups, want[i].Value.Subgroups) {
			t.Errorf("%s: clone %+v, original %+v", s.Name, *s.Value, *want[i].Value)
		}
		s.Value.Members[0], s.Value.Subgroups[0] = 1000, 1000
		if want[i].Value.Members[0] == 1000 || want[i].Value.Subgroups[0] == 1000 {
			t.Errorf("%s: the clone shares a list with the original", s.Name)
		}
	}
	if !slices.IsSortedFunc(want, func(a, b NamedSetting) int { return strings.Compare(a.Name, b.Name) }) {
		t.Error("GroupSettings are not in API (alphabetical) order")
	}
}

// BenchmarkRealmClone: what a store read of the organization copies.
func BenchmarkRealmClone(b *testing.B) {
	r := Realm{Settings: map[string]any{"a": 1}, Domains: []Domain{{Domain: "example.com"}}}
	for _, s := range r.GroupSettings() {
		*s.Value = users.Named(1)
	}
	b.ReportAllocs()
	for b.Loop() {
		_ = r.Clone()
	}
}

// TestGroupSettingFields: each group permission points at the field of Realm its name says
// (can_create_groups: CanCreateGroups), and every users.GroupSetting field is one of them.
func TestGroupSettingFields(t *testing.T) {
	var r Realm
	rv := reflect.ValueOf(&r).Elem()
	byAddr := map[*users.GroupSetting]string{}
	for i := range rv.NumField() {
		if f := rv.Field(i); f.Type() == reflect.TypeFor[users.GroupSetting]() {
			byAddr[f.Addr().Interface().(*users.GroupSetting)] = rv.Type().Field(i).Name
		}
	}
	list := r.GroupSettings()
	if len(list) != len(byAddr) {
		t.Errorf("%d group permissions, %d GroupSetting fields", len(list), len(byAddr))
	}
	for _, s := range list {
		want := ""
		for _, w := range strings.Split(s.Name, "_") {
			want += strings.ToUpper(w[:1]) + w[1:]
		}
		if got := byAddr[s.Value]; got != want {
			t.Errorf("%s points at field %q, want %s", s.Name, got, want)
		}
	}
}
