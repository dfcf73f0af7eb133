package memory

import (
	"slices"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

var _ storage.SubscriberMessageCreator = messageTx{}

// CreateForSubscribers stores the channel message m with implicit rows: it writes the given
// rows that differ from the implicit ones, and nothing per recipient.
func (a messageTx) CreateForSubscribers(m messages.Message, rows []messages.UserMessage) (messages.ID, storage.ChannelActivity, error) {
	if err := a.t.live(); err != nil {
		return 0, storage.ChannelActivity{}, err
	}
	before := a.activity([]channels.ID{m.ChannelID}, 0, 0, false)[0]
	md := a.md()
	m = m.Clone()
	m.ID = nextID(a.j, &md.msgSeq)
	setKey(a.j, md.messages, m.ID, m)
	a.indexMessage(m)
	a.index(m.ID, messages.SearchDocOf(m))
	r := &md.recv
	setKey(a.j, r.implicit, m.ID, struct{}{})
	addToList(a.j, listOf(r.byChannel, m.ChannelID), m.ID)
	byUser := make(map[users.ID]messages.Flags, len(rows))
	receivers := r.intervals[m.ChannelID]
	for _, row := range rows {
		// A receiver's implicit row of the new message has no flags (the id is above the mark).
		if row.Flags != 0 || !holding(receivers[row.UserID], m.ID) {
			byUser[row.UserID] = row.Flags
		} else {
			delete(byUser, row.UserID)
		}
	}
	setKey(a.j, md.rows, m.ID, byUser)
	a.indexNew(m, byUser)
	return m.ID, before, nil
}

// materialize gives the implicit-rows messages among ids an explicit row for each implicit
// row and makes them explicit-only messages, recording how to undo it: a write that changes
// a message's channel or deletes rows of everyone then works on stored rows.
func (a messageTx) materialize(ids []messages.ID) {
	md := a.md()
	r := &md.recv
	edits := newListEdits()
	for _, id := range ids {
		if _, ok := r.implicit[id]; !ok {
			continue
		}
		m := md.messages[id]
		byUser := md.rows[id]
		if byUser == nil {
			byUser = map[users.ID]messages.Flags{}
			setKey(a.j, md.rows, id, byUser)
		}
		for u := range r.intervals[m.ChannelID] {
			if _, had := byUser[u]; had {
				continue
			}
			if f, ok := a.implicitRow(u, m); ok {
				setKey(a.j, byUser, u, f)
				l := listOf(md.idx.byUser, u)
				edits.add[l] = append(edits.add[l], id)
			}
		}
		deleteKey(a.j, r.implicit, id)
		if l := r.byChannel[m.ChannelID]; l != nil {
			removeFromList(a.j, l, id)
		}
	}
	edits.apply(a.j)
}

// forget drops the deleted message m from the set of implicit-rows messages.
func (a messageTx) forget(m messages.Message) {
	r := &a.md().recv
	if _, ok := r.implicit[m.ID]; !ok {
		return
	}
	deleteKey(a.j, r.implicit, m.ID)
	if l := r.byChannel[m.ChannelID]; l != nil {
		removeFromList(a.j, l, m.ID)
	}
}

// setMark moves u's read mark of c to id, recording how to undo it.
func (a messageTx) setMark(u users.ID, c channels.ID, id messages.ID) {
	setKey(a.j, a.md().recv.marks, subKey{u, c}, id)
}

// advanceMark moves u's read mark of c over the run of read messages above it: just below the
// lowest message of c above the mark that u has an unread row for (to the channel's newest
// message when there is none), and drops u's explicit rows at or below the new mark that
// equal their implicit rows.
func (a messageTx) advanceMark(u users.ID, c channels.ID) {
	md := a.md()
	old := md.recv.marks[subKey{u, c}]
	mark := old
	for _, id := range idList(a.channelIDs(c)).span(old+1, 0) {
		if f, ok := a.rowOf(u, md.messages[id]); ok && f&messages.FlagRead == 0 {
			break
		}
		mark = id
	}
	if mark == old {
		return
	}
	a.setMark(u, c, mark)
	a.dropReadRows(u, c, old, mark)
}

// dropReadRows drops u's explicit rows of c's implicit-rows messages above from and at most
// through that equal their implicit rows (read: through is at most u's mark).
func (a messageTx) dropReadRows(u users.ID, c channels.ID, from, through messages.ID) {
	md := a.md()
	list := md.recv.byChannel[c]
	if list == nil {
		return
	}
	edits := newListEdits()
	ivs := md.recv.intervals[c][u]
	for _, id := range list.span(from+1, through) {
		byUser := md.rows[id]
		if f, ok := byUser[u]; ok && f == messages.FlagRead && holding(ivs, id) {
			deleteKey(a.j, byUser, u)
			a.unlistRow(u, id, &edits)
		}
	}
	edits.apply(a.j)
}

// markChannelRead marks every row of u in channel c read, the unread ones being ids: the
// mark moves to the channel's newest message and the explicit rows are read or dropped.
func (a messageTx) markChannelRead(u users.ID, c channels.ID, ids []messages.ID) {
	md := a.md()
	all := a.channelIDs(c)
	old := md.recv.marks[subKey{u, c}]
	if n := len(all); n > 0 && all[n-1] > old {
		a.setMark(u, c, all[n-1])
		defer a.dropReadRows(u, c, old, all[n-1])
	}
	edits := newListEdits()
	for _, id := range ids {
		if f, ok := md.rows[id][u]; ok {
			a.setRow(u, md.messages[id], f|messages.FlagRead, &edits)
		}
	}
	edits.apply(a.j)
}

// touched collects the channels whose marks may move after read flags were added.
type touched []channels.ID

func (t *touched) add(c channels.ID) {
	if !slices.Contains(*t, c) {
		*t = append(*t, c)
	}
}
