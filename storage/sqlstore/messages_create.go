package sqlstore

import (
	"fmt"
	"slices"

	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/topics"
)

// Create writes the message with its search index entry (PostgreSQL: in the same row).
func (a messageTx) Create(m messages.Message, rows []messages.UserMessage) (messages.ID, error) {
	return a.create(m, rows, nil, false)
}

// CreateInChannel is storage.ChannelMessageCreator's: the statement that writes the message
// reads its channel's bounds too (PostgreSQL: the statement's snapshot does not see its own
// insert; SQLite: its RETURNING clause reads the messages before the new one).
func (a messageTx) CreateInChannel(m messages.Message, rows []messages.UserMessage) (messages.ID, storage.ChannelActivity, error) {
	before := storage.ChannelActivity{ChannelID: m.ChannelID}
	if m.IsDirect() {
		id, err := a.Create(m, rows)
		return id, before, err
	}
	id, err := a.create(m, rows, &before, false)
	return id, before, err
}

// CreateForSubscribers is storage.SubscriberMessageCreator's: CreateInChannel for a message
// with implicit rows (receivers.go), written with the given rows only, so that a send costs
// the same whatever the number of subscribers.
func (a messageTx) CreateForSubscribers(m messages.Message, rows []messages.UserMessage) (messages.ID, storage.ChannelActivity, error) {
	before := storage.ChannelActivity{ChannelID: m.ChannelID}
	if m.IsDirect() {
		id, err := a.Create(m, rows)
		return id, before, err
	}
	id, err := a.create(m, rows, &before, true)
	return id, before, err
}

// create is Create; ends, when not nil, receives the bounds of the message's channel from
// before it (PostgreSQL only); implicit marks the message as one with implicit rows.
func (a messageTx) create(m messages.Message, rows []messages.UserMessage, ends *storage.ChannelActivity, implicit bool) (messages.ID, error) {
	var id messages.ID
	doc := messages.SearchDocOf(m)
	idCol, idMark, cols, marks := "", "", "", ""
	args := []any{m.SenderID, m.ChannelID, m.Topic, topics.Key(m.Topic), recipientsText(m.Recipients), m.Content,
		m.Rendered, m.Timestamp, m.Client, m.LastEditTimestamp, m.LastMovedTimestamp, historyText(m.EditHistory)}
	var ahead *readAhead
	if a.t.d.postgres {
		cols, marks = ", search_topic, search_content", ", CAST(? AS tsvector), CAST(? AS tsvector)"
		args = append(args, tsvectorText(doc.Topic, 1), tsvectorText(doc.Content, 2))
		if r, ok := a.t.takeMessage(m.ChannelID); ok {
			// The id was reserved ahead (ahead.go).
			ahead, idCol, idMark = r, "id, ", "?, "
			args = append([]any{r.id}, args...)
		}
	}
	if implicit {
		cols, marks = cols+", implicit_rows", marks+", TRUE"
	}
	insert := `INSERT INTO messages (` + idCol + `sender_id, channel_id, topic, topic_key, recipients, content,
		rendered, timestamp, client, last_edit_timestamp, last_moved_timestamp, edit_history` + cols + `)
		VALUES (` + idMark + `?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?` + marks + `) RETURNING id`
	if a.t.d.postgres {
		// One statement: the message, its rows and its direct-message index.
		return a.createPostgres(insert, args, m, rows, ends, ahead)
	}
	dest := []any{&id}
	if ends != nil {
		// The bounds as Bounds reads them, from the messages before the new one.
		insert += `,
			COALESCE((SELECT b.id FROM messages AS b WHERE b.channel_id = messages.channel_id AND b.id < messages.id ORDER BY b.id LIMIT 1), 0),
			COALESCE((SELECT b.timestamp FROM messages AS b WHERE b.channel_id = messages.channel_id AND b.id < messages.id ORDER BY b.id DESC LIMIT 1), 0)`
		dest = append(dest, &ends.FirstMessageID, &ends.LastTimestamp)
	}
	if err := a.t.getAhead(insert, args, dest...); err != nil {
		return 0, fmt.Errorf("create message: %w", err)
	}
	// The rest waits for the transaction's next statement (deferred.go).
	a.putSearch(id, doc)
	a.putDirect(id, m)
	// A new message has no rows yet, and userMessageValues keeps one per user: no conflict.
	a.t.deferInsert(userMessageInsert, 3, userMessageValues(id, rows), "")
	return id, nil
}

