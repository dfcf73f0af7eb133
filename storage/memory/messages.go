package memory

import (
	"slices"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/users"
)

// messageData is the messages area of the store: messages by id and each message's rows by
// user.
type messageData struct {
	messages map[messages.ID]messages.Message
	msgSeq   messages.ID
	rows     map[messages.ID]map[users.ID]messages.Flags
	// reactions holds each message's reactions in the order they were added; a change
	// replaces the slice (copy on write), so that the journal can restore the old one.
	reactions map[messages.ID][]messages.Reaction
	search    searchIndex
	// byChannel indexes each channel's messages (channel_index.go); idx holds the other
	// indexes (message_index.go).
	byChannel map[channels.ID]*channelIndex
	idx       messageIndexes
	// recv holds what the implicit rows of the messages stored for their channel's
	// subscribers are derived from (receivers.go).
	recv receiverData
}

func newMessageData() messageData {
	return messageData{
		messages:  map[messages.ID]messages.Message{},
		rows:      map[messages.ID]map[users.ID]messages.Flags{},
		reactions: map[messages.ID][]messages.Reaction{},
		search:    newSearchIndex(),
		byChannel: map[channels.ID]*channelIndex{},
		idx:       newMessageIndexes(),
		recv:      newReceiverData(),
	}
}

// messageTx is the messages accessor; j is nil in a read-only transaction.
type messageTx struct {
	t *readTx
	j *journal
}

func (a messageTx) md() *messageData { return &a.t.d.msgs }

// ascending returns the ids of the messages that pass keep, ascending.
func (a messageTx) ascending(keep func(messages.Message) bool) []messages.ID {
	var ids []messages.ID
	for _, id := range a.md().idx.all {
		if keep(a.md().messages[id]) {
			ids = append(ids, id)
		}
	}
	return ids
}

func (a messageTx) Get(id messages.ID) (messages.Message, error) {
	if err := a.t.live(); err != nil {
		return messages.Message{}, err
	}
	m, ok := a.md().messages[id]
	if !ok {
		return messages.Message{}, notFound("message", id)
	}
	return m.Clone(), nil
}

func (a messageTx) GetMany(ids []messages.ID) ([]messages.Message, error) {
	if err := a.t.live(); err != nil {
		return nil, err
	}
	found := map[messages.ID]messages.Message{}
	for _, id := range ids {
		if m, ok := a.md().messages[id]; ok {
			found[id] = m
		}
	}
	return sortedValues(found, messages.Message.Clone), nil
}

func (a messageTx) Scan(after messages.ID, limit int) ([]messages.Message, error) {
	if err := a.t.live(); err != nil {
		return nil, err
	}
	ids := a.md().idx.all.span(after+1, 0)
	out := []messages.Message{}
	for _, id := range ids[:min(len(ids), max(limit, 0))] {
		out = append(out, a.md().messages[id].Clone())
	}
	return out, nil
}

func (a messageTx) Rows(ids []messages.ID) ([]messages.UserMessage, error) {
	if err := a.t.live(); err != nil {
		return nil, err
	}
	ids = sortedSet(ids)
	var out []messages.UserMessage
	for _, id := range ids {
		byUser := a.md().rows[id]
		us := make([]users.ID, 0, len(byUser))
		for u := range byUser {
			us = append(us, u)
		}
		m, implicit := a.md().messages[id], a.isImplicit(id)
		if implicit {
			for u, ivs := range a.md().recv.intervals[m.ChannelID] {
				if _, had := byUser[u]; !had && holding(ivs, id) {
					us = append(us, u)
				}
			}
		}
		slices.Sort(us)
		for _, u := range us {
			f, _ := a.rowOf(u, m)
			out = append(out, messages.UserMessage{UserID: u, MessageID: id, Flags: f})
		}
	}
	return out, nil
}

func (a messageTx) UserRows(u users.ID, ids []messages.ID) ([]messages.UserMessage, error) {
	if err := a.t.live(); err != nil {
		return nil, err
	}
	ids = sortedSet(ids)
	var out []messages.UserMessage
	for _, id := range ids {
		if f, ok := a.rowOfID(u, id); ok {
			out = append(out, messages.UserMessage{UserID: u, MessageID: id, Flags: f})
		}
	}
	return out, nil
}

func (a messageTx) UserRowsWhere(u users.ID, set, clear messages.Flags) ([]messages.UserMessage, error) {
	if err := a.t.live(); err != nil {
		return nil, err
	}
	var out []messages.UserMessage
	for id, f := range a.rows(a.receivedOf(u, clear&messages.FlagRead != 0), false) {
		if f&set == set && f&clear == 0 {
			out = append(out, messages.UserMessage{UserID: u, MessageID: id, Flags: f})
		}
	}
	return out, nil
}

func (a messageTx) MaxReceivedID(u users.ID) (messages.ID, error) {
	if err := a.t.live(); err != nil {
		return 0, err
	}
	for id, f := range a.rows(a.receivedOf(u, false), true) {
		if f&messages.FlagHistorical == 0 {
			return id, nil
		}
	}
	return 0, nil
}

func (a messageTx) DirectWith(u users.ID) ([]messages.Message, error) {
	if err := a.t.live(); err != nil {
		return nil, err
	}
	var out []messages.Message
	for _, id := range a.ascending(func(m messages.Message) bool {
		return m.IsDirect() && slices.Contains(m.Recipients, u)
	}) {
		out = append(out, a.md().messages[id].Clone())
	}
	return out, nil
}

