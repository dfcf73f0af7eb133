package memory

import (
	"slices"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage"
)

// Query reads the smallest index list that holds every message q can match (source), takes
// the part of it in q's id range, and walks it from the end q asks for, testing each message,
// until it has q.Limit matches: a page of a narrow costs its page (and the messages of the
// list it skips), not the store's history.
func (a messageTx) Query(q storage.MessageQuery) ([]storage.MessageMatch, error) {
	if err := a.t.live(); err != nil {
		return nil, err
	}
	if q.Limit <= 0 {
		return []storage.MessageMatch{}, nil
	}
	var searches, rest []messages.Term
	var positive []messages.Search
	for _, t := range q.Terms {
		switch {
		case t.Operator != messages.OpSearch:
			rest = append(rest, t)
		default:
			searches = append(searches, t)
			if !t.Negated {
				positive = append(positive, t.Search)
			}
		}
	}
	ids := a.source(q, rest)
	if found, all := a.candidates(positive); !all && found != nil && len(found) < ids.size() {
		ids = idList(found)
	}
	history := newChannelSet(q.HistoryChannels)
	out := []storage.MessageMatch{}
	for id := range ids.within(q.MinID, q.MaxID).each(q.Newest) {
		m := a.md().messages[id]
		flags, received := a.rowOf(q.User, m)
		if !received && (m.IsDirect() || !history.has(m.ChannelID)) {
			continue
		}
		if !a.searchesMatch(id, searches) ||
			!messages.Match(rest, messages.Candidate{Message: m, Flags: flags, Received: received, Reacted: len(a.md().reactions[id]) > 0}) {
			continue
		}
		out = append(out, storage.MessageMatch{Message: m.Clone(), Flags: flags, Received: received})
		if len(out) == q.Limit {
			break
		}
	}
	if q.Newest {
		slices.Reverse(out)
	}
	return out, nil
}

// source returns the smallest set of the indexes that holds every message q can match, given
// its terms other than searches (each must match: one term's set bounds them all): an index
// list, or the messages the user has rows for (from above their read marks when the query
// asks for unread messages).
func (a messageTx) source(q storage.MessageQuery, terms []messages.Term) idSet {
	var best idSet = a.md().idx.all
	var mine idSet
	// ofMine returns the messages the user has rows for (from above their read marks when the
	// query asks for unread messages), read when a term needs them.
	ofMine := func() idSet {
		if mine == nil {
			unread := slices.ContainsFunc(terms, func(t messages.Term) bool {
				return t.Operator == messages.OpIs && t.Text == messages.IsUnread && !t.Negated
			})
			mine = a.receivedOf(q.User, unread)
		}
		return mine
	}
	if len(q.HistoryChannels) == 0 && ofMine().size() < best.size() {
		// Only the messages the user has a row for can match.
		best = mine
	}
	for _, t := range terms {
		if t.Negated {
			continue
		}
		l, isMine := a.termList(t, terms)
		switch {
		case isMine && ofMine().size() < best.size():
			best = mine
		case !isMine && l != nil && len(l) < best.size():
			best = l
		}
	}
	return best
}

// termList returns the list holding every message that term t matches, or reports a term that
// only the user's rows can match (isMine), or nil when no index serves it.
func (a messageTx) termList(t messages.Term, terms []messages.Term) (l idList, isMine bool) {
	x := &a.md().idx
	switch t.Operator {
	case messages.OpChannel:
		for _, o := range terms {
			if o.Operator == messages.OpTopic && !o.Negated {
				return listAt(x.byTopic, topicKey{t.Channel, foldTopic(o.Text)}), false
			}
		}
		return orEmpty(a.channelIDs(t.Channel)), false
	case messages.OpSender:
		return listAt(x.bySender, t.User), false
	case messages.OpDM:
		return listAt(x.byConversation, conversationKey(t.Users)), false
	case messages.OpDMIncluding, messages.OpGroupDMWith:
		return nil, true // direct messages match only with the user's row
	case messages.OpIs:
		switch t.Text {
		case messages.IsUnread, messages.IsStarred, messages.IsMentioned, messages.IsAlerted, messages.IsDM:
			return nil, true
		}
	case messages.OpID:
		if _, ok := a.md().messages[t.Message]; ok {
			return idList{t.Message}, false
		}
		return idList{}, false
	}
	return nil, false
}

// listAt returns m's list at k, empty (not nil) when there is none.
func listAt[K comparable](m map[K]*idList, k K) idList {
	if l := m[k]; l != nil {
		return orEmpty(*l)
	}
	return idList{}
}

// orEmpty returns l, or an empty list for nil (nil means "no index" to smaller).
func orEmpty(l idList) idList {
	if l == nil {
		return idList{}
	}
	return l
}

// channelSet answers membership in a query's history channels: a scan of a few, a map of
// many.
type channelSet struct {
	list []channels.ID
	set  map[channels.ID]struct{}
}

func newChannelSet(l []channels.ID) channelSet {
	if len(l) <= 16 {
		return channelSet{list: l}
	}
	s := make(map[channels.ID]struct{}, len(l))
	for _, c := range l {
		s[c] = struct{}{}
	}
	return channelSet{set: s}
}

func (s channelSet) has(c channels.ID) bool {
	if s.set != nil {
		_, ok := s.set[c]
		return ok
	}
	return slices.Contains(s.list, c)
}
