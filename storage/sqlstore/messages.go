package sqlstore

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"

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

// Query reads the candidate messages in id order (the user's rows joined on; the searches
// and the non-negated channel/topic/sender/id terms pushed into SQL), applies messages.Match
// with the other terms to each and stops at Limit. It reads in rounds of a bounded number of
// rows, each continuing after the last id the previous one read, so that the database plans
// for a LIMIT (PostgreSQL then walks an index in id order instead of sorting every match);
// a round grows fourfold while messages.Match keeps refusing rows. With a search on SQLite the
// FTS5 index drives the walk (it yields its matches in id order).
func (a messageTx) Query(q storage.MessageQuery) ([]storage.MessageMatch, error) {
	if err := a.t.live(); err != nil {
		return nil, err
	}
	out := []storage.MessageMatch{}
	plan := planSearch(q.Terms)
	if q.Limit <= 0 || plan.none {
		return out, nil
	}
	if plan.searching() {
		if err := a.customPlans(); err != nil {
			return nil, err
		}
	}
	round := max(q.Limit, 100)
	for {
		read, last, err := a.queryRound(q, plan, round, &out)
		if err != nil {
			return nil, err
		}
		if len(out) >= q.Limit || read < round {
			break
		}
		if q.Newest {
			if last <= q.MinID || last <= 1 {
				break
			}
			q.MaxID = last - 1
		} else {
			q.MinID = last + 1
		}
		round = min(round*4, 10000)
	}
	if q.Newest {
		slices.Reverse(out)
	}
	return out, nil
}

// queryRound reads at most limit candidates of q, appends those that match to out (up to
// q.Limit in all) and returns how many rows it read and the id of the last.
func (a messageTx) queryRound(q storage.MessageQuery, plan searchPlan, limit int, out *[]storage.MessageMatch) (int, messages.ID, error) {
	id := "m.id"
	from := "messages m"
	if len(plan.positive) > 0 && !a.t.d.postgres {
		id, from = "s.rowid", "message_search s CROSS JOIN messages m ON m.id = s.rowid"
	}
	args := []any{q.User}
	where := a.pushedTerms(id, q, plan, &args)
	order := "ASC"
	if q.Newest {
		order = "DESC"
	}
	reacted := "false"
	if messages.NeedsReactions(plan.rest) {
		reacted = "EXISTS (SELECT 1 FROM reactions r WHERE r.message_id = m.id)"
	}
	rows, err := a.t.query(`SELECT `+messageColumns+`, um.flags, um.user_id IS NOT NULL, `+reacted+`
		FROM `+from+` LEFT JOIN user_messages um ON um.message_id = m.id AND um.user_id = ?
		WHERE `+where+` ORDER BY `+id+` `+order+` LIMIT ?`, append(args, limit)...)
	if err != nil {
		return 0, 0, err
	}
	defer rows.Close()
	read, last := 0, messages.ID(0)
	for rows.Next() {
		var flags sql.NullInt64
		var received, reacted bool
		m, err := scanMessageInto(rows, &flags, &received, &reacted)
		if err != nil {
			return 0, 0, a.t.check(err)
		}
		read, last = read+1, m.ID
		f := messages.Flags(flags.Int64)
		if !messages.Match(plan.rest, messages.Candidate{Message: m, Flags: f, Received: received, Reacted: reacted}) {
			continue
		}
		*out = append(*out, storage.MessageMatch{Message: m, Flags: f, Received: received})
		if len(*out) == q.Limit {
			break
		}
	}
	return read, last, a.t.check(rows.Err())
}

// pushedTerms is the WHERE clause of a query (id names the column the walk is ordered by),
// with its parameters appended to args: the bounds, the user's access, the searches and the
// non-negated channel, topic, sender and id terms (messages.Match checks these again).
func (a messageTx) pushedTerms(id string, q storage.MessageQuery, plan searchPlan, args *[]any) string {
	where := id + " >= ? AND (um.user_id IS NOT NULL OR (m.channel_id <> 0 AND m.channel_id IN (" + a.t.d.idSet + ")))"
	*args = append(*args, q.MinID, ids(a.t.d, q.HistoryChannels))
	if q.MaxID != 0 {
		where += " AND " + id + " <= ?"
		*args = append(*args, q.MaxID)
	}
	if len(plan.positive) > 0 {
		if a.t.d.postgres {
			where += " AND " + a.searchMatch(merged(plan.positive), args)
		} else {
			where += " AND s.message_search MATCH ?"
			*args = append(*args, ftsQuery(merged(plan.positive)))
		}
	}
	for _, s := range plan.negative {
		where += " AND NOT " + a.searchMatch(s, args)
	}
	for _, term := range plan.rest {
		if term.Negated {
			continue
		}
		switch term.Operator {
		case messages.OpChannel:
			where += " AND m.channel_id = ?"
			*args = append(*args, term.Channel)
		case messages.OpTopic:
			where += " AND m.channel_id <> 0 AND m.topic_key = ?"
			*args = append(*args, topics.Key(term.Text))
		case messages.OpSender:
			where += " AND m.sender_id = ?"
			*args = append(*args, term.User)
		case messages.OpID:
			where += " AND m.id = ?"
			*args = append(*args, term.Message)
		}
	}
	return where
}

func (a messageTx) Rows(list []messages.ID) ([]messages.UserMessage, error) {
	if len(list) == 0 {
		return nil, a.t.live()
	}
	return scanAll(a.t, scanRow, "SELECT user_id, message_id, flags FROM user_messages WHERE message_id IN ("+
		a.t.d.idSet+") ORDER BY message_id, user_id", ids(a.t.d, list))
}

