package linkifiers

import (
	"strings"
	"unicode/utf8"
)

// Match is a linkifier hit in a run of text: the byte range [Start, End) and its URL.
type Match struct {
	Start, End int
	URL        string
}

// MaxMatchesPerText bounds the links found in one run of text.
const MaxMatchesPerText = 1000

// FindLinks applies the linkifiers, in order, to a run of plain text. A match must stand on
// its own (start of text or after whitespace or one of '"(,:< before it; end of text or
// whitespace or one of :,;'").?>! after it), as in Zulip; earlier linkifiers win overlaps.
// Matches are returned ordered by position.
func FindLinks(ls []*Compiled, text string) []Match {
	var out []Match
	taken := func(s, e int) bool {
		for _, m := range out {
			if s < m.End && m.Start < e {
				return true
			}
		}
		return false
	}
	for _, c := range ls {
		for _, loc := range c.re.FindAllStringSubmatchIndex(text, MaxMatchesPerText) {
			s, e := loc[0], loc[1]
			if s == e || !boundaryBefore(text, s) || !boundaryAfter(text, e) || taken(s, e) {
				continue
			}
			values := map[string]string{}
			for i, name := range c.re.SubexpNames() {
				if name != "" && loc[2*i] >= 0 {
					values[name] = text[loc[2*i]:loc[2*i+1]]
				}
			}
			url, err := c.URL(values)
			if err != nil || url == "" {
				continue
			}
			out = append(out, Match{Start: s, End: e, URL: url})
			if len(out) >= MaxMatchesPerText {
				break
			}
		}
	}
	sortMatches(out)
	return out
}

func boundaryBefore(text string, i int) bool {
	if i == 0 {
		return true
	}
	r, _ := utf8.DecodeLastRuneInString(text[:i])
	return isSpace(r) || strings.ContainsRune(`'"(,:<`, r)
}

func boundaryAfter(text string, i int) bool {
	if i == len(text) {
		return true
	}
	r, _ := utf8.DecodeRuneInString(text[i:])
	return isSpace(r) || strings.ContainsRune(`:,;'").?>!`, r)
}

func isSpace(r rune) bool {
	return r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\f' || r == '\v' || r == 0xA0
}

func sortMatches(m []Match) {
	for i := 1; i < len(m); i++ {
		for j := i; j > 0 && m[j].Start < m[j-1].Start; j-- {
			m[j], m[j-1] = m[j-1], m[j]
		}
	}
}
