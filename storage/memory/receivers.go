package memory

import (
	"math"
	"slices"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/users"
)

// Implicit rows (storage/receivers.go): a channel message stored with CreateForSubscribers
// has no row per recipient. Its rows are those of the users whose receiving intervals of its
// channel hold its id, read up to their read mark of the channel, except where an explicit
// row (in messageData.rows, as every row of the other messages) replaces them.
//
// The intervals open and close where the subscriber counts move (subscriptionTx.addCount);
// the marks move forward over runs of read messages (receivers_write.go), and explicit rows
// equal to the implicit ones are dropped, so that what is stored does not grow with a
// channel's size.

// openEnd is the upper end of an interval still open.
const openEnd = messages.ID(math.MaxInt64)

// interval is a run of the message ids a user received a channel in: the ids above after, up
// to through (openEnd while the user still receives the channel).
type interval struct {
	after, through messages.ID
}

// holding reports whether an interval of l holds id.
func holding(l []interval, id messages.ID) bool {
	for _, v := range l {
		if v.after < id && id <= v.through {
			return true
		}
	}
	return false
}

// receiverData holds what implicit rows are derived from. Interval lists are copied on
// write, so that the journal can restore the old list.
type receiverData struct {
	// intervals holds each channel's receivers' intervals, by user, ascending.
	intervals map[channels.ID]map[users.ID][]interval
	// channelsOf holds the channels each user has intervals of.
	channelsOf map[users.ID]map[channels.ID]struct{}
	// marks holds the read marks by (user, channel); no entry is 0.
	marks map[subKey]messages.ID
	// implicit is the set of the messages with implicit rows, and byChannel lists them by
	// channel (a message keeps its channel: a move makes its rows explicit first).
	implicit  map[messages.ID]struct{}
	byChannel map[channels.ID]*idList
}

func newReceiverData() receiverData {
	return receiverData{
		intervals:  map[channels.ID]map[users.ID][]interval{},
		channelsOf: map[users.ID]map[channels.ID]struct{}{},
		marks:      map[subKey]messages.ID{},
		implicit:   map[messages.ID]struct{}{},
		byChannel:  map[channels.ID]*idList{},
	}
}

func (r receiverData) clone() receiverData {
	return receiverData{
		intervals: cloneMap(r.intervals, func(m map[users.ID][]interval) map[users.ID][]interval {
			return cloneMap(m, slices.Clone[[]interval])
		}),
		channelsOf: cloneMap(r.channelsOf, cloneSet[channels.ID]),
		marks:      cloneMap(r.marks, same),
		implicit:   cloneSet(r.implicit),
		byChannel:  cloneLists(r.byChannel),
	}
}

// receive opens (up) or closes the interval of user u in channel c at the highest message id
// assigned so far, recording how to undo it: u starts or stops receiving c.
func (d *data) receive(j *journal, u users.ID, c channels.ID, up bool) {
	r := &d.msgs.recv
	seq := d.msgs.msgSeq
	byUser, ok := r.intervals[c]
	if !ok {
		byUser = map[users.ID][]interval{}
		setKey(j, r.intervals, c, byUser)
	}
	old := byUser[u]
	switch n := len(old); {
	case up && n > 0 && old[n-1].through == seq:
		l := slices.Clone(old) // no message since it closed: it opens again
		l[n-1].through = openEnd
		setKey(j, byUser, u, l)
	case up && (n == 0 || old[n-1].through != openEnd):
		setKey(j, byUser, u, append(slices.Clip(old), interval{after: seq, through: openEnd}))
	case !up && n > 0 && old[n-1].through == openEnd:
		l := slices.Clone(old)
		if l[n-1].after >= seq {
			l = l[:n-1] // empty: dropped
		} else {
			l[n-1].through = seq
		}
		setKey(j, byUser, u, l)
	default:
		return
	}
	if _, ok := r.channelsOf[u][c]; !ok {
		cs, ok := r.channelsOf[u]
		if !ok {
			cs = map[channels.ID]struct{}{}
			setKey(j, r.channelsOf, u, cs)
		}
		setKey(j, cs, c, struct{}{})
	}
}

// isImplicit reports whether message id has implicit rows.
func (a messageTx) isImplicit(id messages.ID) bool {
	_, ok := a.md().recv.implicit[id]
	return ok
}

// implicitRow returns u's implicit row of m (its flags), and whether u has one.
func (a messageTx) implicitRow(u users.ID, m messages.Message) (messages.Flags, bool) {
	r := &a.md().recv
	if _, ok := r.implicit[m.ID]; !ok || !holding(r.intervals[m.ChannelID][u], m.ID) {
		return 0, false
	}
	if m.ID <= r.marks[subKey{u, m.ChannelID}] {
		return messages.FlagRead, true
	}
	return 0, true
}

// rowOf returns u's row of m: the explicit one, else the implicit one; ok is false when u
// has none.
func (a messageTx) rowOf(u users.ID, m messages.Message) (f messages.Flags, ok bool) {
	if f, ok := a.md().rows[m.ID][u]; ok {
		return f, true
	}
	return a.implicitRow(u, m)
}

// rowOfID is rowOf for a message given by id (no row when there is no such message).
func (a messageTx) rowOfID(u users.ID, id messages.ID) (messages.Flags, bool) {
	if f, ok := a.md().rows[id][u]; ok {
		return f, true
	}
	m, ok := a.md().messages[id]
	if !ok {
		return 0, false
	}
	return a.implicitRow(u, m)
}

// setRow gives u the row f on m: an explicit row, or none when u's implicit row is f (an
// explicit row that would equal it is dropped), recording how to undo it. Removals from u's
// list of rows go to edits when given (a write of many rows applies them in one pass).
func (a messageTx) setRow(u users.ID, m messages.Message, f messages.Flags, edits *listEdits) {
	md := a.md()
	byUser := md.rows[m.ID]
	old, had := byUser[u]
	if imp, ok := a.implicitRow(u, m); ok && imp == f {
		if had {
			deleteKey(a.j, byUser, u)
			a.unlistRow(u, m.ID, edits)
		}
		return
	}
	if had && old == f {
		return
	}
	if byUser == nil {
		byUser = map[users.ID]messages.Flags{}
		setKey(a.j, md.rows, m.ID, byUser)
	}
	if !had {
		addToList(a.j, listOf(md.idx.byUser, u), m.ID)
	}
	setKey(a.j, byUser, u, f)
}

// unlistRow removes id from u's list of explicit rows, through edits when given.
func (a messageTx) unlistRow(u users.ID, id messages.ID, edits *listEdits) {
	l := a.md().idx.byUser[u]
	if l == nil {
		return
	}
	if edits != nil {
		edits.remove[l] = append(edits.remove[l], id)
		return
	}
	removeFromList(a.j, l, id)
}
