package memory

import (
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/users"
)

// The indexes of the messages area, beside channelIndex (channel_index.go): sorted lists of
// message ids by what narrows select on, so that a query reads the smallest list that holds
// every message it can match (messages_query.go) and walks it from one end of its id range,
// never the store's whole history:
//
//	all             every message
//	byTopic         a channel's messages in one topic, keyed by the topic's case fold
//	bySender        the messages a user sent
//	byConversation  the direct messages of one set of participants (Recipients)
//	byUser          the messages a user has a row for (received, or added to their history)
//
// Lists are written with the messages and rows, through the journal (each write records its
// inverse), so a rollback restores them. A list that becomes empty stays in its map until the
// store is cloned.
type messageIndexes struct {
	all            idList
	byTopic        map[topicKey]*idList
	bySender       map[users.ID]*idList
	byConversation map[string]*idList
	byUser         map[users.ID]*idList
}

func newMessageIndexes() messageIndexes {
	return messageIndexes{
		byTopic:        map[topicKey]*idList{},
		bySender:       map[users.ID]*idList{},
		byConversation: map[string]*idList{},
		byUser:         map[users.ID]*idList{},
	}
}

func (x *messageIndexes) clone() messageIndexes {
	return messageIndexes{
		all:            slices.Clone(x.all),
		byTopic:        cloneLists(x.byTopic),
		bySender:       cloneLists(x.bySender),
		byConversation: cloneLists(x.byConversation),
		byUser:         cloneLists(x.byUser),
	}
}

// cloneLists copies the non-empty lists of m.
func cloneLists[K comparable](m map[K]*idList) map[K]*idList {
	out := make(map[K]*idList, len(m))
	for k, l := range m {
		if len(*l) > 0 {
			c := slices.Clone(*l)
			out[k] = &c
		}
	}
	return out
}

// idList is a list of message ids, ascending, without repeats.
type idList []messages.ID

// add inserts id, reporting whether it was missing. Ids beyond the last are appended.
func (l *idList) add(id messages.ID) bool {
	if n := len(*l); n == 0 || (*l)[n-1] < id {
		*l = append(*l, id)
		return true
	}
	i, found := slices.BinarySearch(*l, id)
	if found {
		return false
	}
	*l = slices.Insert(*l, i, id)
	return true
}

// remove deletes id, reporting whether it was there.
func (l *idList) remove(id messages.ID) bool {
	i, found := slices.BinarySearch(*l, id)
	if found {
		*l = slices.Delete(*l, i, i+1)
	}
	return found
}

// merge adds the ids of add (ascending, without repeats, none of them in l) in one pass.
func (l *idList) merge(add []messages.ID) {
	if len(add) == 0 {
		return
	}
	if n := len(*l); n == 0 || (*l)[n-1] < add[0] {
		*l = append(*l, add...)
		return
	}
	out := make(idList, 0, len(*l)+len(add))
	i, j := 0, 0
	for i < len(*l) && j < len(add) {
		if (*l)[i] < add[j] {
			out = append(out, (*l)[i])
			i++
		} else {
			out = append(out, add[j])
			j++
		}
	}
	out = append(append(out, (*l)[i:]...), add[j:]...)
	*l = out
}

// subtract removes the ids of rm (ascending) that l holds, in one pass, and returns them.
func (l *idList) subtract(rm []messages.ID) []messages.ID {
	var gone []messages.ID
	k, j := 0, 0
	for _, id := range *l {
		for j < len(rm) && rm[j] < id {
			j++
		}
		if j < len(rm) && rm[j] == id {
			gone = append(gone, id)
			continue
		}
		(*l)[k] = id
		k++
	}
	clear((*l)[k:])
	*l = (*l)[:k]
	return gone
}

// span returns the part of l between lo and hi inclusive (hi 0: no upper bound).
func (l idList) span(lo, hi messages.ID) idList {
	i, _ := slices.BinarySearch(l, lo)
	j := len(l)
	if hi != 0 {
		j, _ = slices.BinarySearch(l, hi+1)
	}
	if j < i {
		return nil
	}
	return l[i:j]
}

// topicKey identifies one topic of a channel in byTopic.
type topicKey struct {
	channel channels.ID
	fold    string // foldTopic
}

