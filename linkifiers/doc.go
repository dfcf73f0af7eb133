// Package linkifiers holds the organization's linkifiers and code playgrounds and their rules:
// the pattern check (regular expressions in RE2 syntax, which Go's regexp implements, with
// Python-style (?P<name>...) groups), RFC 6570 URL templates, the reverse template with its
// example-input round trip, and the playground's single {code} variable.
//
// It is a leaf domain package: it imports the standard library and
// github.com/yosida95/uritemplate/v3 (a small, dependency-free RFC 6570 level 4
// implementation) and nothing of the project but users. It does no I/O; its functions are
// pure and safe for concurrent use, and a compiled Linkifier is immutable.
package linkifiers
