package linkifiers

import (
	"errors"
	"strings"
	"testing"
)

func sp(s string) *string { return &s }

func TestCheck(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		l     Linkifier
		field string // "" when valid
		msg   string
	}{
		{"simple", Linkifier{Pattern: `#(?P<id>[0-9]+)`, URLTemplate: "https://github.com/zulip/zulip/issues/{id}"}, "", ""},
		{"no groups", Linkifier{Pattern: `RFC`, URLTemplate: "https://example.com/rfc"}, "", ""},
		{"several groups and operators", Linkifier{Pattern: `(?P<org>[a-z]+)/(?P<repo>[a-z]+)#(?P<id>\d+)`, URLTemplate: "https://github.com/{org}/{repo}/issues/{id}{?q}"},
			"__all__", "Group 'q' in URL template is not present in linkifier pattern."},
		{"stray percent is literal", Linkifier{Pattern: `x`, URLTemplate: "https://x/%%"}, "", ""},
		{"blank pattern", Linkifier{Pattern: "", URLTemplate: "https://x"}, "pattern", "This field cannot be blank."},
		{"bad regex", Linkifier{Pattern: `(foo`, URLTemplate: "https://x"}, "pattern", "Bad regular expression: missing closing ): (foo"},
		{"lookahead is not RE2", Linkifier{Pattern: `a(?=b)`, URLTemplate: "https://x"}, "pattern", "Bad regular expression: invalid or unsupported Perl syntax: (?="},
		{"backreference is not RE2", Linkifier{Pattern: `(a)\1`, URLTemplate: "https://x"}, "pattern", "Bad regular expression: invalid escape sequence: \\1"},
		{"duplicate group", Linkifier{Pattern: `(?P<a>x)(?P<a>y)`, URLTemplate: "https://x/{a}"}, "pattern", ""},
		{"bad template", Linkifier{Pattern: `(?P<id>\d+)`, URLTemplate: "https://x/{id"}, "url_template", "Invalid URL template."},
		{"bad template operator", Linkifier{Pattern: `(?P<id>\d+)`, URLTemplate: "{bar++}"}, "url_template", "Invalid URL template."},
		{"javascript template", Linkifier{Pattern: `(?P<id>\d+)`, URLTemplate: "javascript:alert({id})"}, "url_template", "Invalid URL template."},
		{"template choosing the scheme", Linkifier{Pattern: `(?P<id>\d+)`, URLTemplate: "{id}://x"}, "url_template", "Invalid URL template."},
		{"relative template", Linkifier{Pattern: `(?P<id>\d+)`, URLTemplate: "/issues/{id}"}, "url_template", "Invalid URL template."},
		{"data alternative", Linkifier{Pattern: `#(?P<id>[0-9]+)`, URLTemplate: "https://x/{id}", AlternativeURLTemplates: []string{"data:text/html,{id}"}}, "alternative_url_templates", "Invalid URL template."},
		{"group missing in template", Linkifier{Pattern: `(?P<id>\d+)-(?P<x>\d+)`, URLTemplate: "https://x/{id}"}, "__all__", "Group 'x' in linkifier pattern is not present in URL template."},
		{"variable missing in pattern", Linkifier{Pattern: `(?P<id>\d+)`, URLTemplate: "https://x/{id}/{hello}"}, "__all__", "Group 'hello' in URL template is not present in linkifier pattern."},
		{"reverse round trip", Linkifier{Pattern: `#(?P<id>[0-9]+)`, URLTemplate: "https://x/{id}", ExampleInput: sp("#123"), ReverseTemplate: sp("#{id}")}, "", ""},
		{"literal braces", Linkifier{Pattern: `\{(?P<id>[0-9]+)\}`, URLTemplate: "https://x/{id}", ExampleInput: sp("{7}"), ReverseTemplate: sp("{{{id}}}")}, "", ""},
		{"reverse does not reproduce", Linkifier{Pattern: `#(?P<id>[0-9]+)`, URLTemplate: "https://x/{id}", ExampleInput: sp("#123"), ReverseTemplate: sp("issue {id}")},
			"__all__", "Reverse template output 'issue 123' does not match the example input '#123'."},
		{"example does not match", Linkifier{Pattern: `#(?P<id>[0-9]+)`, URLTemplate: "https://x/{id}", ExampleInput: sp("#12a")}, "__all__", "Example input does not match the linkifier pattern."},
		{"reverse without example", Linkifier{Pattern: `#(?P<id>[0-9]+)`, URLTemplate: "https://x/{id}", ReverseTemplate: sp("#{id}")}, "__all__", "A reverse template requires an example input."},
		{"unknown variable in reverse", Linkifier{Pattern: `#(?P<id>[0-9]+)`, URLTemplate: "https://x/{id}", ExampleInput: sp("#1"), ReverseTemplate: sp("#{nope}")}, "__all__", "Group 'nope' in reverse template is not present in linkifier pattern."},
		{"unbalanced brace in reverse", Linkifier{Pattern: `#(?P<id>[0-9]+)`, URLTemplate: "https://x/{id}", ExampleInput: sp("#1"), ReverseTemplate: sp("#{id")}, "reverse_template", "Invalid reverse template."},
		{"alternative templates", Linkifier{Pattern: `#(?P<id>[0-9]+)`, URLTemplate: "https://x/{id}", AlternativeURLTemplates: []string{"https://y/{id}", "https://z/{?id}"}}, "", ""},
		{"bad alternative", Linkifier{Pattern: `#(?P<id>[0-9]+)`, URLTemplate: "https://x/{id}", AlternativeURLTemplates: []string{"https://y/{id"}}, "alternative_url_templates", "Invalid URL template."},
		{"alternative with unknown variable", Linkifier{Pattern: `#(?P<id>[0-9]+)`, URLTemplate: "https://x/{id}", AlternativeURLTemplates: []string{"https://y/{other}"}}, "__all__", "Group 'other' in alternative URL template is not present in linkifier pattern."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Check(tt.l)
			if tt.field == "" {
				if err != nil {
					t.Fatalf("Check: %v", err)
				}
				if c.Pattern != tt.l.Pattern {
					t.Errorf("compiled pattern %q", c.Pattern)
				}
				return
			}
			var ve *ValidationError
			if !errors.As(err, &ve) || ve.Field != tt.field || (tt.msg != "" && ve.Msg != tt.msg) {
				t.Fatalf("Check = %v (%#v), want %s: %q", err, ve, tt.field, tt.msg)
			}
		})
	}
}

