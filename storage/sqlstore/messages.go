package sqlstore

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/topics"
	"github.com/teamchat/chat/users"
)

// messageTx is the messages accessor: messages, the users' rows for them (user_messages)
// and the index of direct-message recipients.
type messageTx struct{ t *txn }

const messageColumns = `m.id, m.sender_id, m.channel_id, m.topic, m.recipients, m.content, m.rendered,
	m.timestamp, m.client, m.last_edit_timestamp, m.last_moved_timestamp, m.edit_history`

func scanMessageInto(row *sql.Rows, extra ...any) (messages.Message, error) {
	var m messages.Message
	var recipients, history sql.NullString
	dest := append([]any{&m.ID, &m.SenderID, &m.ChannelID, &m.Topic, &recipients, &m.Content, &m.Rendered,
		&m.Timestamp, &m.Client, &m.LastEditTimestamp, &m.LastMovedTimestamp, &history}, extra...)
	if err := row.Scan(dest...); err != nil {
		return m, err
	}
	if history.Valid {
		if err := json.Unmarshal([]byte(history.String), &m.EditHistory); err != nil {
			return m, fmt.Errorf("message %d edit history: %w", m.ID, err)
		}
		slices.Reverse(m.EditHistory) // stored oldest first
	}
	list, err := parseJSONIDs(recipients)
	if err != nil {
		return m, fmt.Errorf("message %d recipients: %w", m.ID, err)
	}
	if list != nil {
		m.Recipients = make([]users.ID, len(list))
		for i, id := range list {
			m.Recipients[i] = users.ID(id)
		}
	}
	return m, nil
}

// historyText is the column form of an edit history (oldest first; NULL when empty).
func historyText(h []messages.EditHistoryEntry) any {
	if len(h) == 0 {
		return nil
	}
	h = slices.Clone(h)
	slices.Reverse(h)
	b, _ := json.Marshal(h) // cannot fail: plain fields
	return string(b)
}

func scanMessage(row *sql.Rows) (messages.Message, error) { return scanMessageInto(row) }

func recipientsText(list []users.ID) any {
	if list == nil {
		return nil
	}
	raw := make([]int64, len(list))
	for i, id := range list {
		raw[i] = int64(id)
	}
	return jsonIDs(raw)
}

func scanRow(row *sql.Rows) (messages.UserMessage, error) {
	var r messages.UserMessage
	err := row.Scan(&r.UserID, &r.MessageID, &r.Flags)
	return r, err
}

func (a messageTx) Get(id messages.ID) (messages.Message, error) {
	list, err := scanAll(a.t, scanMessage, "SELECT "+messageColumns+" FROM messages m WHERE m.id = ?", id)
	if err != nil {
		return messages.Message{}, err
	}
	if len(list) == 0 {
		return messages.Message{}, notFound("message", id)
	}
	return list[0], nil
}

func (a messageTx) GetMany(list []messages.ID) ([]messages.Message, error) {
	if len(list) == 0 {
		return nil, a.t.live()
	}
	return scanAll(a.t, scanMessage, "SELECT "+messageColumns+" FROM messages m WHERE m.id IN ("+a.t.d.idSet+") ORDER BY m.id",
		ids(a.t.d, list))
}

func (a messageTx) Scan(after messages.ID, limit int) ([]messages.Message, error) {
	if limit <= 0 {
		return []messages.Message{}, a.t.live()
	}
	list, err := scanAll(a.t, scanMessage, "SELECT "+messageColumns+" FROM messages m WHERE m.id > ? ORDER BY m.id LIMIT ?", int64(after), limit)
	if list == nil && err == nil {
		list = []messages.Message{}
	}
	return list, err
}

func (a messageTx) DirectWith(u users.ID) ([]messages.Message, error) {
	return scanAll(a.t, scanMessage, "SELECT "+messageColumns+` FROM messages m
		JOIN direct_recipients d ON d.message_id = m.id WHERE d.user_id = ? ORDER BY m.id`, u)
}

