package channels_test

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/teamchat/chat/channels"
)

// FuzzCheckName feeds arbitrary names to the channel-name rule. An accepted name is valid
// UTF-8, trimmed, non-empty, within the limit, free of control characters, and accepted
// unchanged a second time; a refusal carries a message.
func FuzzCheckName(f *testing.F) {
	for _, seed := range []string{"general", "  Verona ", "", " ", "a\x00b", "\xff", "tab\there",
		strings.Repeat("x", 61), strings.Repeat("é", 60), "日本語", "\uFDD0", "emoji 😎", "\ufeffbom"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, in string) {
		got, err := channels.CheckName(in)
		if err != nil {
			if err.Error() == "" {
				t.Fatalf("CheckName(%q): empty error message", in)
			}
			return
		}
		if got == "" || got != strings.TrimSpace(got) || !utf8.ValidString(got) ||
			utf8.RuneCountInString(got) > channels.MaxNameLength {
			t.Fatalf("CheckName(%q) accepted %q", in, got)
		}
		for _, r := range got {
			if unicode.Is(unicode.Cc, r) {
				t.Fatalf("CheckName(%q) accepted control character %U", in, r)
			}
		}
		again, err := channels.CheckName(got)
		if err != nil || again != got {
			t.Fatalf("CheckName(%q) = %q, %v; not stable", got, again, err)
		}
	})
}
