package linkifiers

import (
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"
)

// PlaygroundID identifies a code playground.
type PlaygroundID int64

// Playground opens code blocks of one language in an external playground: URLTemplate has one
// variable, code, replaced by the block's content.
type Playground struct {
	ID   PlaygroundID
	Name string
	// Language is the syntax-highlighter language (Zulip's pygments_language).
	Language    string
	URLTemplate string
}

// Limits of playgrounds.
const (
	MaxPlaygroundNameLength = 100
	MaxLanguageLength       = 40
	// MaxPlaygrounds bounds the playgrounds of an organization.
	MaxPlaygrounds = 1000
)

// Field names of playground refusals.
const (
	FieldName     = "name"
	FieldLanguage = "pygments_language"
)

var languageRE = regexp.MustCompile(`^[ a-zA-Z0-9_+\-./#]*$`)

// CheckPlayground validates a playground and returns it with name and language trimmed: a
// name, a language of at most MaxLanguageLength characters from [ a-zA-Z0-9_+-./#], and a URL
// template whose only variable is code.
func CheckPlayground(p Playground) (Playground, error) {
	p.Name = strings.TrimSpace(p.Name)
	p.Language = strings.TrimSpace(p.Language)
	switch {
	case p.Name == "":
		return p, invalid(FieldName, "This field cannot be blank.")
	case utf8.RuneCountInString(p.Name) > MaxPlaygroundNameLength || !utf8.ValidString(p.Name):
		return p, invalid(FieldName, "Ensure this value has at most %d characters (it has %d).", MaxPlaygroundNameLength, utf8.RuneCountInString(p.Name))
	case p.Language == "":
		return p, invalid(FieldLanguage, "This field cannot be blank.")
	case len(p.Language) > MaxLanguageLength:
		return p, invalid(FieldLanguage, "Ensure this value has at most %d characters (it has %d).", MaxLanguageLength, len(p.Language))
	case !languageRE.MatchString(p.Language):
		return p, invalid(FieldLanguage, "Invalid characters in pygments language")
	}
	_, vars, err := ParseURLTemplate(FieldURLTemplate, p.URLTemplate)
	if err != nil {
		return p, err
	}
	if !slices.Contains(vars, "code") {
		return p, invalid(FieldAll, `Missing the required variable "code" in the URL template`)
	}
	if len(vars) != 1 {
		return p, invalid(FieldAll, `"code" should be the only variable present in the URL template`)
	}
	return p, nil
}