func (a messageTx) SentBy(u users.ID) ([]messages.Message, error) {
	out, err := scanAll(a.t, scanMessage, "SELECT "+messageColumns+" FROM messages m WHERE m.sender_id = ? ORDER BY m.id", u)
	if out == nil && err == nil {
		out = []messages.Message{}
	}
	return out, err
}

func (a messageTx) TopicMessageIDs(c channels.ID, topic string, limit int) ([]messages.ID, error) {
	query := "SELECT id FROM messages WHERE channel_id = ? AND topic_key = ? ORDER BY id DESC"
	args := []any{c, topics.Key(topic)}
	if limit > 0 {
		query += " LIMIT ?"
		args = append(args, limit)
	}
	return scanAll(a.t, func(row *sql.Rows) (messages.ID, error) {
		var id messages.ID
		return id, row.Scan(&id)
	}, query, args...)
}

func (a messageTx) Topics(c channels.ID, user users.ID, fullHistory bool) ([]storage.TopicSummary, error) {
	newest := "SELECT MAX(id) FROM messages WHERE channel_id = ? GROUP BY topic_key"
	args := []any{c}
	if !fullHistory {
		newest = topicsWithRows()
		args = []any{c, user, user}
	}
	list, err := scanAll(a.t, func(row *sql.Rows) (storage.TopicSummary, error) {
		var s storage.TopicSummary
		return s, row.Scan(&s.Name, &s.MaxID)
	}, "SELECT topic, id FROM messages WHERE channel_id <> 0 AND id IN ("+newest+") ORDER BY id DESC", args...)
	if list == nil && err == nil {
		list = []storage.TopicSummary{}
	}
	return list, err
}

func (a messageTx) Activity(list []channels.ID, since, until int64) ([]storage.ChannelActivity, error) {
	list = slices.Clone(list)
	slices.Sort(list)
	list = slices.Compact(list)
	out := make([]storage.ChannelActivity, len(list))
	index := make(map[channels.ID]int, len(list))
	for i, c := range list {
		out[i].ChannelID = c
		index[c] = i
	}
	if len(list) == 0 {
		return out, a.t.live()
	}
	// One index seek per channel and figure (messages_channel for the first id,
	// messages_channel_time for the last timestamp and the window's count), so the cost
	// follows the number of channels and the window's traffic, not a channel's history.
	found, err := scanAll(a.t, func(row *sql.Rows) (storage.ChannelActivity, error) {
		var s storage.ChannelActivity
		var first, last sql.NullInt64
		err := row.Scan(&s.ChannelID, &first, &last, &s.RecentCount)
		s.FirstMessageID, s.LastTimestamp = messages.ID(first.Int64), last.Int64
		return s, err
	}, `SELECT c.id,
		(SELECT MIN(m.id) FROM messages m WHERE m.channel_id = c.id),
		(SELECT MAX(m.timestamp) FROM messages m WHERE m.channel_id = c.id),
		(SELECT COUNT(*) FROM messages m WHERE m.channel_id = c.id AND m.timestamp >= ? AND (? = 0 OR m.timestamp < ?))
		FROM (`+a.t.d.idSet+`) AS c WHERE c.id <> 0`,
		since, until, until, ids(a.t.d, list))
	if err != nil {
		return nil, err
	}
	for _, s := range found {
		out[index[s.ChannelID]] = s
	}
	return out, nil
}

// Bounds reads, per channel, its smallest id and the time of its largest id (ids grow with
// sending time), both from the (channel_id, id) index.
func (a messageTx) Bounds(list []channels.ID) ([]storage.ChannelActivity, error) {
	list = slices.Clone(list)
	slices.Sort(list)
	list = slices.Compact(list)
	if len(list) == 0 {
		return []storage.ChannelActivity{}, a.t.live()
	}
	return scanAll(a.t, func(row *sql.Rows) (storage.ChannelActivity, error) {
		var s storage.ChannelActivity
		return s, row.Scan(&s.ChannelID, &s.FirstMessageID, &s.LastTimestamp)
	}, `SELECT list.id,
		COALESCE((SELECT id FROM messages WHERE channel_id = list.id ORDER BY id LIMIT 1), 0),
		COALESCE((SELECT timestamp FROM messages WHERE channel_id = list.id ORDER BY id DESC LIMIT 1), 0)
		FROM (`+a.t.d.idSet+`) AS list WHERE list.id <> 0 ORDER BY list.id`, ids(a.t.d, list))
}

