package markdown

import (
	"net/url"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

func TestRender(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, in, want string }{
		{"empty", "", ""},
		{"blank", " \n ", ""},
		{"plain paragraph keeps double spaces",
			"The Zulip development environment default organization.  It is great for testing!",
			"<p>The Zulip development environment default organization.  It is great for testing!</p>"},
		{"apostrophe", "It's", "<p>It&#39;s</p>"},
		{"two paragraphs and a line break", "a\nb\n\nc", "<p>a<br>\nb</p>\n<p>c</p>"},
		{"script block is shown as text", "<script>alert(1)</script> & co", "<p>&lt;script&gt;alert(1)&lt;/script&gt; &amp; co</p>"},
		{"inline html is shown as text", "x <b onclick=\"evil()\">y</b>", "<p>x &lt;b onclick=&#34;evil()&#34;&gt;y&lt;/b&gt;</p>"},
		{"img with handler is text", "<img src=x onerror=alert(1)>", "<p>&lt;img src=x onerror=alert(1)&gt;</p>"},
		{"emphasis", "**bold** and *it*", "<p><strong>bold</strong> and <em>it</em></p>"},
		{"strikethrough", "~~gone~~", "<p><del>gone</del></p>"},
		{"code is literal", "`<b>*x*</b>`", "<p><code>&lt;b&gt;*x*&lt;/b&gt;</code></p>"},
		{"link", "[Zulip](https://zulip.com/a?b=1&c=2)", `<p><a href="https://zulip.com/a?b=1&amp;c=2">Zulip</a></p>`},
		{"relative link", "[here](#narrow/channel/1)", `<p><a href="#narrow/channel/1">here</a></p>`},
		{"javascript link loses its target", "[x](javascript:alert(1))", "<p>x</p>"},
		{"data link loses its target", "[d](data:text/html,<script>x</script>)", "<p>d</p>"},
		{"bare url", "see https://example.com/x.", `<p>see <a href="https://example.com/x">https://example.com/x</a>.</p>`},
		{"quote in url is encoded", `[a](https://e.com/"onmouseover=x)`, `<p><a href="https://e.com/%22onmouseover=x">a</a></p>`},
		{"lone star", "2 * 3", "<p>2 * 3</p>"},
		{"list", "- a\n- b", "<ul>\n<li>a</li>\n<li>b</li>\n</ul>"},
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

// allowedTags are the elements the renderer may produce.
var allowedTags = map[string]bool{
	"p": true, "br": true, "strong": true, "em": true, "del": true, "code": true, "pre": true, "a": true,
	"img": true, "ul": true, "ol": true, "li": true, "blockquote": true, "hr": true,
	"h1": true, "h2": true, "h3": true, "h4": true, "h5": true, "h6": true, "span": true,
}

// mentionAttrs are the only attribute values the markup of mentions and channel links may
// carry (see mentionNode); other attributes are not checked here.
var mentionAttrs = map[string]*regexp.Regexp{
	"span class":              regexp.MustCompile(`^(user-mention( channel-wildcard-mention)?|topic-mention|user-group-mention)( silent)?$`),
	"span data-user-id":       regexp.MustCompile(`^([0-9]+|\*)$`),
	"span data-user-group-id": regexp.MustCompile(`^[0-9]+$`),
	"a class":                 regexp.MustCompile(`^(stream|stream-topic|message-link)$`),
	"a data-stream-id":        regexp.MustCompile(`^[0-9]+$`),
}

// checkSafe fails when out holds a foreign element, an event handler or a URL with a scheme
// other than http, https or mailto.
func checkSafe(t *testing.T, src, out string) {
	t.Helper()
	z := html.NewTokenizer(strings.NewReader(out))
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			return
		}
		if tt == html.CommentToken || tt == html.DoctypeToken {
			t.Fatalf("Render(%q) produced a comment or doctype: %q", src, out)
		}
		if tt != html.StartTagToken && tt != html.SelfClosingTagToken && tt != html.EndTagToken {
			continue
		}
		tok := z.Token()
		if !allowedTags[tok.Data] {
			t.Fatalf("Render(%q) produced <%s>: %q", src, tok.Data, out)
		}
		for _, a := range tok.Attr {
			key := strings.ToLower(a.Key)
			if tok.Data == "span" && key != "class" && !strings.HasPrefix(key, "data-") {
				t.Fatalf("Render(%q) produced span attribute %s: %q", src, a.Key, out)
			}
			if re, ok := mentionAttrs[tok.Data+" "+key]; ok && !re.MatchString(a.Val) {
				t.Fatalf("Render(%q) produced %s %s=%q: %q", src, tok.Data, a.Key, a.Val, out)
			} else if !ok && (key == "class" || strings.HasPrefix(key, "data-")) {
				t.Fatalf("Render(%q) produced %s attribute %s: %q", src, tok.Data, a.Key, out)
			}
			if strings.HasPrefix(key, "on") || key == "style" {
				t.Fatalf("Render(%q) produced attribute %s: %q", src, a.Key, out)
			}
			if key == "href" || key == "src" {
				u, err := url.Parse(a.Val)
				if err != nil {
					t.Fatalf("Render(%q) produced unparsable URL %q", src, a.Val)
				}
				switch strings.ToLower(u.Scheme) {
				case "", "http", "https", "mailto":
				default:
					t.Fatalf("Render(%q) produced a %s: URL: %q", src, u.Scheme, out)
				}
			}
		}
	}
}

func FuzzRender(f *testing.F) {
	for _, s := range []string{"", "a **b** *c* `d`", "[x](https://a.b)", "<img src=x onerror=alert(1)>",
		"[a](javascript:x)", "https://x.y/<script>", "***", "[[a](b)](c)", "<div>\n<script>x</script>\n</div>",
		"![x](javascript:alert(1))", "<a href='javascript:x'>y</a>", "[x](JaVaScRiPt:alert(1))", "[x](&#106;avascript:x)",
		"<svg/onload=alert(1)>", "```\n<script>\n```", "> quote\n> <iframe src=x>", "<!-- c -->", "<style>*{}</style>",
		"@**Ada Lovelace|1** @_*hamlet* #**engines>x** @**all**", "`@**all**`", "@**<b>&Co**", "#**a.b c>**", "#**engines>x@12**"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 4096 {
			return
		}
		checkSafe(t, src, Render(src))
		out, _ := RenderWith(src, Options{Resolver: testResolver()})
		checkSafe(t, src, out)
	})
}
