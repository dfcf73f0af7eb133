package emoji

import (
	"errors"
	"regexp"
	"slices"
	"strconv"

	"github.com/teamchat/chat/users"
)

// ReactionType names the namespace of an emoji code.
type ReactionType string

// The reaction types.
const (
	// Unicode: the code is the dash-separated hexadecimal code points (without U+FE0F).
	Unicode ReactionType = "unicode_emoji"
	// Realm: the code is the id of a custom emoji of the organization.
	Realm ReactionType = "realm_emoji"
	// ZulipExtra: Zulip's own emoji; the code is the name.
	ZulipExtra ReactionType = "zulip_extra_emoji"
)

// Valid reports whether t is one of the reaction types.
func (t ReactionType) Valid() bool { return t == Unicode || t == Realm || t == ZulipExtra }

// ZulipEmoji is the one extra emoji: its name and its code.
const ZulipEmoji = "zulip"

// entry is one unicode emoji: its code and names, the canonical one first.
type entry struct {
	code  string
	names []string
}

// Index is the unicode emoji table's lookups. It is built once (NewIndex) and read-only.
type Index struct {
	byName map[string]string
	byCode map[string][]string
}

// NewIndex indexes the unicode emoji.
func NewIndex() *Index {
	x := &Index{byName: map[string]string{}, byCode: make(map[string][]string, len(unicodeTable))}
	for _, e := range unicodeTable {
		x.byCode[e.code] = e.names
		for _, n := range e.names {
			x.byName[n] = e.code
		}
	}
	return x
}

// Code returns the code of the unicode emoji named name (canonical name or alias).
func (x *Index) Code(name string) (string, bool) {
	c, ok := x.byName[name]
	return c, ok
}

// Name returns the canonical name of the unicode emoji with the given code.
func (x *Index) Name(code string) (string, bool) {
	n, ok := x.byCode[code]
	if !ok {
		return "", false
	}
	return n[0], true
}

// Names returns the names of the unicode emoji with the given code, the canonical one first.
func (x *Index) Names(code string) []string { return slices.Clone(x.byCode[code]) }

// CodeToNames returns every unicode emoji's names by code (the server emoji data file).
func (x *Index) CodeToNames() map[string][]string {
	out := make(map[string][]string, len(x.byCode))
	for c, n := range x.byCode {
		out[c] = slices.Clone(n)
	}
	return out
}

// Len is the number of unicode emoji.
func (x *Index) Len() int { return len(x.byCode) }

// ID identifies a custom emoji of the organization.
type ID int64

// String is the id as the API writes it (custom emoji ids are strings there).
func (id ID) String() string { return strconv.FormatInt(int64(id), 10) }

// Custom is a custom emoji of the organization. Its image is stored under FileName (and, for
// an animated image, a still version under StillFileName) by the Service's image store.
type Custom struct {
	ID            ID
	Name          string
	AuthorID      users.ID
	Deactivated   bool
	FileName      string
	StillFileName string
}

// MaxNameLength bounds emoji names (Zulip's RealmEmoji.name).
const MaxNameLength = 60

// Errors of the name rules; their text is Zulip's.
var (
	ErrNameMissing   = errors.New("Emoji name is missing")
	ErrNameEnd       = errors.New("Emoji names must end with either a letter or digit.")
	ErrNameChars     = errors.New("Emoji names must contain only lowercase alphanumeric characters, dashes, and underscores.")
	ErrNameTooLong   = errors.New("Emoji name is too long")
	nameChars        = regexp.MustCompile(`^[0-9a-z\-_]+$`)
	nameLastRuneRule = regexp.MustCompile(`[0-9a-z]$`)
)

// CheckName applies Zulip's rules for a custom emoji's name.
func CheckName(name string) error {
	switch {
	case name == "":
		return ErrNameMissing
	case len(name) > MaxNameLength:
		return ErrNameTooLong
	case !nameChars.MatchString(name):
		return ErrNameChars
	case !nameLastRuneRule.MatchString(name):
		return ErrNameEnd
	}
	return nil
}
