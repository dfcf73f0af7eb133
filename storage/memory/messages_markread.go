package memory

import (
	"slices"

	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/topics"
	"github.com/teamchat/chat/users"
)

// MarkRead walks the smaller of the user's unread candidates (the messages they have rows
// for, from above their read marks) and the channel's or topic's list, oldest first. A whole
// channel's read moves the user's mark of it to its newest message; otherwise the rows read
// are written, and the marks move over the runs of read messages after.
func (a messageTx) MarkRead(q storage.MarkReadQuery) ([]messages.ID, error) {
	if err := a.t.live(); err != nil {
		return nil, err
	}
	changed := []messages.ID{}
	ids := a.markReadSource(q)
	for id := range ids.each(false) {
		m := a.md().messages[id]
		if q.ChannelID != 0 && (m.ChannelID != q.ChannelID || q.Topic != nil && !topics.Same(m.Topic, *q.Topic)) {
			continue
		}
		f, ok := a.rowOf(q.User, m)
		if !ok || f&messages.FlagRead != 0 {
			continue
		}
		changed = append(changed, id)
		if q.Limit > 0 && len(changed) == q.Limit {
			break
		}
	}
	slices.Sort(changed)
	if q.ChannelID != 0 && q.Topic == nil && q.After == 0 && q.Limit == 0 {
		a.markChannelRead(q.User, q.ChannelID, changed)
	} else {
		a.markRowsRead(q.User, changed)
	}
	return changed, nil
}

// markReadSource returns the smaller of the user's unread candidates and the list of q's
// channel or topic, above q.After.
func (a messageTx) markReadSource(q storage.MarkReadQuery) idSet {
	var ids idSet = a.receivedOf(q.User, true)
	if q.ChannelID != 0 {
		var narrow idList
		if q.Topic != nil {
			if l := a.md().idx.byTopic[topicKey{q.ChannelID, foldTopic(*q.Topic)}]; l != nil {
				narrow = *l
			}
		} else {
			narrow = a.channelIDs(q.ChannelID)
		}
		if len(narrow) < ids.size() {
			ids = narrow
		}
	}
	if q.After != 0 {
		ids = ids.within(q.After+1, 0)
	}
	return ids
}

// markRowsRead sets the read flag on u's (unread) rows of the messages ids, then moves u's
// marks over the runs of read messages.
func (a messageTx) markRowsRead(u users.ID, ids []messages.ID) {
	var read touched
	edits := newListEdits()
	for _, id := range ids {
		m := a.md().messages[id]
		f, _ := a.rowOf(u, m)
		a.setRow(u, m, f|messages.FlagRead, &edits)
		if a.isImplicit(id) {
			read.add(m.ChannelID)
		}
	}
	edits.apply(a.j)
	for _, c := range read {
		a.advanceMark(u, c)
	}
}
