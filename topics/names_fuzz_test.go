package topics_test

import (
	"errors"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/teamchat/chat/topics"
)

// FuzzClean feeds arbitrary topics to the topic rules. Clean refuses exactly the topics with a
// null byte or, once trimmed, a character that is not printable; a cleaned topic is valid
// UTF-8, trimmed, without control characters, never the empty topic's display name, stable
// when cleaned again, and after Truncate within the length limit.
func FuzzClean(f *testing.F) {
	for _, seed := range []string{"lunch", "", "general chat", "(no topic)", " spaced ", "a\x00b",
		"line\nbreak", "\xff\xfe", "tab\there", " trailing newline\n", "\ufffe", "bell\a", strings.Repeat("t", 70), strings.Repeat("ü", 61)} {
		f.Add(seed)
	}
	const display = "general chat"
	f.Fuzz(func(t *testing.T, in string) {
		got, err := topics.Clean(in, display)
		operand, opErr := topics.CleanOperand(in, display)
		if (opErr != nil) != strings.ContainsRune(in, 0) {
			t.Fatalf("CleanOperand(%q) = %v; it refuses exactly null bytes", in, opErr)
		}
		if err != nil {
			var bad *topics.InvalidCharacterError
			switch {
			case strings.ContainsRune(in, 0):
			case errors.As(err, &bad) && bad.Position == topics.NonPrintable(operand) && bad.Position > 0:
			default:
				t.Fatalf("Clean(%q) refused with %v; CleanOperand gives %q", in, err, operand)
			}
			return
		}
		if got != operand {
			t.Fatalf("Clean(%q) = %q but CleanOperand = %q", in, got, operand)
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
