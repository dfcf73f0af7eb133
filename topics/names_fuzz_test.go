package topics_test

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/teamchat/chat/topics"
)

// FuzzClean feeds arbitrary topics to the topic rules. A cleaned topic is valid UTF-8, trimmed,
// without control characters or null bytes, never the empty topic's display name, stable when
// cleaned again, and after Truncate within the length limit.
func FuzzClean(f *testing.F) {
	for _, seed := range []string{"lunch", "", "general chat", "(no topic)", " spaced ", "a\x00b",
		"line\nbreak", "\xff\xfe", strings.Repeat("t", 70), strings.Repeat("ü", 61)} {
		f.Add(seed)
	}
	const display = "general chat"
	f.Fuzz(func(t *testing.T, in string) {
		got, err := topics.Clean(in, display)
		if err != nil {
			if !strings.ContainsRune(in, 0) {
				t.Fatalf("Clean(%q) refused a topic without null bytes: %v", in, err)
			}
			return
		}
		if !utf8.ValidString(got) || got != strings.TrimSpace(got) || got == display || strings.ContainsRune(got, 0) {
			t.Fatalf("Clean(%q) = %q", in, got)
		}
		for _, r := range got {
			if unicode.IsControl(r) {
				t.Fatalf("Clean(%q) kept control character %U", in, r)
			}
		}
		if again, err := topics.Clean(got, display); err != nil || again != got {
			t.Fatalf("Clean(%q) = %q, %v; not stable", got, again, err)
		}
		short := topics.Truncate(got)
		if utf8.RuneCountInString(short) > topics.MaxNameLength || topics.CheckLength(short) != nil {
			t.Fatalf("Truncate(%q) = %q, over the limit", got, short)
		}
	})
}
