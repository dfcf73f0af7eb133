package memory

import (
	"slices"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/topics"
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
	// byChannel indexes each channel's messages (channel_index.go).
	byChannel map[channels.ID]*channelIndex
}

func newMessageData() messageData {
	return messageData{
		messages:  map[messages.ID]messages.Message{},
		rows:      map[messages.ID]map[users.ID]messages.Flags{},
		reactions: map[messages.ID][]messages.Reaction{},
		search:    newSearchIndex(),
		byChannel: map[channels.ID]*channelIndex{},
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
	for id, m := range a.md().messages {
		if keep == nil || keep(m) {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
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
	var ids []messages.ID
	for id := range a.md().messages {
		if id > after {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	out := []messages.Message{}
	for _, id := range ids[:min(len(ids), max(limit, 0))] {
		out = append(out, a.md().messages[id].Clone())
	}
	return out, nil
}

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
	inRange := func(id messages.ID) bool { return id >= q.MinID && (q.MaxID == 0 || id <= q.MaxID) }
	ids, all := a.candidates(positive)
	if all {
		ids = a.ascending(func(m messages.Message) bool { return inRange(m.ID) })
	} else {
		ids = slices.DeleteFunc(ids, func(id messages.ID) bool { return !inRange(id) })
	}
	if q.Newest {
		slices.Reverse(ids)
	}
	out := []storage.MessageMatch{}
	for _, id := range ids {
		m := a.md().messages[id]
		flags, received := a.md().rows[id][q.User]
		if !received && (m.IsDirect() || !slices.Contains(q.HistoryChannels, m.ChannelID)) {
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
		slices.Sort(us)
		for _, u := range us {
			out = append(out, messages.UserMessage{UserID: u, MessageID: id, Flags: byUser[u]})
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
		if f, ok := a.md().rows[id][u]; ok {
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
	for _, id := range a.ascending(nil) {
		f, ok := a.md().rows[id][u]
		if ok && f&set == set && f&clear == 0 {
			out = append(out, messages.UserMessage{UserID: u, MessageID: id, Flags: f})
		}
	}
	return out, nil
}

func (a messageTx) MaxReceivedID(u users.ID) (messages.ID, error) {
	if err := a.t.live(); err != nil {
		return 0, err
	}
	var max messages.ID
	for id, byUser := range a.md().rows {
		if f, ok := byUser[u]; ok && f&messages.FlagHistorical == 0 && id > max {
			max = id
		}
	}
	return max, nil
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
	for _, id := range a.ascending(func(m messages.Message) bool { return m.SenderID == u }) {
		out = append(out, a.md().messages[id].Clone())
	}
	return out, nil
}

func (a messageTx) Create(m messages.Message, rows []messages.UserMessage) (messages.ID, error) {
	if err := a.t.live(); err != nil {
		return 0, err
	}
	m = m.Clone()
	m.ID = nextID(a.j, &a.md().msgSeq)
	a.replaceMessage(m)
	a.index(m.ID, messages.SearchDocOf(m))
	byUser := map[users.ID]messages.Flags{}
	for _, r := range rows {
		byUser[r.UserID] = r.Flags
	}
	setKey(a.j, a.md().rows, m.ID, byUser)
	return m.ID, nil
}

func (a messageTx) Update(m messages.Message) error {
	if err := a.t.live(); err != nil {
		return err
	}
	if _, ok := a.md().messages[m.ID]; !ok {
		return notFound("message", m.ID)
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
	for _, id := range ids {
		if m, ok := a.md().messages[id]; ok {
			a.unindexMessage(m)
		}
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
	for _, id := range ids {
		byUser := a.md().rows[id]
		f, ok := byUser[u]
		if !ok {
			continue
		}
		nf := (f | add) &^ remove
		if nf != f {
			setKey(a.j, byUser, u, nf)
			changed = append(changed, id)
		}
	}
	return changed, nil
}

func (a messageTx) PutRows(rows []messages.UserMessage) error {
	if err := a.t.live(); err != nil {
		return err
	}
	for _, r := range rows {
		byUser, ok := a.md().rows[r.MessageID]
		if !ok {
			if _, exists := a.md().messages[r.MessageID]; !exists {
				return notFound("message", r.MessageID)
			}
			byUser = map[users.ID]messages.Flags{}
			setKey(a.j, a.md().rows, r.MessageID, byUser)
		}
		setKey(a.j, byUser, r.UserID, r.Flags)
	}
	return nil
}

func (a messageTx) DeleteRows(us []users.ID, ids []messages.ID) error {
	if err := a.t.live(); err != nil {
		return err
	}
	for _, id := range ids {
		byUser := a.md().rows[id]
		for _, u := range us {
			if _, ok := byUser[u]; ok {
				deleteKey(a.j, byUser, u)
			}
		}
	}
	return nil
}

func (a messageTx) Move(ids []messages.ID, c channels.ID, topic string, entry messages.EditHistoryEntry, movedAt int64) error {
	if err := a.t.live(); err != nil {
		return err
	}
	stems := messages.SearchStems(topic)
	for _, id := range ids {
		m, ok := a.md().messages[id]
		if !ok {
			continue
		}
		m = m.Clone()
		m.ChannelID, m.Topic = c, topic
		m.EditHistory = append([]messages.EditHistoryEntry{entry}, m.EditHistory...)
		if movedAt != 0 {
			m.LastMovedTimestamp = movedAt
		}
		a.replaceMessage(m)
		d := a.md().search.docs[id]
		a.unindex(id)
		a.index(id, messages.SearchDoc{Topic: stems, Content: d.Content})
	}
	return nil
}

// userTopicKey identifies a user's row for one topic.
type userTopicKey struct {
	user    users.ID
	channel channels.ID
	topic   string // topics.Key
}

// userTopicTx is the user-topics accessor; j is nil in a read-only transaction.
type userTopicTx struct {
	t *readTx
	j *journal
}

func sortUserTopics(l []topics.UserTopic) {
	slices.SortFunc(l, func(x, y topics.UserTopic) int {
		switch {
		case x.UserID != y.UserID:
			return int(x.UserID - y.UserID)
		case x.ChannelID != y.ChannelID:
			return int(x.ChannelID - y.ChannelID)
		case topics.Key(x.Topic) < topics.Key(y.Topic):
			return -1
		case topics.Key(x.Topic) > topics.Key(y.Topic):
			return 1
		}
		return 0
	})
}

func (a userTopicTx) ListForUser(u users.ID) ([]topics.UserTopic, error) {
	if err := a.t.live(); err != nil {
		return nil, err
	}
	out := []topics.UserTopic{}
	for k, ut := range a.t.d.userTopics {
		if k.user == u {
			out = append(out, ut)
		}
	}
	sortUserTopics(out)
	return out, nil
}

func (a userTopicTx) ListForTopic(c channels.ID, topic string) ([]topics.UserTopic, error) {
	if err := a.t.live(); err != nil {
		return nil, err
	}
	out := []topics.UserTopic{}
	for k, ut := range a.t.d.userTopics {
		if k.channel == c && k.topic == topics.Key(topic) {
			out = append(out, ut)
		}
	}
	sortUserTopics(out)
	return out, nil
}

func (a userTopicTx) FollowersOf(c channels.ID, topic string) ([]users.ID, error) {
	rows, err := a.ListForTopic(c, topic)
	if err != nil {
		return nil, err
	}
	out := []users.ID{}
	for _, ut := range rows {
		if ut.Policy == topics.PolicyFollowed {
			out = append(out, ut.UserID)
		}
	}
	return out, nil
}

func (a userTopicTx) Put(ut topics.UserTopic) error {
	if err := a.t.live(); err != nil {
		return err
	}
	setKey(a.j, a.t.d.userTopics, userTopicKey{ut.UserID, ut.ChannelID, topics.Key(ut.Topic)}, ut)
	return nil
}

func (a userTopicTx) Delete(u users.ID, c channels.ID, topic string) error {
	if err := a.t.live(); err != nil {
		return err
	}
	deleteKey(a.j, a.t.d.userTopics, userTopicKey{u, c, topics.Key(topic)})
	return nil
}

func (a messageTx) MarkRead(q storage.MarkReadQuery) ([]messages.ID, error) {
	if err := a.t.live(); err != nil {
		return nil, err
	}
	changed := []messages.ID{}
	ids := a.ascending(func(m messages.Message) bool {
		return (q.Before == 0 || m.ID < q.Before) && (q.ChannelID == 0 || m.ChannelID == q.ChannelID && (q.Topic == nil || topics.Same(m.Topic, *q.Topic)))
	})
	slices.Reverse(ids)
	for _, id := range ids {
		byUser := a.md().rows[id]
		f, ok := byUser[q.User]
		if !ok || f&messages.FlagRead != 0 {
			continue
		}
		setKey(a.j, byUser, q.User, f|messages.FlagRead)
		changed = append(changed, id)
		if q.Limit > 0 && len(changed) == q.Limit {
			break
		}
	}
	slices.Sort(changed)
	return changed, nil
}
