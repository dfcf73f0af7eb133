package storage

import (
	"strings"
	"unicode/utf8"
)

// ValidString reports whether every backend stores s as it is: s holds no NUL byte
// (PostgreSQL's text refuses it) and is valid UTF-8 (PostgreSQL refuses other bytes in a
// UTF-8 database; SQLite and memory would keep them). A backend refuses any other string
// with ErrInvalidString.
func ValidString(s string) bool {
	return strings.IndexByte(s, 0) < 0 && utf8.ValidString(s)
}
