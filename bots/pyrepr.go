package bots

import (
	"fmt"
	"strings"
	"unicode"
)

// pyRepr writes s as Python's repr writes a bytes value (asBytes) or a str: the quote it
// prefers ('), or " when s holds ' but no ", and backslash escapes for the rest.
func pyRepr(s string, asBytes bool) string {
	quote := byte('\'')
	if strings.IndexByte(s, '\'') >= 0 && strings.IndexByte(s, '"') < 0 {
		quote = '"'
	}
	var b strings.Builder
	if asBytes {
		b.WriteByte('b')
	}
	b.WriteByte(quote)
	escape := func(r rune) bool {
		switch r {
		case '\\', rune(quote):
			b.WriteByte('\\')
			b.WriteRune(r)
		case '\t':
			b.WriteString(`\t`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		default:
			return false
		}
		return true
	}
	if asBytes {
		for i := 0; i < len(s); i++ {
			c := s[i]
			if escape(rune(c)) {
				continue
			}
			if c < 0x20 || c >= 0x7f {
				fmt.Fprintf(&b, `\x%02x`, c)
			} else {
				b.WriteByte(c)
			}
		}
	} else {
		for _, r := range s {
			switch {
			case escape(r):
			case unicode.IsPrint(r) || r == ' ':
				b.WriteRune(r)
			case r < 0x100:
				fmt.Fprintf(&b, `\x%02x`, r)
			case r < 0x10000:
				fmt.Fprintf(&b, `\u%04x`, r)
			default:
				fmt.Fprintf(&b, `\U%08x`, r)
			}
		}
	}
	b.WriteByte(quote)
	return b.String()
}
