package people

import "testing"

func TestDeviceOf(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ ua, want string }{
		{"Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0", "Firefox on Linux"},
		{"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36", "Chrome on Windows"},
		{"Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15", "Safari on macOS"},
		{"ZulipMobile/27.200 (Android 14)", "Zulip on Android"},
		{"curl/8.5.0", "an unknown browser"},
		{"", "an unknown browser"},
	} {
		if got := deviceOf(tc.ua); got != tc.want {
			t.Errorf("deviceOf(%q) = %q, want %q", tc.ua, got, tc.want)
		}
	}
}
