package markdown

import (
	"html"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/util"
)

// literalHTML renders raw HTML of the source as the text the writer typed (escaped), the way
// Zulip shows it, instead of dropping it: an HTML block becomes a paragraph, inline HTML
// becomes text.
type literalHTML struct{}

func (literalHTML) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindHTMLBlock, renderHTMLBlock)
	reg.Register(ast.KindRawHTML, renderRawHTML)
}

func renderHTMLBlock(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*ast.HTMLBlock)
	var text strings.Builder
	lines := n.Lines()
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		text.Write(seg.Value(source))
	}
	if n.HasClosure() {
		text.Write(n.ClosureLine.Value(source))
	}
	body := strings.TrimRight(text.String(), "\n")
	parts := strings.Split(body, "\n")
	_, _ = w.WriteString("<p>")
	for i, p := range parts {
		if i > 0 {
			_, _ = w.WriteString("<br>\n")
		}
		_, _ = w.WriteString(html.EscapeString(p))
	}
	_, _ = w.WriteString("</p>\n")
	return ast.WalkSkipChildren, nil
}

func renderRawHTML(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkSkipChildren, nil
	}
	n := node.(*ast.RawHTML)
	for i := 0; i < n.Segments.Len(); i++ {
		seg := n.Segments.At(i)
		_, _ = w.WriteString(html.EscapeString(string(seg.Value(source))))
	}
	return ast.WalkSkipChildren, nil
}
