package httpapi

import (
	"errors"
	"net/http"
	"strings"
	"testing"
	"unicode/utf8"

	chat "github.com/teamchat/chat"
)

// FuzzPathText matches fuzzed paths (untrusted: a request's decoded URL path) against the
// routing table and checks their segments: what checkPath lets through holds no NUL byte and
// is UTF-8, and what it refuses is refused with BAD_REQUEST naming a segment of the route.
func FuzzPathText(f *testing.F) {
	for _, s := range []string{
		"users/a\x00b@zulip.com", "users/1\x00", "users/a\x00b@zulip.com/presence", "realm/domains/x\xffy",
		"navigation_views/narrow/is/\x00", "user_uploads/2/a/b\x00c.txt", "realm/emoji/\xe2\x82", "users/me",
		"messages/12", "streams/1/members", "", "/", "users/\x00/status",
	} {
		f.Add(s)
	}
	h := New(nil, Options{})
	f.Fuzz(func(t *testing.T, path string) {
		for _, method := range []string{http.MethodGet, http.MethodPatch, http.MethodPost, http.MethodDelete} {
			rt, values, _ := h.match(method, path)
			if rt == nil {
				continue
			}
			err := checkPath(values)
			if err == nil {
				for name, v := range values {
					if strings.IndexByte(v, 0) >= 0 || !utf8.ValidString(v) {
						t.Fatalf("%s %q: segment %s=%q let through", method, path, name, v)
					}
				}
				continue
			}
			var ce *chat.Error
			if !errors.As(err, &ce) || ce.HTTPStatus() != http.StatusBadRequest {
				t.Fatalf("%s %q: %v, want a BAD_REQUEST *chat.Error", method, path, err)
			}
			named := false
			for name := range values {
				named = named || strings.Contains(ce.Msg, "Invalid "+name+":")
			}
			if !named {
				t.Fatalf("%s %q: %q names no segment of %s", method, path, ce.Msg, rt.pattern)
			}
		}
	})
}
