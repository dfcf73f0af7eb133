package linkifiers

import (
	"fmt"
	"regexp"
	"regexp/syntax"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/yosida95/uritemplate/v3"
)

// ID identifies a linkifier.
type ID int64

// Linkifier turns text matching Pattern into a link built from URLTemplate with the
// pattern's named groups. ReverseTemplate (with ExampleInput) turns such a URL back into
// text.
type Linkifier struct {
	ID          ID
	Pattern     string
	URLTemplate string
	// ExampleInput and ReverseTemplate are nil when unset.
	ExampleInput    *string
	ReverseTemplate *string
	// AlternativeURLTemplates are extra templates used only for reverse linkification.
	AlternativeURLTemplates []string
	// Order places the linkifier among the organization's (ascending; ties by id).
	Order int
}

// Clone returns a copy of l that shares no memory with it.
func (l Linkifier) Clone() Linkifier {
	if l.ExampleInput != nil {
		s := *l.ExampleInput
		l.ExampleInput = &s
	}
	if l.ReverseTemplate != nil {
		s := *l.ReverseTemplate
		l.ReverseTemplate = &s
	}
	l.AlternativeURLTemplates = slices.Clone(l.AlternativeURLTemplates)
	if l.AlternativeURLTemplates == nil {
		l.AlternativeURLTemplates = []string{}
	}
	return l
}

// Limits of linkifiers, in bytes.
const (
	MaxPatternLength      = 1000
	MaxURLTemplateLength  = 2048
	MaxExampleInputLength = 1000
	// MaxAlternativeURLTemplates bounds the alternative templates of one linkifier.
	MaxAlternativeURLTemplates = 20
	// MaxLinkifiers bounds the linkifiers of an organization.
	MaxLinkifiers = 1000
)

// Field names used in ValidationError, as the API names them; FieldAll is Django's key for
// errors that concern several fields.
const (
	FieldPattern                 = "pattern"
	FieldURLTemplate             = "url_template"
	FieldExampleInput            = "example_input"
	FieldReverseTemplate         = "reverse_template"
	FieldAlternativeURLTemplates = "alternative_url_templates"
	FieldAll                     = "__all__"
)

// ValidationError is the refusal of a linkifier or playground: the field it concerns and the
// API's message.
type ValidationError struct {
	Field string
	Msg   string
}

func (e *ValidationError) Error() string { return e.Msg }

func invalid(field, format string, args ...any) *ValidationError {
	return &ValidationError{Field: field, Msg: fmt.Sprintf(format, args...)}
}

// CompilePattern compiles a linkifier pattern and returns it with its named groups. Patterns
// are regular expressions in RE2 syntax (Go's regexp), with (?P<name>...) groups; anything
// else is refused with the parser's reason ("Bad regular expression: ...").
func CompilePattern(pattern string) (*regexp.Regexp, []string, error) {
	switch {
	case pattern == "":
		return nil, nil, invalid(FieldPattern, "This field cannot be blank.")
	case len(pattern) > MaxPatternLength:
		return nil, nil, invalid(FieldPattern, "Ensure this value has at most %d characters (it has %d).", MaxPatternLength, len(pattern))
	case !utf8.ValidString(pattern):
		return nil, nil, invalid(FieldPattern, "Bad regular expression: invalid UTF-8")
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		msg := err.Error()
		var se *syntax.Error
		if e, ok := err.(*syntax.Error); ok {
			se = e
			msg = fmt.Sprintf("%s: %s", se.Code, se.Expr)
		}
		return nil, nil, invalid(FieldPattern, "Bad regular expression: %s", msg)
	}
	var names []string
	seen := map[string]bool{}
	for _, n := range re.SubexpNames() {
		if n == "" {
			continue
		}
		if seen[n] {
			return nil, nil, invalid(FieldPattern, "Bad regular expression: duplicate capture group name: %s", n)
		}
		seen[n] = true
		names = append(names, n)
	}
	sort.Strings(names)
	return re, names, nil
}

// ParseURLTemplate parses an RFC 6570 (level 4) template and returns its variable names. A
// '%' that does not start a percent-encoded byte is taken literally, as Zulip does.
func ParseURLTemplate(field, tmpl string) (*uritemplate.Template, []string, error) {
	if tmpl == "" {
		return nil, nil, invalid(field, "This field cannot be blank.")
	}
	if len(tmpl) > MaxURLTemplateLength || !utf8.ValidString(tmpl) || !webScheme(tmpl) {
		return nil, nil, invalid(field, "Invalid URL template.")
	}
	t, err := uritemplate.New(escapeStrayPercent(tmpl))
	if err != nil {
		return nil, nil, invalid(field, "Invalid URL template.")
	}
	names := slices.Clone(t.Varnames())
	sort.Strings(names)
	return t, slices.Compact(names), nil
}

