package messages

import (
	"strings"
)

// maxDiffCells bounds the work of one HTML diff (tokens of the old version times tokens of
// the new one, after their common ends): beyond it, the changed middle shows as all
// replaced.
const maxDiffCells = 4_000_000

// htmlToken is a tag or a word of rendered HTML; a word keeps its trailing white space in
// space, and compares by text alone.
type htmlToken struct {
	text  string
	space string
	tag   bool
}

// tokenizeHTML splits rendered HTML into tags and words.
func tokenizeHTML(s string) []htmlToken {
	var out []htmlToken
	for len(s) > 0 {
		if s[0] == '<' {
			end := strings.IndexByte(s, '>')
			if end < 0 {
				end = len(s) - 1
			}
			out = append(out, htmlToken{text: s[:end+1], tag: true})
			s = s[end+1:]
			continue
		}
		i := strings.IndexAny(s, " \t\n\r<")
		if i < 0 {
			i = len(s)
		}
		word := s[:i]
		s = s[i:]
		j := 0
		for j < len(s) && strings.IndexByte(" \t\n\r", s[j]) >= 0 {
			j++
		}
		if word == "" && len(out) > 0 && !out[len(out)-1].tag {
			out[len(out)-1].space += s[:j]
		} else {
			out = append(out, htmlToken{text: word, space: s[:j]})
		}
		s = s[j:]
	}
	return out
}

// diffOp is one step of a token diff: kept, inserted (from the new version) or deleted (from
// the old one).
type diffOp struct {
	kind byte // '=', '+', '-'
	tok  htmlToken
}

// diffTokens returns the steps turning a into b: a longest common subsequence between their
// common prefix and suffix, or, above maxDiffCells, the middle deleted and inserted whole.
func diffTokens(a, b []htmlToken) []diffOp {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre].text == b[pre].text {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf].text == b[len(b)-1-suf].text {
		suf++
	}
	var ops []diffOp
	for _, t := range b[:pre] {
		ops = append(ops, diffOp{'=', t})
	}
	ma, mb := a[pre:len(a)-suf], b[pre:len(b)-suf]
	if len(ma)*len(mb) > maxDiffCells {
		for _, t := range mb {
			ops = append(ops, diffOp{'+', t})
		}
		for _, t := range ma {
			ops = append(ops, diffOp{'-', t})
		}
	} else {
		ops = append(ops, lcsDiff(ma, mb)...)
	}
	for _, t := range b[len(b)-suf:] {
		ops = append(ops, diffOp{'=', t})
	}
	return ops
}

// lcsDiff diffs a and b by their longest common subsequence (a table of len(a)*len(b)).
func lcsDiff(a, b []htmlToken) []diffOp {
	n, m := len(a), len(b)
	// l[i*(m+1)+j] is the length of the LCS of a[i:] and b[j:].
	l := make([]int32, (n+1)*(m+1))
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			switch {
			case a[i].text == b[j].text:
				l[i*(m+1)+j] = l[(i+1)*(m+1)+j+1] + 1
			case l[(i+1)*(m+1)+j] >= l[i*(m+1)+j+1]:
				l[i*(m+1)+j] = l[(i+1)*(m+1)+j]
			default:
				l[i*(m+1)+j] = l[i*(m+1)+j+1]
			}
		}
	}
	var ops []diffOp
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && a[i].text == b[j].text:
			ops = append(ops, diffOp{'=', b[j]})
			i, j = i+1, j+1
		case j < m && (i == n || l[i*(m+1)+j+1] >= l[(i+1)*(m+1)+j]):
			ops = append(ops, diffOp{'+', b[j]})
			j++
		default:
			ops = append(ops, diffOp{'-', a[i]})
			i++
		}
	}
	return ops
}

// HighlightHTMLDifferences is the content_html_diff of an edit (Zulip's
// highlight_html_differences): the new rendering, its inserted words in
// <span class="highlight_text_inserted"> and the old rendering's deleted words, after them, in
// <span class="highlight_text_deleted">, all in one <div>. The new version's tags are kept as
// they are; the deleted words go without their tags, so the result stays well formed.
func HighlightHTMLDifferences(old, new string) string {
	ops := diffTokens(tokenizeHTML(old), tokenizeHTML(new))
	var b strings.Builder
	b.WriteString("<div>")
	for i := 0; i < len(ops); {
		if ops[i].kind == '=' {
			b.WriteString(ops[i].tok.text)
			b.WriteString(ops[i].tok.space)
			i++
			continue
		}
		j := i
		for j < len(ops) && ops[j].kind != '=' {
			j++
		}
		writeChanged(&b, ops[i:j], '+', "highlight_text_inserted")
		writeChanged(&b, ops[i:j], '-', "highlight_text_deleted")
		i = j
	}
	b.WriteString("</div>")
	return b.String()
}

// writeChanged writes the steps of kind among a run of changes: each stretch of words in one
// span of class, the inserted tags and bare white space as they are between the stretches.
func writeChanged(b *strings.Builder, run []diffOp, kind byte, class string) {
	var words []htmlToken
	flush := func() {
		if len(words) == 0 {
			return
		}
		b.WriteString(`<span class="` + class + `">`)
		for k, w := range words {
			b.WriteString(w.text)
			if k < len(words)-1 {
				b.WriteString(w.space)
			}
		}
		b.WriteString("</span>")
		b.WriteString(words[len(words)-1].space)
		words = words[:0]
	}
	for _, op := range run {
		switch {
		case op.kind != kind:
		case (op.tok.tag || op.tok.text == "") && kind == '+':
			flush()
			b.WriteString(op.tok.text)
			b.WriteString(op.tok.space)
		case op.tok.tag || op.tok.text == "":
		default:
			words = append(words, op.tok)
		}
	}
	flush()
}
