package markdown

import (
	"bytes"
	"regexp"
	"strings"

	"github.com/microcosm-cc/bluemonday"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/util"
)

// md converts CommonMark (plus strikethrough and bare-URL links) to HTML. Raw HTML in
// the source is shown as the text it is (see literalHTML), and single newlines become line breaks, as in Zulip. It is configured once and
// never changed, so sharing it is safe.
var md = goldmark.New(
	goldmark.WithExtensions(extension.Strikethrough, extension.Linkify),
	goldmark.WithParserOptions(parser.WithASTTransformers(linkifierTransformer),
		parser.WithInlineParsers(util.Prioritized(mentionParser{}, 150), // after code spans
			util.Prioritized(timeParser{}, 250))), // before autolinks and raw HTML
	goldmark.WithRendererOptions(html.WithHardWraps(),
		renderer.WithNodeRenderers(util.Prioritized(literalHTML{}, 100), util.Prioritized(mentionRenderer{}, 100),
			util.Prioritized(timeRenderer{}, 100))),
)

// policy is the sanitizer applied to the rendered HTML: the user-generated-content policy
// (formatting, lists, tables, links and images with http, https and mailto URLs or relative
// ones; no script, style, event handler or javascript: URL), without forcing rel="nofollow".
// Beyond it, exactly the markup of mentions and channel links (see mentionNode) and of the
// global time syntax (see timeNode) is allowed.
// It is configured once and never changed; bluemonday policies are safe for concurrent use
// once built.
var policy = newPolicy()

func newPolicy() *bluemonday.Policy {
	p := bluemonday.UGCPolicy().RequireNoFollowOnLinks(false)
	p.AllowElements("span")
	p.AllowAttrs("class").Matching(regexp.MustCompile(
		`^(?:(?:user-mention(?: channel-wildcard-mention)?|topic-mention|user-group-mention)(?: silent)?|timestamp-error)$`)).OnElements("span")
	p.AllowAttrs("data-user-id").Matching(regexp.MustCompile(`^(?:[0-9]+|\*)$`)).OnElements("span")
	p.AllowAttrs("data-user-group-id").Matching(regexp.MustCompile(`^[0-9]+$`)).OnElements("span")
	p.AllowAttrs("class").Matching(regexp.MustCompile(`^(?:stream|stream-topic|message-link)$`)).OnElements("a")
	p.AllowAttrs("data-stream-id").Matching(regexp.MustCompile(`^[0-9]+$`)).OnElements("a")
	p.AllowAttrs("datetime").Matching(regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]{6})?Z$`)).OnElements("time")
	return p
}

// Render converts Markdown to sanitized HTML. The empty string renders to the empty string;
// blocks are separated by a newline and the result has no trailing newline.
func Render(src string) string {
	out, _ := RenderWith(src, Options{})
	return out
}

// RenderWith is Render with the organization's linkifiers and mentions (see Options). It
// also returns the mentions that notify.
func RenderWith(src string, o Options) (string, Mentions) {
	if strings.TrimSpace(src) == "" {
		return "", Mentions{}
	}
	ctx := parser.NewContext()
	if o.Linkify != nil {
		ctx.Set(linkifyKey, o.Linkify)
	}
	var st *mentionState
	if o.Resolver != nil {
		st = &mentionState{r: o.Resolver}
		ctx.Set(mentionKey, st)
	}
	var buf bytes.Buffer
	if err := md.Convert([]byte(src), &buf, parser.WithContext(ctx)); err != nil {
		// goldmark fails only when writing fails, which a bytes.Buffer does not; fall back to
		// escaped text all the same.
		return "<p>" + escapeText(src) + "</p>", Mentions{}
	}
	var found Mentions
	if st != nil {
		found = st.found
	}
	return strings.TrimSpace(policy.Sanitize(buf.String())), found
}

// escapeText escapes &, < and >.
func escapeText(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}
