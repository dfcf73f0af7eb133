package httpapi

import (
	"slices"
	"strings"
	"testing"
)

// TestBasicFields holds basicFields' shortcut to strings.Fields.
func TestBasicFields(t *testing.T) {
	t.Parallel()
	for _, h := range []string{
		"", "Basic", "Basic ", "Basic abc=", "Basic  abc=", "Basic abc= ", " Basic abc=", "basic abc=",
		"Basic a b", "Basic a\tb", "Basic a\u00a0b", "Basic a\u2003b", "Basic é", "Bearer abc", "Basic a\x7fb",
	} {
		if got, want := basicFields(h), strings.Fields(h); !slices.Equal(got, want) {
			t.Errorf("basicFields(%q) = %q, want %q", h, got, want)
		}
	}
}

// TestBasicCredentials reads the email and key of Basic headers and refuses malformed ones.
func TestBasicCredentials(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		header, email, key string
		ok                 bool
	}{
		{"Basic YUBiLmM6a2V5", "a@b.c", "key", true},         // a@b.c:key
		{"basic  YUBiLmM6a2V5 ", "a@b.c", "key", true},       // other case, spaces
		{"Basic IGFAYi5jIDoga2V5IA==", "a@b.c", "key", true}, // " a@b.c : key "
		{"Basic YUBiLmNrZXk=", "", "", false},                // a@b.ckey: no colon
		{"Basic YUBiLmM6a2V5OnRvbw==", "", "", false},        // a@b.c:key:too
		{"Basic !!!", "", "", false},                         // not base64
		{"Basic YUBiLmM6a2V5 extra", "", "", false},          // three fields
		{"Bearer YUBiLmM6a2V5", "", "", false},               // not basic
	} {
		email, key, err := basicCredentials(tc.header)
		if (err == nil) != tc.ok || email != tc.email || key != tc.key {
			t.Errorf("basicCredentials(%q) = %q, %q, %v; want %q, %q, ok %v", tc.header, email, key, err, tc.email, tc.key, tc.ok)
		}
	}
}
