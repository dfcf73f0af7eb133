package markdown

import (
	"bytes"
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
	goldmark.WithParserOptions(parser.WithASTTransformers(linkifierTransformer)),
	goldmark.WithRendererOptions(html.WithHardWraps(),
		renderer.WithNodeRenderers(util.Prioritized(literalHTML{}, 100))),
)

// policy is the sanitizer applied to the rendered HTML: the user-generated-content policy
// (formatting, lists, tables, links and images with http, https and mailto URLs or relative
// ones; no script, style, event handler or javascript: URL), without forcing rel="nofollow".
// It is configured once and never changed; bluemonday policies are safe for concurrent use
// once built.
var policy = bluemonday.UGCPolicy().RequireNoFollowOnLinks(false)

// Render converts Markdown to sanitized HTML. The empty string renders to the empty string;
// blocks are separated by a newline and the result has no trailing newline.
func Render(src string) string {
	if strings.TrimSpace(src) == "" {
		return ""
	}
	var buf bytes.Buffer
	if err := md.Convert([]byte(src), &buf); err != nil {
		// goldmark fails only when writing fails, which a bytes.Buffer does not; fall back to
		// escaped text all the same.
		return "<p>" + escapeText(src) + "</p>"
	}
	return strings.TrimSpace(policy.Sanitize(buf.String()))
}

// escapeText escapes &, < and >.
func escapeText(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}
