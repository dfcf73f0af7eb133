package sqlstore

import (
	"database/sql"
	"fmt"

	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

func (r *readTx) ScheduledMessages() storage.ScheduledMessageReader { return scheduledTx{r.t} }
func (w *tx) ScheduledMessages() storage.ScheduledMessageWriter     { return scheduledTx{w.t} }

// scheduledTx is the scheduled messages accessor.
type scheduledTx struct{ t *txn }

const scheduledColumns = "id, kind, sender_id, channel_id, topic, recipients, content, rendered, deliver_at, " +
	"read_by_sender, client, failed, failure_message, delivered, delivered_message_id, reminder_target_id, reminder_note"

func scanScheduled(row *sql.Rows) (messages.Scheduled, error) {
	var m messages.Scheduled
	var to sql.NullString
	if err := row.Scan(&m.ID, &m.Kind, &m.SenderID, &m.ChannelID, &m.Topic, &to, &m.Content, &m.Rendered, &m.DeliverAt,
		&m.ReadBySender, &m.Client, &m.Failed, &m.FailureMessage, &m.Delivered, &m.DeliveredMessageID,
		&m.ReminderTargetID, &m.ReminderNote); err != nil {
		return m, err
	}
	ids, err := parseJSONIDs(to)
	if ids != nil {
		m.Recipients = make([]users.ID, len(ids))
		for i, id := range ids {
			m.Recipients[i] = users.ID(id)
		}
	}
	return m, err
}

// recipientsJSON is the recipients column of m: NULL for a channel message.
func recipientsJSON(m messages.Scheduled) any {
	if m.Recipients == nil {
		return nil
	}
	list := make([]int64, len(m.Recipients))
	for i, id := range m.Recipients {
		list[i] = int64(id)
	}
	return jsonIDs(list)
}

func (a scheduledTx) Get(sender users.ID, id messages.ScheduledID) (messages.Scheduled, error) {
	list, err := scanAll(a.t, scanScheduled, "SELECT "+scheduledColumns+" FROM scheduled_messages WHERE id = ? AND sender_id = ?", id, sender)
	if err != nil {
		return messages.Scheduled{}, err
	}
	if len(list) == 0 {
		return messages.Scheduled{}, notFound("scheduled message", id)
	}
	return list[0], nil
}

func (a scheduledTx) ListPending(sender users.ID, kind messages.ScheduledKind) ([]messages.Scheduled, error) {
	list, err := scanAll(a.t, scanScheduled, "SELECT "+scheduledColumns+
		" FROM scheduled_messages WHERE sender_id = ? AND kind = ? AND NOT delivered ORDER BY deliver_at, id", sender, kind)
	if list == nil && err == nil {
		list = []messages.Scheduled{}
	}
	return list, err
}

func (a scheduledTx) NextDue() (int64, bool, error) {
	var at sql.NullInt64
	err := a.t.get("SELECT MIN(deliver_at) FROM scheduled_messages WHERE NOT delivered AND NOT failed", nil, &at)
	return at.Int64, at.Valid, err
}

func (a scheduledTx) Create(m messages.Scheduled) (messages.ScheduledID, error) {
	var id messages.ScheduledID
	err := a.t.get(`INSERT INTO scheduled_messages (kind, sender_id, channel_id, topic, recipients, content, rendered,
		deliver_at, read_by_sender, client, failed, failure_message, delivered, delivered_message_id, reminder_target_id,
		reminder_note) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
		[]any{m.Kind, m.SenderID, m.ChannelID, m.Topic, recipientsJSON(m), m.Content, m.Rendered, m.DeliverAt,
			m.ReadBySender, m.Client, m.Failed, m.FailureMessage, m.Delivered, m.DeliveredMessageID,
			m.ReminderTargetID, m.ReminderNote}, &id)
	if err != nil {
		return 0, fmt.Errorf("create scheduled message: %w", err)
	}
	return id, nil
}

func (a scheduledTx) Update(m messages.Scheduled) error {
	res, err := a.t.exec(`UPDATE scheduled_messages SET kind = ?, channel_id = ?, topic = ?, recipients = ?, content = ?,
		rendered = ?, deliver_at = ?, read_by_sender = ?, client = ?, failed = ?, failure_message = ?, delivered = ?,
		delivered_message_id = ?, reminder_target_id = ?, reminder_note = ? WHERE id = ? AND sender_id = ?`,
		m.Kind, m.ChannelID, m.Topic, recipientsJSON(m), m.Content, m.Rendered, m.DeliverAt, m.ReadBySender, m.Client,
		m.Failed, m.FailureMessage, m.Delivered, m.DeliveredMessageID, m.ReminderTargetID, m.ReminderNote, m.ID, m.SenderID)
	if err != nil {
		return err
	}
	return mustAffect(res, "scheduled message", m.ID)
}

func (a scheduledTx) Delete(sender users.ID, id messages.ScheduledID) error {
	res, err := a.t.exec("DELETE FROM scheduled_messages WHERE id = ? AND sender_id = ?", id, sender)
	if err != nil {
		return err
	}
	return mustAffect(res, "scheduled message", id)
}

// ClaimDue locks the rows it returns on PostgreSQL and skips rows another transaction holds;
// SQLite's single writer connection serialises every claim already.
func (a scheduledTx) ClaimDue(now int64, limit int) ([]messages.Scheduled, error) {
	q := a.t.claiming("SELECT " + scheduledColumns + " FROM scheduled_messages WHERE NOT delivered AND NOT failed AND deliver_at <= ?" +
		" ORDER BY deliver_at, id LIMIT ?")
	list, err := scanAll(a.t, scanScheduled, q, now, limit)
	if list == nil && err == nil {
		list = []messages.Scheduled{}
	}
	return list, err
}

// MarkDelivered updates every row in one statement: the two lists travel as two parameters
// (JSON arrays on SQLite, arrays on PostgreSQL) and are paired by position.
func (a scheduledTx) MarkDelivered(list []messages.ScheduledID, sent []messages.ID) error {
	if len(list) == 0 {
		return a.t.live()
	}
	pairs := "SELECT a.value AS id, b.value AS sent FROM json_each(?) AS a JOIN json_each(?) AS b ON a.key = b.key"
	if a.t.d.postgres {
		pairs = "SELECT unnest(CAST(? AS BIGINT[])) AS id, unnest(CAST(? AS BIGINT[])) AS sent"
	}
	_, err := a.t.exec("UPDATE scheduled_messages SET delivered = TRUE, delivered_message_id = v.sent FROM ("+pairs+
		") AS v WHERE scheduled_messages.id = v.id", ids(a.t.d, list), ids(a.t.d, sent))
	return err
}
