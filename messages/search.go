package messages

import (
	"html"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	snowball "github.com/blevesearch/snowballstem"
	"github.com/blevesearch/snowballstem/english"
)

// Full-text search, as every backend evaluates it: a message's words are the words of its topic
// and of the text of its rendered content (tags left out, entities decoded), lower-cased and
// reduced to their English stems (Snowball, as PostgreSQL's english configuration that Zulip
// uses). A word is a run of letters and digits; words longer than MaxSearchWordBytes are not
// indexed. A search operand matches a message holding every one of its words; a quoted phrase
// of several words also needs them adjacent, in order, within the topic or within the content.

// MaxSearchWordBytes bounds an indexed word.
const MaxSearchWordBytes = 100

// MaxSearchWords bounds the words of one search operand that are looked up (the rest are
// ignored), so that one request cannot ask for an unbounded intersection.
const MaxSearchWords = 32

// SearchDoc is what the full-text index holds of one message: the stems of its topic's words
// and of its content's words, in order.
type SearchDoc struct {
	Topic   []string
	Content []string
}

// NewSearchDoc returns the index entry of a message with this topic and rendered content.
func NewSearchDoc(topic, rendered string) SearchDoc {
	return SearchDoc{Topic: SearchStems(topic), Content: SearchStems(HTMLText(rendered))}
}

// SearchDocOf returns the index entry of m.
func SearchDocOf(m Message) SearchDoc { return NewSearchDoc(m.Topic, m.Rendered) }

// SearchStems returns the stems of the words of plain text, in order.
func SearchStems(text string) []string {
	var out []string
	eachWord(text, func(_, _ int, w string) {
		if s, ok := stemWord(w); ok {
			out = append(out, s)
		}
	})
	return out
}

// stemWord lower-cases and stems one word; false for a word too long to index.
func stemWord(w string) (string, bool) {
	if len(w) > MaxSearchWordBytes {
		return "", false
	}
	env := snowball.NewEnv(strings.ToLower(w))
	english.Stem(env)
	return env.Current(), true
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsNumber(r) }

// eachWord calls fn with the byte range of every word of text.
func eachWord(text string, fn func(start, end int, w string)) {
	start := -1
	for i, r := range text {
		if isWordRune(r) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			fn(start, i, text[start:i])
			start = -1
		}
	}
	if start >= 0 {
		fn(start, len(text), text[start:])
	}
}

// HTMLText returns the text of rendered HTML: tags become spaces, entities are decoded.
func HTMLText(rendered string) string {
	var b strings.Builder
	for len(rendered) > 0 {
		lt := strings.IndexByte(rendered, '<')
		if lt < 0 {
			b.WriteString(html.UnescapeString(rendered))
			break
		}
		b.WriteString(html.UnescapeString(rendered[:lt]))
		b.WriteByte(' ')
		gt := strings.IndexByte(rendered[lt:], '>')
		if gt < 0 {
			break
		}
		rendered = rendered[lt+gt+1:]
	}
	return b.String()
}

// Search is a parsed search operand.
type Search struct {
	// Words are the distinct stems of every word of the operand (quoted or not), sorted; a
	// message must hold all of them. An operand without words matches nothing.
	Words []string
	// Phrases are the stems of each quoted part of two or more words, in order.
	Phrases [][]string
}

var searchParts = regexp.MustCompile(`"[^"]+"|\S+`)

// ParseSearch parses a search operand the way Zulip splits it: quoted parts are phrases, the
// rest single words.
func ParseSearch(q string) Search {
	var s Search
	for _, part := range searchParts.FindAllString(q, -1) {
		quoted := len(part) >= 2 && part[0] == '"' && part[len(part)-1] == '"'
		stems := SearchStems(part)
		s.Words = append(s.Words, stems...)
		if quoted && len(stems) > 1 {
			s.Phrases = append(s.Phrases, stems)
		}
	}
	slices.Sort(s.Words)
	s.Words = slices.Compact(s.Words)
	if len(s.Words) > MaxSearchWords {
		s.Words = s.Words[:MaxSearchWords]
	}
	return s
}

// Empty reports whether the operand has no word (it then matches nothing).
func (s Search) Empty() bool { return len(s.Words) == 0 }

// Matches reports whether the indexed message d satisfies the search.
func (s Search) Matches(d SearchDoc) bool {
	if s.Empty() {
		return false
	}
	for _, w := range s.Words {
		if !slices.Contains(d.Topic, w) && !slices.Contains(d.Content, w) {
			return false
		}
	}
	for _, p := range s.Phrases {
		if !containsRun(d.Topic, p) && !containsRun(d.Content, p) {
			return false
		}
	}
	return true
}

func containsRun(l, run []string) bool {
	for i := 0; i+len(run) <= len(l); i++ {
		if slices.Equal(l[i:i+len(run)], run) {
			return true
		}
	}
	return false
}

const (
	highlightStart = `<span class="highlight">`
	highlightStop  = `</span>`
)

// Highlight wraps every word of the HTML's text whose stem is one of the search's words in
// Zulip's highlight markup (<span class="highlight">); tags and entities are left alone.
func (s Search) Highlight(htmlText string) string {
	if s.Empty() {
		return htmlText
	}
	var b strings.Builder
	rest := htmlText
	for len(rest) > 0 {
		lt := strings.IndexByte(rest, '<')
		text := rest
		if lt >= 0 {
			text = rest[:lt]
		}
		s.highlightText(&b, text)
		if lt < 0 {
			break
		}
		gt := strings.IndexByte(rest[lt:], '>')
		if gt < 0 {
			b.WriteString(rest[lt:])
			break
		}
		b.WriteString(rest[lt : lt+gt+1])
		rest = rest[lt+gt+1:]
	}
	return b.String()
}

// highlightText highlights the words of one run of HTML text (no tags; entities are
// separators).
func (s Search) highlightText(b *strings.Builder, text string) {
	for len(text) > 0 {
		amp := strings.IndexByte(text, '&')
		chunk := text
		if amp >= 0 {
			chunk = text[:amp]
		}
		last := 0
		eachWord(chunk, func(start, end int, w string) {
			if st, ok := stemWord(w); ok {
				if _, found := slices.BinarySearch(s.Words, st); found {
					b.WriteString(chunk[last:start])
					b.WriteString(highlightStart)
					b.WriteString(w)
					b.WriteString(highlightStop)
					last = end
				}
			}
		})
		b.WriteString(chunk[last:])
		if amp < 0 {
			return
		}
		semi := strings.IndexByte(text[amp:], ';')
		if semi < 0 || semi > 10 {
			b.WriteByte('&')
			text = text[amp+1:]
		} else {
			b.WriteString(text[amp : amp+semi+1])
			text = text[amp+semi+1:]
		}
	}
}

// HighlightTopic returns the topic HTML-escaped with its matching words highlighted
// (Zulip's match_subject).
func (s Search) HighlightTopic(topic string) string { return s.Highlight(html.EscapeString(topic)) }

// ValidSearchText reports whether a search operand is acceptable: not blank, valid UTF-8.
func ValidSearchText(q string) bool { return strings.TrimSpace(q) != "" && utf8.ValidString(q) }