// foldTopic maps a topic name to a key that two names share exactly when strings.EqualFold
// reports them equal (the narrows' comparison): each rune becomes the smallest rune of its
// simple case-folding orbit.
func foldTopic(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii { // the smallest of an ASCII letter's orbit is its upper case
		return strings.ToUpper(s)
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		least := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			least = min(least, f)
		}
		b.WriteRune(least)
	}
	return b.String()
}

// conversationKey identifies a direct message's participants in byConversation.
func conversationKey(recipients []users.ID) string {
	b := make([]byte, 0, 8*len(recipients))
	for _, u := range recipients {
		b = strconv.AppendInt(b, int64(u), 10)
		b = append(b, ',')
	}
	return string(b)
}

// messageLists returns the lists of the message-level indexes holding m (the byUser lists
// aside), making the missing ones.
func (x *messageIndexes) messageLists(m messages.Message) [3]*idList {
	var out [3]*idList
	out[0] = listOf(x.bySender, m.SenderID)
	if m.IsDirect() {
		out[1] = listOf(x.byConversation, conversationKey(m.Recipients))
	} else {
		out[1] = listOf(x.byTopic, topicKey{m.ChannelID, foldTopic(m.Topic)})
	}
	out[2] = &x.all
	return out
}

// listOf returns m's list at k, made empty when missing.
func listOf[K comparable](m map[K]*idList, k K) *idList {
	l := m[k]
	if l == nil {
		l = &idList{}
		m[k] = l
	}
	return l
}

// addToList adds id to l, recording how to undo it.
func addToList(j *journal, l *idList, id messages.ID) {
	if l.add(id) {
		j.undo = append(j.undo, func() { l.remove(id) })
	}
}

// removeFromList removes id from l, recording how to undo it.
func removeFromList(j *journal, l *idList, id messages.ID) {
	if l.remove(id) {
		j.undo = append(j.undo, func() { l.add(id) })
	}
}

// listEdits collects the additions to and removals from lists of one write (a deletion or a
// move of many messages) and applies each list's in one pass.
type listEdits struct {
	add, remove map[*idList][]messages.ID
}

func newListEdits() listEdits {
	return listEdits{add: map[*idList][]messages.ID{}, remove: map[*idList][]messages.ID{}}
}

// apply makes the edits (removals first), recording how to undo them.
func (e listEdits) apply(j *journal) {
	for l, ids := range e.remove {
		slices.Sort(ids)
		if gone := l.subtract(slices.Compact(ids)); len(gone) > 0 {
			j.undo = append(j.undo, func() { l.merge(gone) })
		}
	}
	for l, ids := range e.add {
		slices.Sort(ids)
		ids = slices.Compact(ids)
		added := slices.DeleteFunc(ids, func(id messages.ID) bool { _, found := slices.BinarySearch(*l, id); return found })
		l.merge(added)
		if len(added) > 0 {
			j.undo = append(j.undo, func() { l.subtract(added) })
		}
	}
}

// indexNew adds the new message m (its id above every other) and its rows' users to the
// indexes, recording how to undo it in one entry.
func (a messageTx) indexNew(m messages.Message, byUser map[users.ID]messages.Flags) {
	x := &a.md().idx
	lists := x.messageLists(m)
	for _, l := range lists {
		l.add(m.ID)
	}
	for u := range byUser {
		listOf(x.byUser, u).add(m.ID)
	}
	id := m.ID
	a.j.undo = append(a.j.undo, func() {
		for _, l := range lists {
			l.remove(id)
		}
		for u := range byUser {
			x.byUser[u].remove(id)
		}
	})
}

// reindex moves a message from the lists of old to those of m where they differ, into edits
// when given (else at once), recording how to undo it.
func (a messageTx) reindex(old, m messages.Message, edits *listEdits) {
	x := &a.md().idx
	before, after := x.messageLists(old), x.messageLists(m)
	for i := range before {
		if before[i] == after[i] {
			continue
		}
		if edits != nil {
			edits.remove[before[i]] = append(edits.remove[before[i]], old.ID)
			edits.add[after[i]] = append(edits.add[after[i]], m.ID)
			continue
		}
		removeFromList(a.j, before[i], old.ID)
		addToList(a.j, after[i], m.ID)
	}
}

// userList returns the ids of the messages user u has a row for, ascending (the index's own
// slice: do not modify it).
func (a messageTx) userList(u users.ID) idList {
	if l := a.md().idx.byUser[u]; l != nil {
		return *l
	}
	return nil
}