// Update rewrites the message and its search index entry.
func (a messageTx) Update(m messages.Message) error {
	doc := messages.SearchDocOf(m)
	set := ""
	args := []any{m.SenderID, m.ChannelID, m.Topic, topics.Key(m.Topic), recipientsText(m.Recipients), m.Content,
		m.Rendered, m.Timestamp, m.Client, m.LastEditTimestamp, m.LastMovedTimestamp, historyText(m.EditHistory)}
	if a.t.d.postgres {
		set = ", search_topic = CAST(? AS tsvector), search_content = CAST(? AS tsvector)"
		args = append(args, tsvectorText(doc.Topic, 1), tsvectorText(doc.Content, 2))
	}
	// A message that changes channel keeps its rows: explicit ones (receivers.go).
	if _, err := a.t.exec(`INSERT INTO user_messages (user_id, message_id, flags)
		SELECT user_id, message_id, flags FROM (`+implicitRows("m.id = ? AND m.channel_id <> ?")+`) AS x`, m.ID, m.ChannelID); err != nil {
		return err
	}
	res, err := a.t.exec(`UPDATE messages SET implicit_rows = (implicit_rows AND channel_id = ?), sender_id = ?, channel_id = ?, topic = ?, topic_key = ?,
		recipients = ?, content = ?, rendered = ?, timestamp = ?, client = ?, last_edit_timestamp = ?,
		last_moved_timestamp = ?, edit_history = ?`+set+` WHERE id = ?`, append(append([]any{m.ChannelID}, args...), m.ID)...)
	if err != nil {
		return err
	}
	if err := mustAffect(res, "message", m.ID); err != nil {
		return err
	}
	if err := a.replaceSearch(m.ID, doc); err != nil {
		return err
	}
	if _, err := a.t.exec("DELETE FROM direct_recipients WHERE message_id = ?", m.ID); err != nil {
		return err
	}
	a.putDirect(m.ID, m)
	return nil
}

// Delete removes the messages in one statement; their rows and recipients go by cascade,
// their search index entries with them (PostgreSQL) or in a second statement (SQLite).
func (a messageTx) Delete(list []messages.ID) error {
	if len(list) == 0 {
		return a.t.live()
	}
	if _, err := a.t.exec("DELETE FROM messages WHERE id IN ("+a.t.d.idSet+")", ids(a.t.d, list)); err != nil || a.t.d.postgres {
		return err
	}
	_, err := a.t.exec("DELETE FROM message_search WHERE rowid IN ("+a.t.d.idSet+")", ids(a.t.d, list))
	return err
}

// upsertRows creates or replaces rows with multi-row statements; a later row for the same
// (user, message) wins.
func (a messageTx) upsertRows(rows []messages.UserMessage) error {
	last := make(map[[2]int64]int, len(rows))
	for i, r := range rows {
		last[[2]int64{int64(r.UserID), int64(r.MessageID)}] = i
	}
	values := make([][]any, 0, len(last))
	for i, r := range rows {
		if last[[2]int64{int64(r.UserID), int64(r.MessageID)}] == i {
			values = append(values, []any{r.UserID, r.MessageID, int64(r.Flags)})
		}
	}
	return insertRows(a.t, userMessageInsert, 3, values, userMessageUpsert)
}

// The statement that writes user_messages rows, the last one of a (user, message) pair winning.
const (
	userMessageInsert = "INSERT INTO user_messages (user_id, message_id, flags)"
	userMessageUpsert = "ON CONFLICT (user_id, message_id) DO UPDATE SET flags = excluded.flags"
)

// userMessageValues are the user_messages values of a new message's rows, one per user.
func userMessageValues(id messages.ID, rows []messages.UserMessage) [][]any {
	list := lastRowPerUser(rows)
	values := make([][]any, 0, len(list))
	for _, r := range list {
		values = append(values, []any{r.UserID, id, int64(r.Flags)})
	}
	return values
}