func (a messageTx) UserRows(u users.ID, list []messages.ID) ([]messages.UserMessage, error) {
	if len(list) == 0 {
		return nil, a.t.live()
	}
	return scanAll(a.t, scanRow, "SELECT user_id, message_id, flags FROM user_messages WHERE user_id = ? AND message_id IN ("+
		a.t.d.idSet+") ORDER BY message_id", u, ids(a.t.d, list))
}

func (a messageTx) UserRowsWhere(u users.ID, set, clear messages.Flags) ([]messages.UserMessage, error) {
	return scanAll(a.t, scanRow, `SELECT user_id, message_id, flags FROM user_messages
		WHERE user_id = ? AND (flags & ?) = ? AND (flags & ?) = 0 ORDER BY message_id`,
		u, int64(set), int64(set), int64(clear))
}

func (a messageTx) MaxReceivedID(u users.ID) (messages.ID, error) {
	var id messages.ID
	err := a.t.get("SELECT COALESCE(MAX(message_id), 0) FROM user_messages WHERE user_id = ? AND (flags & ?) = 0",
		[]any{u, int64(messages.FlagHistorical)}, &id)
	return id, err
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
		newest = `SELECT MAX(m.id) FROM messages m JOIN user_messages um ON um.message_id = m.id AND um.user_id = ?
			WHERE m.channel_id = ? GROUP BY m.topic_key`
		args = []any{user, c}
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

// Create writes the message with its search index entry (PostgreSQL: in the same row).
func (a messageTx) Create(m messages.Message, rows []messages.UserMessage) (messages.ID, error) {
	return a.create(m, rows, nil)
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
	id, err := a.create(m, rows, &before)
	return id, before, err
}

// create is Create; ends, when not nil, receives the bounds of the message's channel from
// before it (PostgreSQL only).
func (a messageTx) create(m messages.Message, rows []messages.UserMessage, ends *storage.ChannelActivity) (messages.ID, error) {
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
	res, err := a.t.exec(`UPDATE messages SET sender_id = ?, channel_id = ?, topic = ?, topic_key = ?,
		recipients = ?, content = ?, rendered = ?, timestamp = ?, client = ?, last_edit_timestamp = ?,
		last_moved_timestamp = ?, edit_history = ?`+set+` WHERE id = ?`, append(args, m.ID)...)
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

func (a messageTx) SetFlags(u users.ID, list []messages.ID, add, remove messages.Flags) ([]messages.ID, error) {
	changed := []messages.ID{}
	if len(list) == 0 {
		return changed, a.t.live()
	}
	found, err := scanAll(a.t, func(row *sql.Rows) (messages.ID, error) {
		var id messages.ID
		return id, row.Scan(&id)
	}, `UPDATE user_messages SET flags = (flags | ?) & ~CAST(? AS BIGINT)
		WHERE user_id = ? AND message_id IN (`+a.t.d.idSet+`) AND ((flags | ?) & ~CAST(? AS BIGINT)) <> flags
		RETURNING message_id`,
		int64(add), int64(remove), u, ids(a.t.d, list), int64(add), int64(remove))
	if err != nil {
		return nil, err
	}
	slices.Sort(found)
	return append(changed, found...), nil
}

func (a messageTx) PutRows(rows []messages.UserMessage) error {
	if len(rows) == 0 {
		return a.t.live()
	}
	msgIDs := make([]messages.ID, len(rows))
	for i, r := range rows {
		msgIDs[i] = r.MessageID
	}
	slices.Sort(msgIDs)
	msgIDs = slices.Compact(msgIDs)
	var n int
	if err := a.t.get("SELECT COUNT(*) FROM messages WHERE id IN ("+a.t.d.idSet+")", []any{ids(a.t.d, msgIDs)}, &n); err != nil {
		return err
	}
	if n != len(msgIDs) {
		return notFound("message in", msgIDs)
	}
	return a.upsertRows(rows)
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

// DeleteRows removes the rows in one statement.
func (a messageTx) DeleteRows(us []users.ID, list []messages.ID) error {
	if len(us) == 0 || len(list) == 0 {
		return a.t.live()
	}
	_, err := a.t.exec("DELETE FROM user_messages WHERE user_id IN ("+a.t.d.idSet+") AND message_id IN ("+a.t.d.idSet+")",
		ids(a.t.d, us), ids(a.t.d, list))
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

func (a messageTx) MarkRead(q storage.MarkReadQuery) ([]messages.ID, error) {
	where := "um.user_id = ? AND (um.flags & ?) = 0"
	args := []any{q.User, int64(messages.FlagRead)}
	if q.Before != 0 {
		where += " AND um.message_id < ?"
		args = append(args, q.Before)
	}
	from := "user_messages um"
	if q.ChannelID != 0 {
		from += " JOIN messages m ON m.id = um.message_id"
		where += " AND m.channel_id = ?"
		args = append(args, q.ChannelID)
		if q.Topic != nil {
			where += " AND m.topic_key = ?"
			args = append(args, topics.Key(*q.Topic))
		}
	}
	limit := ""
	if q.Limit > 0 {
		limit = " LIMIT " + strconv.Itoa(q.Limit)
	}
	found, err := scanAll(a.t, func(row *sql.Rows) (messages.ID, error) {
		var id messages.ID
		return id, row.Scan(&id)
	}, `UPDATE user_messages SET flags = flags | ? WHERE user_id = ? AND message_id IN (
		SELECT um.message_id FROM `+from+` WHERE `+where+` ORDER BY um.message_id DESC`+limit+`) RETURNING message_id`,
		append([]any{int64(messages.FlagRead), q.User}, args...)...)
	if err != nil {
		return nil, err
	}
	slices.Sort(found)
	return append([]messages.ID{}, found...), nil
}
