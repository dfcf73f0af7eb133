package memory

import (
	"iter"

	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/users"
)

// idSet is a set of message ids that a walk reads in order: an index list, or the messages a
// user has rows for (received).
type idSet interface {
	// size is the number of ids, or more (received counts a message twice when it has an
	// explicit row and an implicit one).
	size() int
	// within is the part between lo and hi inclusive (hi 0: no upper bound).
	within(lo, hi messages.ID) idSet
	// each yields the ids ascending, or descending when desc is set.
	each(desc bool) iter.Seq[messages.ID]
}

func (l idList) size() int                       { return len(l) }
func (l idList) within(lo, hi messages.ID) idSet { return l.span(lo, hi) }

func (l idList) each(desc bool) iter.Seq[messages.ID] {
	return func(yield func(messages.ID) bool) {
		for i := range l {
			id := l[i]
			if desc {
				id = l[len(l)-1-i]
			}
			if !yield(id) {
				return
			}
		}
	}
}

// received is the set of the messages a user has rows for, without reading them: the user's
// list of explicit rows, and for each of their intervals the part of its channel's list of
// implicit-rows messages that the interval holds, merged as they are walked. A message in
// both (its implicit row replaced by an explicit one) comes out once.
type received struct {
	user  users.ID
	lists []idList      // the explicit list first (it may be empty), then the spans
	marks []messages.ID // the read mark of each span's channel (the explicit list's is 0)
}

// receivedOf returns the messages u has rows for. With unreadOnly, the spans start above
// the user's read marks: every message it leaves out has a read row (the walks for unread
// rows use it).
func (a messageTx) receivedOf(u users.ID, unreadOnly bool) received {
	r := &a.md().recv
	out := received{user: u, lists: []idList{a.userList(u)}, marks: []messages.ID{0}}
	for c := range r.channelsOf[u] {
		list := r.byChannel[c]
		if list == nil || len(*list) == 0 {
			continue
		}
		mark := r.marks[subKey{u, c}]
		floor := messages.ID(0)
		if unreadOnly {
			floor = mark
		}
		for _, v := range r.intervals[c][u] {
			lo := max(v.after, floor) + 1
			hi := v.through
			if hi == openEnd {
				hi = 0
			}
			if hi != 0 && hi < lo {
				continue
			}
			if s := list.span(lo, hi); len(s) > 0 {
				out.lists = append(out.lists, s)
				out.marks = append(out.marks, mark)
			}
		}
	}
	return out
}

func (r received) size() int {
	n := 0
	for _, l := range r.lists {
		n += len(l)
	}
	return n
}

func (r received) within(lo, hi messages.ID) idSet {
	out := received{user: r.user, lists: make([]idList, 0, len(r.lists)), marks: make([]messages.ID, 0, len(r.marks))}
	for i, l := range r.lists {
		if s := l.span(lo, hi); len(s) > 0 || i == 0 {
			out.lists = append(out.lists, s)
			out.marks = append(out.marks, r.marks[i])
		}
	}
	return out
}

func (r received) each(desc bool) iter.Seq[messages.ID] {
	if len(r.lists) == 1 {
		return r.lists[0].each(desc)
	}
	return func(yield func(messages.ID) bool) {
		for id := range r.merge(desc) {
			if !yield(id) {
				return
			}
		}
	}
}

// rows yields the user's rows of the set's messages, ascending by id or descending when desc
// is set: an implicit row's flags come from its span's mark, without a lookup.
func (a messageTx) rows(r received, desc bool) iter.Seq2[messages.ID, messages.Flags] {
	return func(yield func(messages.ID, messages.Flags) bool) {
		for id, from := range r.merge(desc) {
			var f messages.Flags
			switch {
			case from == 0:
				f = a.md().rows[id][r.user]
			case id <= r.marks[from]:
				f = messages.FlagRead
			}
			if !yield(id, f) {
				return
			}
		}
	}
}

// merge yields the ids of the lists, each with the first list holding it. The spans are
// disjoint (one channel's intervals do not overlap, and a message has one channel); only the
// explicit list can repeat an id of a span.
func (r received) merge(desc bool) iter.Seq2[messages.ID, int] {
	return func(yield func(messages.ID, int) bool) {
		pos := make([]int, len(r.lists)) // ids taken from each list's walking end
		// head returns list i's next id, and false when it has none left.
		head := func(i int) (messages.ID, bool) {
			l := r.lists[i]
			switch {
			case pos[i] == len(l):
				return 0, false
			case desc:
				return l[len(l)-1-pos[i]], true
			}
			return l[pos[i]], true
		}
		for {
			best, from := messages.ID(0), -1
			for i := range r.lists {
				if id, ok := head(i); ok && (from < 0 || (desc && id > best) || (!desc && id < best)) {
					best, from = id, i
				}
			}
			if from < 0 {
				return
			}
			for i := from; i < len(r.lists); i++ {
				if id, ok := head(i); ok && id == best {
					pos[i]++
				}
			}
			if !yield(best, from) {
				return
			}
		}
	}
}
