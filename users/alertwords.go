package users

import (
	"strings"
	"unicode/utf8"
)

// The characters that may stand just before and just after an alert word in a message for it
// to count (Zulip's AlertWordNotificationProcessor): an alert word is a whole word, or a
// phrase set off by spaces, quotes, brackets or Markdown emphasis.
const (
	alertWordBefore = " \n(\".,';[*`>"
	alertWordAfter  = " \n)?:.,';]!*`"
)

// AlertWordMatcher finds which users' alert words a message's content contains, compared
// case-insensitively, as Zulip does on send and on content edit.
type AlertWordMatcher struct {
	words map[string][]ID // lower-cased word → its users
}

// NewAlertWordMatcher indexes the alert words of users (by user id).
func NewAlertWordMatcher(byUser map[ID][]string) AlertWordMatcher {
	m := AlertWordMatcher{words: map[string][]ID{}}
	for u, list := range byUser {
		for _, w := range list {
			if w = strings.ToLower(w); w != "" {
				m.words[w] = append(m.words[w], u)
			}
		}
	}
	return m
}

// Alerted returns the users with an alert word in content.
func (m AlertWordMatcher) Alerted(content string) map[ID]bool {
	out := map[ID]bool{}
	if len(m.words) == 0 {
		return out
	}
	lower := strings.ToLower(content)
	for w, us := range m.words {
		if containsAlertWord(lower, w) {
			for _, u := range us {
				out[u] = true
			}
		}
	}
	return out
}

// containsAlertWord reports whether word occurs in content (both lower-cased) with an allowed
// character, or the content's edge, on each side. As in Zulip, whose check looks at the
// position before the match and accepts any position up to the first character, a match
// starting at the second character counts whatever the first one is.
func containsAlertWord(content, word string) bool {
	for from := 0; from <= len(content); {
		i := strings.Index(content[from:], word)
		if i < 0 {
			return false
		}
		start := from + i
		end := start + len(word)
		if alertWordStartOK(content, start) && (end >= len(content) || strings.IndexByte(alertWordAfter, content[end]) >= 0) {
			return true
		}
		_, size := utf8.DecodeRuneInString(content[start:])
		from = start + size
	}
	return false
}

// alertWordStartOK reports whether an alert word may start at byte start of content.
func alertWordStartOK(content string, start int) bool {
	if start == 0 || utf8.RuneCountInString(content[:start]) <= 1 {
		return true
	}
	return strings.IndexByte(alertWordBefore, content[start-1]) >= 0
}
