package memory

import (
	"slices"

	"github.com/teamchat/chat/messages"
)

// searchIndex is the in-process full-text index: each message's stems (messages.SearchDoc)
// and, per stem, the messages holding it. It is written with the message, through the
// transaction's journal, so a rollback restores it with the messages.
type searchIndex struct {
	docs     map[messages.ID]messages.SearchDoc
	postings map[string]map[messages.ID]struct{}
}

func newSearchIndex() searchIndex {
	return searchIndex{docs: map[messages.ID]messages.SearchDoc{}, postings: map[string]map[messages.ID]struct{}{}}
}

// index adds the entry of message id.
func (a messageTx) index(id messages.ID, d messages.SearchDoc) {
	x := &a.md().search
	setKey(a.j, x.docs, id, d)
	for _, stems := range [][]string{d.Topic, d.Content} {
		for _, s := range stems {
			p, ok := x.postings[s]
			if !ok {
				p = map[messages.ID]struct{}{}
				setKey(a.j, x.postings, s, p)
			}
			if _, ok := p[id]; !ok {
				setKey(a.j, p, id, struct{}{})
			}
		}
	}
}

// unindex removes the entry of message id, if any.
func (a messageTx) unindex(id messages.ID) {
	x := &a.md().search
	d, ok := x.docs[id]
	if !ok {
		return
	}
	for _, stems := range [][]string{d.Topic, d.Content} {
		for _, s := range stems {
			if p, ok := x.postings[s]; ok {
				deleteKey(a.j, p, id)
			}
		}
	}
	deleteKey(a.j, x.docs, id)
}

// candidates returns the messages holding every word of the searches, ascending; nil
// searches mean no restriction (all is true).
func (a messageTx) candidates(searches []messages.Search) (ids []messages.ID, all bool) {
	var words []string
	for _, s := range searches {
		words = append(words, s.Words...)
	}
	if len(words) == 0 {
		return nil, true
	}
	x := &a.md().search
	slices.SortFunc(words, func(p, q string) int { return len(x.postings[p]) - len(x.postings[q]) })
	for id := range x.postings[words[0]] {
		if slices.ContainsFunc(words[1:], func(w string) bool { _, ok := x.postings[w][id]; return !ok }) {
			continue
		}
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids, false
}

// searchesMatch reports whether message id satisfies every search term (negation included).
func (a messageTx) searchesMatch(id messages.ID, terms []messages.Term) bool {
	d := a.md().search.docs[id]
	for _, t := range terms {
		if t.Search.Matches(d) == t.Negated {
			return false
		}
	}
	return true
}
