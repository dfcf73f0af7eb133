package markdown

import (
	"strings"
	"testing"
)

func TestRender(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, in, want string }{
		{"empty", "", ""},
		{"plain paragraph keeps double spaces and apostrophes",
			"The Zulip development environment default organization.  It's great for testing!",
			"<p>The Zulip development environment default organization.  It's great for testing!</p>"},
		{"two paragraphs and a line break", "a\nb\n\nc", "<p>a<br>\nb</p><p>c</p>"},
		{"html is escaped", "<script>alert(1)</script> & co", "<p>&lt;script&gt;alert(1)&lt;/script&gt; &amp; co</p>"},
		{"emphasis", "**bold** and *it*", "<p><strong>bold</strong> and <em>it</em></p>"},
		{"code is literal", "`<b>*x*</b>`", "<p><code>&lt;b&gt;*x*&lt;/b&gt;</code></p>"},
		{"link", "[Zulip](https://zulip.com/a?b=1&c=2)", `<p><a href="https://zulip.com/a?b=1&amp;c=2">Zulip</a></p>`},
		{"javascript link is text", "[x](javascript:alert(1))", "<p>[x](javascript:alert(1))</p>"},
		{"bare url", "see https://example.com/x.", `<p>see <a href="https://example.com/x">https://example.com/x</a>.</p>`},
		{"quote in url is escaped", `[a](https://e.com/"onmouseover=x)`, `<p><a href="https://e.com/&#34;onmouseover=x">a</a></p>`},
		{"lone star", "2 * 3", "<p>2 * 3</p>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := Render(tt.in); got != tt.want {
				t.Errorf("Render(%q)\n got %q\nwant %q", tt.in, got, tt.want)
			}
		})
	}
}

func FuzzRender(f *testing.F) {
	for _, s := range []string{"", "a **b** *c* `d`", "[x](https://a.b)", "<img src=x onerror=alert(1)>",
		"[a](javascript:x)", "https://x.y/<script>", "***", "[[a](b)](c)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		out := strings.ToLower(Render(src))
		// Only our own tags may appear: any '<' must start one of them.
		for i := 0; i < len(out); i++ {
			if out[i] != '<' {
				continue
			}
			rest := out[i:]
			ok := false
			for _, tag := range []string{"<p>", "</p>", "<br>", "<strong>", "</strong>", "<em>", "</em>", "<code>", "</code>", `<a href="`, "</a>"} {
				if strings.HasPrefix(rest, tag) {
					ok = true
					break
				}
			}
			if !ok {
				t.Fatalf("Render(%q) produced a foreign tag at %d: %q", src, i, out)
			}
		}
		if strings.Contains(out, `href="javascript:`) {
			t.Fatalf("Render(%q) produced a javascript: link: %q", src, out)
		}
	})
}