// createPostgres writes the message (insert, with args), its users' rows and its
// direct-message index in one statement: the rows travel as two arrays (users, flags), the
// last row of a user winning as in upsertRows. The message is new, so its rows are inserted
// without an ON CONFLICT clause (PostgreSQL's speculative insertion costs each row a probe
// of the key first).
//
// With ahead (the message's id reserved and its channel's bounds read ahead, ahead.go), the
// statement waits for the transaction's next statement or its COMMIT (deferred.go).
func (a messageTx) createPostgres(insert string, args []any, m messages.Message, rows []messages.UserMessage, ends *storage.ChannelActivity, ahead *readAhead) (messages.ID, error) {
	var who, flags []int64
	for _, r := range lastRowPerUser(rows) {
		who, flags = append(who, int64(r.UserID)), append(flags, int64(r.Flags))
	}
	args = append(args, ids(a.t.d, who), ids(a.t.d, flags))
	direct := ""
	if m.IsDirect() && len(m.Recipients) > 0 {
		direct = `, d AS (INSERT INTO direct_recipients (user_id, message_id)
			SELECT DISTINCT list.id, m.id FROM m, (` + a.t.d.idSet + `) AS list ON CONFLICT DO NOTHING)`
		args = append(args, ids(a.t.d, m.Recipients))
	}
	if ahead != nil {
		// Deferred, the statement would fail only at the commit: its text is checked now.
		if err := checkArgs(args); err != nil {
			return 0, fmt.Errorf("create message: %w", err)
		}
		a.t.deferExec(`WITH m AS (`+insert+`), r AS (INSERT INTO user_messages (user_id, message_id, flags)
			SELECT x.u, m.id, x.f FROM m, unnest(CAST(? AS BIGINT[]), CAST(? AS BIGINT[])) AS x(u, f))`+direct+`
			SELECT id FROM m`, args...)
		if ends != nil {
			*ends = ahead.bounds
		}
		return ahead.id, nil
	}
	var id messages.ID
	dest := []any{&id}
	result := "id"
	if ends != nil {
		// The bounds as Bounds reads them; every part of the statement sees the table as it
		// was before the statement, so without the new message.
		result = `id, COALESCE((SELECT id FROM messages WHERE channel_id = ? ORDER BY id LIMIT 1), 0),
			COALESCE((SELECT timestamp FROM messages WHERE channel_id = ? ORDER BY id DESC LIMIT 1), 0)`
		args = append(args, m.ChannelID, m.ChannelID)
		dest = append(dest, &ends.FirstMessageID, &ends.LastTimestamp)
	}
	if err := a.t.get(`WITH m AS (`+insert+`), r AS (INSERT INTO user_messages (user_id, message_id, flags)
		SELECT x.u, m.id, x.f FROM m, unnest(CAST(? AS BIGINT[]), CAST(? AS BIGINT[])) AS x(u, f))`+direct+`
		SELECT `+result+` FROM m`, args, dest...); err != nil {
		return 0, fmt.Errorf("create message: %w", err)
	}
	return id, nil
}

// putDirect indexes the recipients of a direct message, written with the transaction's next
// statement.
func (a messageTx) putDirect(id messages.ID, m messages.Message) {
	if !m.IsDirect() {
		return
	}
	values := make([][]any, 0, len(m.Recipients))
	for i, u := range m.Recipients {
		if !slices.Contains(m.Recipients[:i], u) {
			values = append(values, []any{u, id})
		}
	}
	if len(values) > 0 {
		a.t.deferInsert("INSERT INTO direct_recipients (user_id, message_id)", 2, values, "ON CONFLICT DO NOTHING")
	}
}
