package jsonw

import (
	"strconv"
	"unicode/utf8"
)

const hex = "0123456789abcdef"

// safe marks the ASCII bytes encoding/json writes as they are (with HTML escaping on): not
// controls, '"', '\\', '<', '>' or '&'.
var safe = func() (s [utf8.RuneSelf]bool) {
	for b := 0x20; b < utf8.RuneSelf; b++ {
		s[b] = b != '"' && b != '\\' && b != '<' && b != '>' && b != '&'
	}
	return s
}()

// String appends s as a JSON string, as json.Marshal writes it: '<', '>', '&', U+2028 and
// U+2029 escaped, invalid UTF-8 replaced by U+FFFD.
func String(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if safe[c] {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// Int appends an integer.
func Int[T ~int | ~int64 | ~int32](b []byte, v T) []byte {
	return strconv.AppendInt(b, int64(v), 10)
}

// IntPtr appends *p, or null for nil.
func IntPtr[T ~int | ~int64 | ~int32](b []byte, p *T) []byte {
	if p == nil {
		return append(b, "null"...)
	}
	return strconv.AppendInt(b, int64(*p), 10)
}

// Bool appends true or false.
func Bool(b []byte, v bool) []byte {
	if v {
		return append(b, "true"...)
	}
	return append(b, "false"...)
}

// BoolPtr appends *p, or null for nil.
func BoolPtr(b []byte, p *bool) []byte {
	if p == nil {
		return append(b, "null"...)
	}
	return Bool(b, *p)
}

// Ints appends a list of integers; a nil slice is null, as json.Marshal writes it.
func Ints[T ~int | ~int64 | ~int32](b []byte, l []T) []byte {
	if l == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, v := range l {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(v), 10)
	}
	return append(b, ']')
}
