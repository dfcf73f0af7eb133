package memory

import (
	"cmp"
	"slices"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/messages"
)

// channelIndex lists one channel's messages twice: by id and by time, both ascending, so that
// a channel's activity (its oldest message, its newest time, how many messages a time window
// holds) and its messages take binary searches, never a scan of the store's messages. Sends
// append at the end of both lists; edits, moves and deletions insert and remove in place.
type channelIndex struct {
	ids   []messages.ID // ascending
	times []timedID     // ascending by time, then id
}

// timedID is a message's time and id.
type timedID struct {
	ts int64
	id messages.ID
}

func compareTimed(a, b timedID) int {
	if c := cmp.Compare(a.ts, b.ts); c != 0 {
		return c
	}
	return cmp.Compare(a.id, b.id)
}

func (x *channelIndex) clone() *channelIndex {
	return &channelIndex{ids: slices.Clone(x.ids), times: slices.Clone(x.times)}
}

func (x *channelIndex) add(id messages.ID, ts int64) {
	if n := len(x.ids); n == 0 || x.ids[n-1] < id {
		x.ids = append(x.ids, id)
	} else if i, found := slices.BinarySearch(x.ids, id); !found {
		x.ids = slices.Insert(x.ids, i, id)
	}
	t := timedID{ts, id}
	if n := len(x.times); n == 0 || compareTimed(x.times[n-1], t) < 0 {
		x.times = append(x.times, t)
	} else if i, found := slices.BinarySearchFunc(x.times, t, compareTimed); !found {
		x.times = slices.Insert(x.times, i, t)
	}
}

func (x *channelIndex) remove(id messages.ID, ts int64) {
	if i, found := slices.BinarySearch(x.ids, id); found {
		x.ids = slices.Delete(x.ids, i, i+1)
	}
	if i, found := slices.BinarySearchFunc(x.times, timedID{ts, id}, compareTimed); found {
		x.times = slices.Delete(x.times, i, i+1)
	}
}

// countBetween counts the messages sent at or after since and before until (0: no bound).
func (x *channelIndex) countBetween(since, until int64) int {
	lo, _ := slices.BinarySearchFunc(x.times, timedID{since, 0}, compareTimed)
	hi := len(x.times)
	if until != 0 {
		hi, _ = slices.BinarySearchFunc(x.times, timedID{until, 0}, compareTimed)
	}
	return max(hi-lo, 0)
}

// indexed reports whether m belongs in its channel's index (channel messages only).
func indexed(m messages.Message) bool { return !m.IsDirect() }

// indexMessage adds m to its channel's index, recording how to undo it.
func (a messageTx) indexMessage(m messages.Message) {
	if !indexed(m) {
		return
	}
	by := a.md().byChannel
	x := by[m.ChannelID]
	if x == nil {
		x = &channelIndex{}
		by[m.ChannelID] = x
	}
	x.add(m.ID, m.Timestamp)
	c, id, ts := m.ChannelID, m.ID, m.Timestamp
	a.j.undo = append(a.j.undo, func() { by[c].remove(id, ts) })
}

// unindexMessage removes m from its channel's index, recording how to undo it.
func (a messageTx) unindexMessage(m messages.Message) {
	if !indexed(m) {
		return
	}
	x := a.md().byChannel[m.ChannelID]
	if x == nil {
		return
	}
	x.remove(m.ID, m.Timestamp)
	id, ts := m.ID, m.Timestamp
	a.j.undo = append(a.j.undo, func() { x.add(id, ts) })
}

// moveInChannelIndex moves a message from where old sits in the channel indexes to where m
// goes (nothing when neither its channel nor its time changed), recording how to undo it.
func (a messageTx) moveInChannelIndex(old, m messages.Message) {
	if old.ChannelID == m.ChannelID && old.Timestamp == m.Timestamp {
		return
	}
	a.unindexMessage(old)
	a.indexMessage(m)
}

// replaceMessage stores m in place of the message with its id (if any), keeping the indexes
// (message_index.go: those of its rows are the caller's).
func (a messageTx) replaceMessage(m messages.Message) {
	if old, ok := a.md().messages[m.ID]; ok {
		a.moveInChannelIndex(old, m)
		a.reindex(old, m, nil)
	} else {
		a.indexMessage(m)
		for _, l := range a.md().idx.messageLists(m) {
			addToList(a.j, l, m.ID)
		}
	}
	setKey(a.j, a.md().messages, m.ID, m)
}

// channelIDs returns the ids of channel c's messages, ascending (the index's own slice: do
// not modify it).
func (a messageTx) channelIDs(c channels.ID) []messages.ID {
	if x := a.md().byChannel[c]; x != nil {
		return x.ids
	}
	return nil
}