func TestCheckResetsEmptyOptionals(t *testing.T) {
	t.Parallel()
	c, err := Check(Linkifier{Pattern: `x`, URLTemplate: "https://x", ExampleInput: sp(""), ReverseTemplate: sp("")})
	if err != nil {
		t.Fatal(err)
	}
	if c.ExampleInput != nil || c.ReverseTemplate != nil || c.AlternativeURLTemplates == nil {
		t.Errorf("got %+v", c.Linkifier)
	}
}

func TestURL(t *testing.T) {
	t.Parallel()
	c, err := Check(Linkifier{Pattern: `(?P<org>[a-z]+)#(?P<id>\d+)`, URLTemplate: "https://github.com/{org}/x/issues/{id}"})
	if err != nil {
		t.Fatal(err)
	}
	got, err := c.URL(map[string]string{"org": "zulip", "id": "12"})
	if err != nil || got != "https://github.com/zulip/x/issues/12" {
		t.Errorf("URL = %q, %v", got, err)
	}
}

func TestCheckOrder(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		existing, ordered []ID
		ok                bool
	}{
		{nil, nil, true},
		{[]ID{1, 2, 3}, []ID{3, 1, 2}, true},
		{[]ID{1, 2, 3}, []ID{3, 1}, false},
		{[]ID{1, 2}, []ID{1, 1}, false},
		{[]ID{1, 2}, []ID{1, 3}, false},
	} {
		if err := CheckOrder(tt.existing, tt.ordered); (err == nil) != tt.ok {
			t.Errorf("CheckOrder(%v, %v) = %v", tt.existing, tt.ordered, err)
		}
	}
}

func TestCheckPlayground(t *testing.T) {
	t.Parallel()
	ok := Playground{Name: " Python playground ", Language: "Python", URLTemplate: "https://python.example.com?code={code}"}
	got, err := CheckPlayground(ok)
	if err != nil || got.Name != "Python playground" {
		t.Fatalf("CheckPlayground = %+v, %v", got, err)
	}
	for _, tt := range []struct {
		p   Playground
		msg string
	}{
		{Playground{Name: "", Language: "Python", URLTemplate: "https://x?{code}"}, "This field cannot be blank."},
		{Playground{Name: "P", Language: "Py$", URLTemplate: "https://x?{code}"}, "Invalid characters in pygments language"},
		{Playground{Name: "P", Language: strings.Repeat("a", 41), URLTemplate: "https://x?{code}"}, "Ensure this value has at most 40 characters (it has 41)."},
		{Playground{Name: "P", Language: "Python", URLTemplate: "https://x"}, `Missing the required variable "code" in the URL template`},
		{Playground{Name: "P", Language: "Python", URLTemplate: "https://x/{lang}?{code}"}, `"code" should be the only variable present in the URL template`},
		{Playground{Name: "P", Language: "Python", URLTemplate: "https://x/{code"}, "Invalid URL template."},
	} {
		if _, err := CheckPlayground(tt.p); err == nil || err.Error() != tt.msg {
			t.Errorf("CheckPlayground(%+v) = %v, want %q", tt.p, err, tt.msg)
		}
	}
}

func TestFindLinks(t *testing.T) {
	t.Parallel()
	issue, err := Check(Linkifier{Pattern: `#(?P<id>[0-9]+)`, URLTemplate: "https://github.com/zulip/zulip/issues/{id}"})
	if err != nil {
		t.Fatal(err)
	}
	greedy, err := Check(Linkifier{Pattern: `#(?P<id>[0-9]+)-(?P<n>[a-z]+)`, URLTemplate: "https://x/{id}/{n}"})
	if err != nil {
		t.Fatal(err)
	}
	got := FindLinks([]*Compiled{issue, greedy}, "fix #12, see (#3-ab) but not a#4 or #5x")
	want := []Match{{Start: 4, End: 7, URL: "https://github.com/zulip/zulip/issues/12"}, {Start: 14, End: 19, URL: "https://x/3/ab"}}
	if len(got) != len(want) {
		t.Fatalf("FindLinks = %+v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("match %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}
