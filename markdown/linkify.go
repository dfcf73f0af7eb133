package markdown

import (
	"sort"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// Link is a linkifier match in a run of plain text: the byte range [Start, End) and the URL it
// links to.
type Link struct {
	Start, End int
	URL        string
}

// Linkify finds the links of one run of plain text. Ranges must lie within the text; the
// renderer ignores ranges that overlap an earlier one.
type Linkify func(text string) []Link

// linkifyKey carries the Linkify of one rendering through goldmark's parser context.
var linkifyKey = parser.NewContextKey()

// RenderLinkified is Render with linkify applied to the plain text of the document: text
// inside links, images and code is left alone. A nil linkify is Render.
func RenderLinkified(src string, linkify Linkify) string {
	out, _ := RenderWith(src, Options{Linkify: linkify})
	return out
}

// linkifier is the AST transformer that applies the Linkify of the parser context.
type linkifier struct{}

var _ parser.ASTTransformer = linkifier{}

// Transform splits every eligible text node around the links Linkify finds in it.
func (linkifier) Transform(doc *ast.Document, reader text.Reader, pc parser.Context) {
	linkify, _ := pc.Get(linkifyKey).(Linkify)
	if linkify == nil {
		return
	}
	source := reader.Source()
	var texts []*ast.Text
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n.Kind() {
		case ast.KindLink, ast.KindAutoLink, ast.KindImage, ast.KindCodeSpan, ast.KindCodeBlock, ast.KindFencedCodeBlock, ast.KindHTMLBlock, ast.KindRawHTML:
			return ast.WalkSkipChildren, nil
		}
		if t, ok := n.(*ast.Text); ok {
			texts = append(texts, t)
		}
		return ast.WalkContinue, nil
	})
	for _, t := range texts {
		splitText(t, source, linkify)
	}
}

// splitText replaces t by text and link nodes for the links found in its content.
func splitText(t *ast.Text, source []byte, linkify Linkify) {
	seg := t.Segment
	value := string(seg.Value(source))
	links := linkify(value)
	if len(links) == 0 {
		return
	}
	sort.SliceStable(links, func(i, j int) bool { return links[i].Start < links[j].Start })
	parent := t.Parent()
	if parent == nil {
		return
	}
	pos := 0
	var last ast.Node
	insert := func(n ast.Node) {
		parent.InsertBefore(parent, t, n)
		last = n
	}
	for _, l := range links {
		if l.Start < pos || l.End > len(value) || l.Start >= l.End || l.URL == "" {
			continue
		}
		if l.Start > pos {
			insert(ast.NewTextSegment(text.NewSegment(seg.Start+pos, seg.Start+l.Start)))
		}
		link := ast.NewLink()
		link.Destination = []byte(l.URL)
		link.AppendChild(link, ast.NewTextSegment(text.NewSegment(seg.Start+l.Start, seg.Start+l.End)))
		insert(link)
		pos = l.End
	}
	if last == nil {
		return
	}
	if pos < len(value) {
		rest := ast.NewTextSegment(text.NewSegment(seg.Start+pos, seg.Stop))
		insert(rest)
	}
	if lt, ok := last.(*ast.Text); ok {
		lt.SetSoftLineBreak(t.SoftLineBreak())
		lt.SetHardLineBreak(t.HardLineBreak())
	} else if t.SoftLineBreak() || t.HardLineBreak() {
		br := ast.NewTextSegment(text.NewSegment(seg.Stop, seg.Stop))
		br.SetSoftLineBreak(t.SoftLineBreak())
		br.SetHardLineBreak(t.HardLineBreak())
		insert(br)
	}
	parent.RemoveChild(parent, t)
}

// linkifierTransformer registers linkifier with goldmark, after the built-in transformers.
var linkifierTransformer = util.Prioritized(linkifier{}, 1000)