func (a messageTx) SentBy(u users.ID) ([]messages.Message, error) {
	if err := a.t.live(); err != nil {
		return nil, err
	}
	out := []messages.Message{}
	if l := a.md().idx.bySender[u]; l != nil {
		for _, id := range *l {
			out = append(out, a.md().messages[id].Clone())
		}
	}
	return out, nil
}

func (a messageTx) Create(m messages.Message, rows []messages.UserMessage) (messages.ID, error) {
	if err := a.t.live(); err != nil {
		return 0, err
	}
	m = m.Clone()
	m.ID = nextID(a.j, &a.md().msgSeq)
	setKey(a.j, a.md().messages, m.ID, m)
	a.indexMessage(m)
	a.index(m.ID, messages.SearchDocOf(m))
	byUser := make(map[users.ID]messages.Flags, len(rows))
	for _, r := range rows {
		byUser[r.UserID] = r.Flags
	}
	setKey(a.j, a.md().rows, m.ID, byUser)
	a.indexNew(m, byUser)
	return m.ID, nil
}

func (a messageTx) Update(m messages.Message) error {
	if err := a.t.live(); err != nil {
		return err
	}
	old, ok := a.md().messages[m.ID]
	if !ok {
		return notFound("message", m.ID)
	}
	if old.ChannelID != m.ChannelID {
		a.materialize([]messages.ID{m.ID}) // implicit rows follow the channel they came from
	}
	a.replaceMessage(m.Clone())
	a.unindex(m.ID)
	a.index(m.ID, messages.SearchDocOf(m))
	return nil
}

func (a messageTx) Delete(ids []messages.ID) error {
	if err := a.t.live(); err != nil {
		return err
	}
	edits := newListEdits()
	x := &a.md().idx
	for _, id := range ids {
		m, ok := a.md().messages[id]
		if !ok {
			continue
		}
		a.unindexMessage(m)
		a.forget(m)
		for _, l := range x.messageLists(m) {
			edits.remove[l] = append(edits.remove[l], id)
		}
		for u := range a.md().rows[id] {
			edits.remove[x.byUser[u]] = append(edits.remove[x.byUser[u]], id)
		}
	}
	edits.apply(a.j)
	for _, id := range ids {
		deleteKey(a.j, a.md().messages, id)
		deleteKey(a.j, a.md().rows, id)
		a.unindex(id)
		if _, ok := a.md().reactions[id]; ok {
			deleteKey(a.j, a.md().reactions, id)
		}
	}
	return nil
}

func (a messageTx) SetFlags(u users.ID, ids []messages.ID, add, remove messages.Flags) ([]messages.ID, error) {
	if err := a.t.live(); err != nil {
		return nil, err
	}
	ids = sortedSet(ids)
	changed := []messages.ID{}
	var read touched
	edits := newListEdits()
	for _, id := range ids {
		m, ok := a.md().messages[id]
		if !ok {
			continue
		}
		f, ok := a.rowOf(u, m)
		if !ok {
			continue
		}
		nf := (f | add) &^ remove
		if nf != f {
			a.setRow(u, m, nf, &edits)
			changed = append(changed, id)
			if nf&^f&messages.FlagRead != 0 && a.isImplicit(id) {
				read.add(m.ChannelID)
			}
		}
	}
	edits.apply(a.j)
	for _, c := range read {
		a.advanceMark(u, c)
	}
	return changed, nil
}

func (a messageTx) PutRows(rows []messages.UserMessage) error {
	if err := a.t.live(); err != nil {
		return err
	}
	for _, r := range rows {
		m, ok := a.md().messages[r.MessageID]
		if !ok {
			return notFound("message", r.MessageID)
		}
		a.setRow(r.UserID, m, r.Flags, nil)
	}
	return nil
}

func (a messageTx) DeleteRows(us []users.ID, ids []messages.ID) error {
	if err := a.t.live(); err != nil {
		return err
	}
	a.materialize(ids)
	edits := newListEdits()
	for _, id := range ids {
		byUser := a.md().rows[id]
		for _, u := range us {
			if _, ok := byUser[u]; ok {
				deleteKey(a.j, byUser, u)
				l := a.md().idx.byUser[u]
				edits.remove[l] = append(edits.remove[l], id)
			}
		}
	}
	edits.apply(a.j)
	return nil
}

func (a messageTx) Move(ids []messages.ID, c channels.ID, topic string, entry messages.EditHistoryEntry, movedAt int64) error {
	if err := a.t.live(); err != nil {
		return err
	}
	a.materialize(ids)
	stems := messages.SearchStems(topic)
	edits := newListEdits()
	defer edits.apply(a.j)
	for _, id := range ids {
		old, ok := a.md().messages[id]
		if !ok {
			continue
		}
		m := old.Clone()
		m.ChannelID, m.Topic = c, topic
		m.EditHistory = append([]messages.EditHistoryEntry{entry}, m.EditHistory...)
		if movedAt != 0 {
			m.LastMovedTimestamp = movedAt
		}
		a.moveInChannelIndex(old, m)
		a.reindex(old, m, &edits)
		setKey(a.j, a.md().messages, id, m)
		d := a.md().search.docs[id]
		a.unindex(id)
		a.index(id, messages.SearchDoc{Topic: stems, Content: d.Content})
	}
	return nil
}