// lastRowPerUser keeps one of a new message's rows per user, the last one (as in upsertRows),
// in the order of rows.
func lastRowPerUser(rows []messages.UserMessage) []messages.UserMessage {
	last := make(map[users.ID]int, len(rows))
	for i, r := range rows {
		last[r.UserID] = i
	}
	out := make([]messages.UserMessage, 0, len(last))
	for i, r := range rows {
		if last[r.UserID] == i {
			out = append(out, r)
		}
	}
	return out
}

// userTopicTx is the user-topics accessor, keyed by (user, channel, topics.Key(topic)).
type userTopicTx struct{ t *txn }

func scanUserTopic(row *sql.Rows) (topics.UserTopic, error) {
	var ut topics.UserTopic
	err := row.Scan(&ut.UserID, &ut.ChannelID, &ut.Topic, &ut.Policy, &ut.LastUpdated)
	return ut, err
}

const userTopicColumns = "user_id, channel_id, topic, policy, last_updated"

func (a userTopicTx) ListForUser(u users.ID) ([]topics.UserTopic, error) {
	list, err := scanAll(a.t, scanUserTopic, "SELECT "+userTopicColumns+" FROM user_topics WHERE user_id = ? ORDER BY channel_id, topic_key", u)
	if list == nil && err == nil {
		list = []topics.UserTopic{}
	}
	return list, err
}

func (a userTopicTx) ListForTopic(c channels.ID, topic string) ([]topics.UserTopic, error) {
	list, err := scanAll(a.t, scanUserTopic, "SELECT "+userTopicColumns+" FROM user_topics WHERE channel_id = ? AND topic_key = ? ORDER BY user_id",
		c, topics.Key(topic))
	if list == nil && err == nil {
		list = []topics.UserTopic{}
	}
	return list, err
}

func (a userTopicTx) Put(ut topics.UserTopic) error {
	if err := a.t.bump(userTopicsTable); err != nil {
		return err
	}
	_, err := a.t.exec(`INSERT INTO user_topics (user_id, channel_id, topic_key, topic, policy, last_updated)
		VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (user_id, channel_id, topic_key) DO UPDATE SET
		topic = excluded.topic, policy = excluded.policy, last_updated = excluded.last_updated`,
		ut.UserID, ut.ChannelID, topics.Key(ut.Topic), ut.Topic, ut.Policy, ut.LastUpdated)
	return err
}

func (a userTopicTx) Delete(u users.ID, c channels.ID, topic string) error {
	if err := a.t.bump(userTopicsTable); err != nil {
		return err
	}
	_, err := a.t.exec("DELETE FROM user_topics WHERE user_id = ? AND channel_id = ? AND topic_key = ?", u, c, topics.Key(topic))
	return err
}

// Move changes every message in one statement, appending the history entry in SQL.
func (a messageTx) Move(list []messages.ID, c channels.ID, topic string, entry messages.EditHistoryEntry, movedAt int64) error {
	if len(list) == 0 {
		return a.t.live()
	}
	b, err := json.Marshal(entry)
	if err != nil {
		return fmt.Errorf("move messages: %w", err)
	}
	// The messages keep their rows in their new channel: explicit ones (receivers.go).
	if err := a.materialize(list); err != nil {
		return err
	}
	stems := messages.SearchStems(topic)
	set, args := "", []any{c, topic, topics.Key(topic), movedAt, movedAt, string(b)}
	if a.t.d.postgres {
		set = ", search_topic = CAST(? AS tsvector)"
		args = append(args, tsvectorText(stems, 1))
	}
	_, err = a.t.exec(`UPDATE messages SET channel_id = ?, topic = ?, topic_key = ?,
		last_moved_timestamp = CASE WHEN ? = 0 THEN last_moved_timestamp ELSE ? END,
		edit_history = `+a.t.d.appendEditHistory+set+`
		WHERE id IN (`+a.t.d.idSet+`)`, append(args, ids(a.t.d, list))...)
	if err != nil || a.t.d.postgres {
		return err
	}
	_, err = a.t.exec("UPDATE message_search SET topic = ? WHERE rowid IN ("+a.t.d.idSet+")", ftsText(stems), ids(a.t.d, list))
	return err
}
