package realms

import (
	"net/url"
	"testing"
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
