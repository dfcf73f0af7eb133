package linkifiers

import (
	"errors"
	"testing"
)

// FuzzCheck feeds arbitrary patterns, templates, example inputs and reverse templates to
// Check: it must never panic, must refuse only with a ValidationError, and whatever it accepts
// must round-trip (the reverse template reproduces the example input) and expand its URL.
func FuzzCheck(f *testing.F) {
	f.Add(`#(?P<id>[0-9]+)`, "https://github.com/zulip/zulip/issues/{id}", "#123", "#{id}", "https://x/{id}")
	f.Add(`\{(?P<id>[0-9]+)\}`, "https://x/{id}{?q}", "{7}", "{{{id}}}", "")
	f.Add(`(?P<a>x)(?P<a>y)`, "{a}", "", "", "{bar++}")
	f.Add(`(foo`, "{id", "", "}", "%%")
	f.Add(`(?P<org>[a-z]+)/(?P<repo>[a-z]+)#(?P<id>\d+)`, "https://github.com/{org}/{repo}/issues/{id}", "a/b#1", "{org}/{repo}#{id}", "https://github.com/{org}/{repo}/pull/{id}")
	f.Fuzz(func(t *testing.T, pattern, url, example, reverse, alt string) {
		l := Linkifier{Pattern: pattern, URLTemplate: url}
		if example != "" {
			l.ExampleInput = &example
		}
		if reverse != "" {
			l.ReverseTemplate = &reverse
		}
		if alt != "" {
			l.AlternativeURLTemplates = []string{alt}
		}
		c, err := Check(l)
		if err != nil {
			var ve *ValidationError
			if !errors.As(err, &ve) || ve.Msg == "" || ve.Field == "" {
				t.Fatalf("Check refused with %#v", err)
			}
			return
		}
		if c.ExampleInput != nil {
			values, ok := c.extract(*c.ExampleInput)
			if !ok {
				t.Fatalf("accepted example %q does not match %q", *c.ExampleInput, pattern)
			}
			if c.ReverseTemplate != nil {
				parts, err := parseReverseTemplate(*c.ReverseTemplate)
				if err != nil || renderReverse(parts, values) != *c.ExampleInput {
					t.Fatalf("accepted reverse template %q does not reproduce %q", *c.ReverseTemplate, *c.ExampleInput)
				}
			}
			if _, err := c.URL(values); err != nil {
				t.Fatalf("URL expansion of an accepted linkifier failed: %v", err)
			}
		}
		if _, err := CheckPlayground(Playground{Name: "p", Language: "go", URLTemplate: url}); err != nil {
			var ve *ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("CheckPlayground refused with %#v", err)
			}
		}
	})
}
