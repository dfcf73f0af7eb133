package sqlstore

import (
	"database/sql"
	"encoding/json"
	"fmt"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/topics"
	"github.com/teamchat/chat/uploads"
)

func (r *readTx) Archives() storage.ArchiveReader { return archiveTx{r.t, false} }
func (w *tx) Archives() storage.ArchiveWriter     { return archiveTx{w.t, true} }

// archiveTx is the archives accessor: one row of message_archives per archive, its content
// as JSON. write is set in a write transaction, where Expired claims what it returns.
type archiveTx struct {
	t     *txn
	write bool
}

// archiveContent is an archive's stored content.
type archiveContent struct {
	Messages    []messages.Message     `json:"messages"`
	Rows        []messages.UserMessage `json:"rows"`
	Reactions   []messages.Reaction    `json:"reactions"`
	Attachments []uploads.Attachment   `json:"attachments"`
	Links       []uploads.Link         `json:"links"`
}

func (a archiveTx) Get(id storage.ArchiveID) (storage.Archive, error) {
	var (
		ar   = storage.Archive{ID: id}
		text string
	)
	if err := a.t.get("SELECT archived_at, content FROM message_archives WHERE id = ?", []any{id}, &ar.ArchivedAt, &text); err != nil {
		if err == sql.ErrNoRows {
			return storage.Archive{}, notFound("archive", id)
		}
		return storage.Archive{}, err
	}
	var c archiveContent
	if err := json.Unmarshal([]byte(text), &c); err != nil {
		return storage.Archive{}, fmt.Errorf("sqlstore: archive %d: %w", id, err)
	}
	ar.Messages, ar.Rows, ar.Reactions, ar.Attachments, ar.Links = c.Messages, c.Rows, c.Reactions, c.Attachments, c.Links
	return ar, nil
}

func scanArchiveID(r *sql.Rows) (storage.ArchiveID, error) {
	var id storage.ArchiveID
	return id, r.Scan(&id)
}

func (a archiveTx) List(before int64, limit int) ([]storage.ArchiveID, error) {
	q, args := "SELECT id FROM message_archives", []any{}
	if before != 0 {
		q, args = q+" WHERE archived_at < ?", append(args, before)
	}
	q += " ORDER BY id"
	if limit > 0 {
		q, args = q+" LIMIT ?", append(args, limit)
	}
	list, err := scanAll(a.t, scanArchiveID, q, args...)
	if list == nil && err == nil {
		list = []storage.ArchiveID{}
	}
	return list, err
}

func scanMessageID(r *sql.Rows) (messages.ID, error) {
	var id messages.ID
	return id, r.Scan(&id)
}

func (a archiveTx) Expired(q storage.ExpiredQuery) ([]messages.ID, error) {
	out := []messages.ID{}
	if q.Limit <= 0 || len(q.ChannelIDs) == 0 && !q.Direct {
		return out, a.t.live()
	}
	var where string
	args := []any{}
	if len(q.ChannelIDs) > 0 {
		chans := make([]int64, len(q.ChannelIDs))
		for i, c := range q.ChannelIDs {
			chans[i] = int64(c)
		}
		where = "channel_id IN (" + a.t.d.idSet + ")"
		args = append(args, ids(a.t.d, chans))
	}
	if q.Direct {
		if where != "" {
			where += " OR "
		}
		where += "channel_id = ?"
		args = append(args, channels.ID(0))
	}
	args = append(args, q.Before, q.Limit)
	query := "SELECT id FROM messages WHERE (" + where + ") AND timestamp < ? ORDER BY id LIMIT ?"
	if a.write { // a claim: another process's pass skips these rows
		query = a.t.claiming(query)
	}
	list, err := scanAll(a.t, scanMessageID, query, args...)
	return append(out, list...), err
}

func (a archiveTx) Create(ar storage.Archive) (storage.ArchiveID, error) {
	text, err := json.Marshal(archiveContent{ar.Messages, ar.Rows, ar.Reactions, ar.Attachments, ar.Links})
	if err != nil {
		return 0, fmt.Errorf("sqlstore: archive: %w", err)
	}
	var id storage.ArchiveID
	if err := a.t.get("INSERT INTO message_archives (archived_at, content) VALUES (?, ?) RETURNING id",
		[]any{ar.ArchivedAt, string(text)}, &id); err != nil {
		return 0, fmt.Errorf("sqlstore: archive: %w", err)
	}
	return id, nil
}

func (a archiveTx) Delete(list []storage.ArchiveID) error {
	if len(list) == 0 {
		return a.t.live()
	}
	raw := make([]int64, len(list))
	for i, id := range list {
		raw[i] = int64(id)
	}
	_, err := a.t.exec("DELETE FROM message_archives WHERE id IN ("+a.t.d.idSet+")", ids(a.t.d, raw))
	return err
}

func (a archiveTx) Reinsert(msgs []messages.Message, rows []messages.UserMessage, reactions []messages.Reaction) error {
	byMessage := map[messages.ID][]messages.UserMessage{}
	for _, r := range rows {
		byMessage[r.MessageID] = append(byMessage[r.MessageID], r)
	}
	if len(msgs) > 0 {
		list := make([]int64, len(msgs))
		for i, msg := range msgs {
			list[i] = int64(msg.ID)
		}
		var taken int
		if err := a.t.get("SELECT COUNT(*) FROM messages WHERE id IN ("+a.t.d.idSet+")", []any{ids(a.t.d, list)}, &taken); err != nil {
			return err
		}
		if taken > 0 {
			return fmt.Errorf("sqlstore: reinsert: %d message ids taken: %w", taken, storage.ErrConflict)
		}
	}
	m := messageTx{a.t}
	for _, msg := range msgs {
		if err := m.reinsert(msg, byMessage[msg.ID]); err != nil {
			return err
		}
	}
	for _, r := range reactions {
		if err := m.AddReaction(r); err != nil {
			return err
		}
	}
	return nil
}

// reinsert is create for a message that keeps its id (a restored archive's).
func (a messageTx) reinsert(m messages.Message, rows []messages.UserMessage) error {
	doc := messages.SearchDocOf(m)
	args := []any{m.ID, m.SenderID, m.ChannelID, m.Topic, topics.Key(m.Topic), recipientsText(m.Recipients), m.Content,
		m.Rendered, m.Timestamp, m.Client, m.LastEditTimestamp, m.LastMovedTimestamp, historyText(m.EditHistory)}
	cols, marks := "", ""
	if a.t.d.postgres {
		cols, marks = ", search_topic, search_content", ", CAST(? AS tsvector), CAST(? AS tsvector)"
		args = append(args, tsvectorText(doc.Topic, 1), tsvectorText(doc.Content, 2))
	}
	insert := `INSERT INTO messages (id, sender_id, channel_id, topic, topic_key, recipients, content,
		rendered, timestamp, client, last_edit_timestamp, last_moved_timestamp, edit_history` + cols + `)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?` + marks + `) RETURNING id`
	if a.t.d.postgres {
		_, err := a.createPostgres(insert, args, m, rows, nil, nil)
		return err
	}
	var id messages.ID
	if err := a.t.getAhead(insert, args, &id); err != nil {
		return fmt.Errorf("reinsert message: %w", err)
	}
	a.putSearch(id, doc)
	a.putDirect(id, m)
	a.t.deferInsert(userMessageInsert, 3, userMessageValues(id, rows), "")
	return nil
}