// webScheme reports whether a template starts with http:// or https:// literally: links
// built from it can never be javascript:, data: or any other active scheme, whatever the
// variables hold.
func webScheme(tmpl string) bool {
	lower := strings.ToLower(tmpl)
	return strings.HasPrefix(lower, "http://") || strings.HasPrefix(lower, "https://")
}

// escapeStrayPercent turns a '%' not followed by two hex digits into "%25".
func escapeStrayPercent(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && !(i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2])) {
			b.WriteString("%25")
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// Compiled is a checked linkifier, ready to render.
type Compiled struct {
	Linkifier
	re     *regexp.Regexp
	full   *regexp.Regexp // the pattern anchored at both ends
	groups []string
	url    *uritemplate.Template
}

// Check validates a linkifier: the pattern compiles; the URL template is RFC 6570 and its
// variables are exactly the pattern's named groups; every alternative template is RFC 6570
// with variables among the groups; an example input matches the pattern whole; a reverse
// template needs an example input, uses only the groups' names and reproduces the example
// from the variables the pattern extracts from it. Empty ExampleInput and ReverseTemplate
// are reset to nil.
func Check(l Linkifier) (*Compiled, error) {
	l = l.Clone()
	if l.ExampleInput != nil && *l.ExampleInput == "" {
		l.ExampleInput = nil
	}
	if l.ReverseTemplate != nil && *l.ReverseTemplate == "" {
		l.ReverseTemplate = nil
	}
	re, groups, err := CompilePattern(l.Pattern)
	if err != nil {
		return nil, err
	}
	url, err := checkURLTemplates(l, groups)
	if err != nil {
		return nil, err
	}
	full, err := regexp.Compile(`^(?:` + l.Pattern + `)$`)
	if err != nil {
		return nil, invalid(FieldPattern, "Bad regular expression: %v", err)
	}
	c := &Compiled{Linkifier: l, re: re, full: full, groups: groups, url: url}
	if err := c.checkExampleInput(); err != nil {
		return nil, err
	}
	if err := c.checkReverseTemplate(); err != nil {
		return nil, err
	}
	return c, nil
}

// checkURLTemplates parses the URL template, whose variables must be exactly the pattern's
// groups, and the alternative templates, whose variables must be among them.
func checkURLTemplates(l Linkifier, groups []string) (*uritemplate.Template, error) {
	url, vars, err := ParseURLTemplate(FieldURLTemplate, l.URLTemplate)
	if err != nil {
		return nil, err
	}
	for _, v := range vars {
		if !slices.Contains(groups, v) {
			return nil, invalid(FieldAll, "Group %s in URL template is not present in linkifier pattern.", pyRepr(v))
		}
	}
	for _, g := range groups {
		if !slices.Contains(vars, g) {
			return nil, invalid(FieldAll, "Group %s in linkifier pattern is not present in URL template.", pyRepr(g))
		}
	}
	if len(l.AlternativeURLTemplates) > MaxAlternativeURLTemplates {
		return nil, invalid(FieldAlternativeURLTemplates, "Too many alternative URL templates (limit: %d).", MaxAlternativeURLTemplates)
	}
	for _, alt := range l.AlternativeURLTemplates {
		_, avars, err := ParseURLTemplate(FieldAlternativeURLTemplates, alt)
		if err != nil {
			return nil, err
		}
		for _, v := range avars {
			if !slices.Contains(groups, v) {
				return nil, invalid(FieldAll, "Group %s in alternative URL template is not present in linkifier pattern.", pyRepr(v))
			}
		}
	}
	return url, nil
}

// checkExampleInput refuses an example input that is too long or does not match the pattern
// whole.
func (c *Compiled) checkExampleInput() error {
	in := c.ExampleInput
	if in == nil {
		return nil
	}
	if len(*in) > MaxExampleInputLength {
		return invalid(FieldExampleInput, "Ensure this value has at most %d characters (it has %d).", MaxExampleInputLength, len(*in))
	}
	if _, ok := c.extract(*in); !ok {
		return invalid(FieldAll, "Example input does not match the linkifier pattern.")
	}
	return nil
}

// checkReverseTemplate refuses a reverse template without an example input, with a variable
// that is not one of the pattern's groups, or that does not reproduce the example input.
func (c *Compiled) checkReverseTemplate() error {
	if c.ReverseTemplate == nil {
		return nil
	}
	if c.ExampleInput == nil {
		return invalid(FieldAll, "A reverse template requires an example input.")
	}
	parts, err := parseReverseTemplate(*c.ReverseTemplate)
	if err != nil {
		return err
	}
	for _, p := range parts {
		if p.variable && !slices.Contains(c.groups, p.text) {
			return invalid(FieldAll, "Group %s in reverse template is not present in linkifier pattern.", pyRepr(p.text))
		}
	}
	values, _ := c.extract(*c.ExampleInput)
	if got := renderReverse(parts, values); got != *c.ExampleInput {
		return invalid(FieldAll, "Reverse template output %s does not match the example input %s.", pyRepr(got), pyRepr(*c.ExampleInput))
	}
	return nil
}

// extract matches s whole against the pattern and returns the named groups' values.
func (c *Compiled) extract(s string) (map[string]string, bool) {
	loc := c.full.FindStringSubmatchIndex(s)
	if loc == nil {
		return nil, false
	}
	out := map[string]string{}
	for i, name := range c.full.SubexpNames() {
		if name != "" && loc[2*i] >= 0 {
			out[name] = s[loc[2*i]:loc[2*i+1]]
		}
	}
	return out, true
}

// URL expands the URL template with the values of the groups.
func (c *Compiled) URL(values map[string]string) (string, error) {
	vals := uritemplate.Values{}
	for k, v := range values {
		vals.Set(k, uritemplate.String(v))
	}
	return c.url.Expand(vals)
}

// reversePart is a literal run or a variable of a reverse template.
type reversePart struct {
	text     string
	variable bool
}

// parseReverseTemplate splits a reverse template into literals and {name} variables; "{{"
// and "}}" are literal braces.
func parseReverseTemplate(t string) ([]reversePart, error) {
	bad := invalid(FieldReverseTemplate, "Invalid reverse template.")
	var parts []reversePart
	var lit strings.Builder
	for i := 0; i < len(t); i++ {
		switch t[i] {
		case '{':
			if i+1 < len(t) && t[i+1] == '{' {
				lit.WriteByte('{')
				i++
				continue
			}
			end := strings.IndexByte(t[i+1:], '}')
			if end < 0 {
				return nil, bad
			}
			name := t[i+1 : i+1+end]
			if !validGroupName(name) {
				return nil, bad
			}
			if lit.Len() > 0 {
				parts = append(parts, reversePart{text: lit.String()})
				lit.Reset()
			}
			parts = append(parts, reversePart{text: name, variable: true})
			i += end + 1
		case '}':
			if i+1 < len(t) && t[i+1] == '}' {
				lit.WriteByte('}')
				i++
				continue
			}
			return nil, bad
		default:
			lit.WriteByte(t[i])
		}
	}
	if lit.Len() > 0 {
		parts = append(parts, reversePart{text: lit.String()})
	}
	return parts, nil
}

func renderReverse(parts []reversePart, values map[string]string) string {
	var b strings.Builder
	for _, p := range parts {
		if p.variable {
			b.WriteString(values[p.text])
		} else {
			b.WriteString(p.text)
		}
	}
	return b.String()
}

func validGroupName(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// pyRepr quotes s the way Python's repr quotes a simple string, as Zulip's messages do.
func pyRepr(s string) string {
	if strings.Contains(s, "'") && !strings.Contains(s, `"`) {
		return `"` + s + `"`
	}
	return "'" + strings.ReplaceAll(s, "'", `\'`) + "'"
}

// CheckOrder verifies that ordered lists every id of existing exactly once.
func CheckOrder(existing, ordered []ID) error {
	if len(existing) != len(ordered) {
		return errOrder
	}
	a, b := slices.Clone(existing), slices.Clone(ordered)
	slices.Sort(a)
	slices.Sort(b)
	if !slices.Equal(a, b) || len(slices.Compact(b)) != len(a) {
		return errOrder
	}
	return nil
}

var errOrder = invalid(FieldAll, "The ordered list must enumerate all existing linkifiers exactly once")
