package httpapi

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// FuzzCSRFCheck runs Django's CSRF check on arbitrary cookies, tokens and origins: it never
// panics, accepts a request only when the token, unmasked, is the cookie's secret and both are
// well-formed, and refuses with one of Django's reasons otherwise. A masked copy of a
// well-formed secret always passes.
func FuzzCSRFCheck(f *testing.F) {
	secret := strings.Repeat("aB3", 10) + "zZ"
	f.Add(secret, secret, "", "")
	f.Add(secret, maskToken(secret), "http://chat.test", "")
	f.Add(secret, "", "", maskToken(secret))
	f.Add(secret, strings.Repeat("x", 32), "http://evil.test", "")
	f.Add("abc", "abc", "null", "")
	f.Add(strings.Repeat("é", 16), strings.Repeat("é", 16), "", "")
	reasons := []string{"Origin checking failed - ", "CSRF cookie ", "CSRF token missing.", "CSRF token from "}
	f.Fuzz(func(t *testing.T, cookie, header, origin, form string) {
		r := httptest.NewRequest(http.MethodPost, "http://chat.test/json/messages", nil)
		r.Header.Set("Cookie", csrfCookie+"="+cookie)
		r.Header.Set(csrfHeader, header)
		if origin != "" {
			r.Header.Set("Origin", origin)
		}
		reason := csrfReason(r, form)
		if reason == "" {
			c, err := r.Cookie(csrfCookie)
			token := form
			if token == "" {
				token = header
			}
			if err != nil || tokenFormat(c.Value) != "" || tokenFormat(token) != "" || unmaskToken(token) != unmaskToken(c.Value) {
				t.Fatalf("accepted cookie %q with token %q", cookie, token)
			}
		} else if !slicesHasPrefix(reason, reasons) {
			t.Fatalf("reason %q is none of Django's", reason)
		}
		if tokenFormat(cookie) == "" && strings.Trim(cookie, csrfChars) == "" && (origin == "" || sameHost(origin, "chat.test")) {
			r.Header.Set(csrfHeader, maskToken(unmaskToken(cookie)))
			if reason := csrfReason(r, ""); reason != "" {
				t.Fatalf("the masked secret of cookie %q refused: %s", cookie, reason)
			}
		}
	})
}

func slicesHasPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}
