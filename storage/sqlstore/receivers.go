package sqlstore

import (
	"database/sql"
	"slices"
	"strconv"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/users"
)

// Implicit rows (storage/receivers.go; migration 0193). A message with implicit_rows has a row
// for every user whose receive interval of its channel holds its id, read when the id is at
// most the user's read mark of the channel, unless user_messages holds an explicit row of the
// user, which replaces it. The statements below derive those rows in SQL, keep the intervals
// in step with who receives a channel, and keep what is stored sparse: marks move forward over
// read messages, and explicit rows equal to the implicit ones are deleted.

// flagRead is messages.FlagRead as an SQL literal.
var flagRead = strconv.FormatInt(int64(messages.FlagRead), 10)

// inInterval is the condition that interval ri (of the same user) holds message m.
func inInterval(ri, m string) string {
	return ri + ".channel_id = " + m + ".channel_id AND " + ri + ".after_id < " + m + ".id AND (" +
		ri + ".through_id IS NULL OR " + m + ".id <= " + ri + ".through_id)"
}

// implicitFlags is the flags of an implicit row of message m under read mark rm (LEFT JOINed).
func implicitFlags(m, rm string) string {
	return "CASE WHEN " + m + ".id <= COALESCE(" + rm + ".read_through, 0) THEN " + flagRead + " ELSE 0 END"
}

// implicitRows selects (user_id, message_id, flags) of the implicit rows that no explicit row
// replaces, narrowed by where (on m, messages; ri, receive_intervals; rm, read_marks).
func implicitRows(where string) string {
	return `SELECT ri.user_id AS user_id, m.id AS message_id, ` + implicitFlags("m", "rm") + ` AS flags
		FROM receive_intervals ri LEFT JOIN read_marks rm ON rm.user_id = ri.user_id AND rm.channel_id = ri.channel_id
		JOIN messages m ON ` + inInterval("ri", "m") + `
		WHERE m.implicit_rows AND ` + where + `
		AND NOT EXISTS (SELECT 1 FROM user_messages x WHERE x.user_id = ri.user_id AND x.message_id = m.id)`
}

// aboveMark is the condition (for implicitRows' where) that the implicit row is above the
// mark, unread: one lower bound on m.id, so that the walk of the channel's messages starts there.
func aboveMark(d *dialect) string {
	greatest := "MAX"
	if d.postgres {
		greatest = "GREATEST"
	}
	return "m.id > " + greatest + "(ri.after_id, COALESCE(rm.read_through, 0))"
}

// allRows selects (user_id, message_id, flags) of the explicit rows (um, narrowed by explicit)
// and the implicit ones (narrowed by implicit, see implicitRows).
func allRows(explicit, implicit string) string {
	return `SELECT um.user_id AS user_id, um.message_id AS message_id, um.flags AS flags
		FROM user_messages um WHERE ` + explicit + ` UNION ALL ` + implicitRows(implicit)
}

// highestMessageID is an expression for the highest message id assigned so far: on
// PostgreSQL the sequence's too, since a transaction in flight may hold a higher one.
func highestMessageID(d *dialect) string {
	if !d.postgres {
		return "(SELECT COALESCE(MAX(id), 0) FROM messages)"
	}
	return `GREATEST((SELECT COALESCE(MAX(id), 0) FROM messages),
		COALESCE(pg_sequence_last_value(CAST(pg_get_serial_sequence('messages', 'id') AS regclass)), 0))`
}

// receivingSQL is the condition that the user and channel of table alias a receive it.
func receivingSQL(a string) string {
	return `EXISTS (SELECT 1 FROM subscriptions s JOIN users u ON u.id = s.user_id
		WHERE s.user_id = ` + a + `.user_id AND s.channel_id = ` + a + `.channel_id AND s.active AND u.is_active)`
}

// syncIntervals closes the open intervals of the (user, channel) pairs that where selects
// (a condition on columns user_id and channel_id of the alias it is given) and whose user no
// longer receives the channel, and opens one for those who receive it without one: set-based
// statements, run where the subscriber counts are recomputed.
func syncIntervals(t *txn, where func(alias string) string, args ...any) error {
	high := highestMessageID(t.d)
	if _, err := t.exec(`UPDATE receive_intervals SET through_id = `+high+`
		WHERE through_id IS NULL AND `+where("receive_intervals")+` AND NOT `+receivingSQL("receive_intervals"), args...); err != nil {
		return err
	}
	if _, err := t.exec(`DELETE FROM receive_intervals WHERE through_id IS NOT NULL AND through_id <= after_id AND `+
		where("receive_intervals"), args...); err != nil {
		return err
	}
	_, err := t.exec(`INSERT INTO receive_intervals (user_id, channel_id, after_id)
		SELECT s.user_id, s.channel_id, `+high+` FROM subscriptions s JOIN users u ON u.id = s.user_id
		WHERE s.active AND u.is_active AND `+where("s")+` AND NOT EXISTS (SELECT 1 FROM receive_intervals r
			WHERE r.user_id = s.user_id AND r.channel_id = s.channel_id AND r.through_id IS NULL)`, args...)
	return err
}

// materialize gives the implicit-rows messages among list an explicit row for each of their
// implicit rows and marks them explicit (before their rows are deleted or they move).
func (a messageTx) materialize(list []messages.ID) error {
	set := ids(a.t.d, list)
	if _, err := a.t.exec(`INSERT INTO user_messages (user_id, message_id, flags)
		SELECT user_id, message_id, flags FROM (`+implicitRows("m.id IN ("+a.t.d.idSet+")")+`) AS x`, set); err != nil {
		return err
	}
	_, err := a.t.exec("UPDATE messages SET implicit_rows = FALSE WHERE implicit_rows AND id IN ("+a.t.d.idSet+")", set)
	return err
}

// normalize deletes the explicit rows of the given users for the given messages that equal
// the implicit rows they replace.
func (a messageTx) normalize(us []users.ID, list []messages.ID) error {
	_, err := a.t.exec(`DELETE FROM user_messages WHERE user_id IN (`+a.t.d.idSet+`) AND message_id IN (`+a.t.d.idSet+`)
		AND EXISTS (SELECT 1 FROM messages m JOIN receive_intervals ri ON ri.user_id = user_messages.user_id AND `+inInterval("ri", "m")+`
			LEFT JOIN read_marks rm ON rm.user_id = user_messages.user_id AND rm.channel_id = m.channel_id
			WHERE m.id = user_messages.message_id AND m.implicit_rows AND user_messages.flags = `+implicitFlags("m", "rm")+`)`,
		ids(a.t.d, us), ids(a.t.d, list))
	return err
}

// implicitChannels returns the channels of the implicit-rows messages among list.
func (a messageTx) implicitChannels(list []messages.ID) ([]channels.ID, error) {
	return scanAll(a.t, func(row *sql.Rows) (channels.ID, error) {
		var c channels.ID
		return c, row.Scan(&c)
	}, "SELECT DISTINCT channel_id FROM messages WHERE implicit_rows AND id IN ("+a.t.d.idSet+") ORDER BY channel_id", ids(a.t.d, list))
}

// unreadRowOf is the condition that user (the placeholder, three times) has an unread row
// for message m.
func unreadRowOf(m string) string {
	return `(EXISTS (SELECT 1 FROM user_messages x WHERE x.user_id = ? AND x.message_id = ` + m + `.id AND (x.flags & ` + flagRead + `) = 0)
		OR (` + m + `.implicit_rows AND NOT EXISTS (SELECT 1 FROM user_messages x WHERE x.user_id = ? AND x.message_id = ` + m + `.id)
			AND EXISTS (SELECT 1 FROM receive_intervals ri WHERE ri.user_id = ? AND ` + inInterval("ri", m) + `)))`
}

// advanceMarks moves u's read marks of the channels forward over the run of messages above
// each that u has no unread row for, and deletes u's explicit rows the moves made equal to
// the implicit ones.
func (a messageTx) advanceMarks(u users.ID, list []channels.ID) error {
	for _, c := range list {
		var old, next int64
		err := a.t.get(`SELECT o.mark, COALESCE((SELECT m.id - 1 FROM messages m WHERE m.channel_id = ? AND m.id > o.mark
				AND `+unreadRowOf("m")+` ORDER BY m.id LIMIT 1),
			(SELECT COALESCE(MAX(id), 0) FROM messages WHERE channel_id = ?))
			FROM (SELECT COALESCE((SELECT read_through FROM read_marks WHERE user_id = ? AND channel_id = ?), 0) AS mark) AS o`,
			[]any{c, u, u, u, c, u, c}, &old, &next)
		if err != nil {
			return err
		}
		if next <= old {
			continue
		}
		if err := a.setMark(u, c, next); err != nil {
			return err
		}
		if err := a.dropReadBetween(u, c, old, next); err != nil {
			return err
		}
	}
	return nil
}

// dropReadBetween deletes u's explicit rows of c's implicit-rows messages in (old, next]
// that hold the read flag alone: below the mark, the implicit rows they replace are the same.
func (a messageTx) dropReadBetween(u users.ID, c channels.ID, old, next int64) error {
	_, err := a.t.exec(`DELETE FROM user_messages WHERE user_id = ? AND flags = `+flagRead+` AND message_id > ? AND message_id <= ?
		AND EXISTS (SELECT 1 FROM messages m JOIN receive_intervals ri ON ri.user_id = user_messages.user_id AND `+inInterval("ri", "m")+`
			WHERE m.id = user_messages.message_id AND m.channel_id = ? AND m.implicit_rows)`, u, old, next, c)
	return err
}

// setMark raises u's read mark of c to mark (a lower mark stays).
func (a messageTx) setMark(u users.ID, c channels.ID, mark int64) error {
	_, err := a.t.exec(`INSERT INTO read_marks (user_id, channel_id, read_through) VALUES (?, ?, ?)
		ON CONFLICT (user_id, channel_id) DO UPDATE SET read_through = CASE
			WHEN excluded.read_through > read_marks.read_through THEN excluded.read_through ELSE read_marks.read_through END`, u, c, mark)
	return err
}

// sortedUnique returns list sorted without duplicates.
func sortedUnique[T int64 | messages.ID | users.ID | channels.ID](list []T) []T {
	list = slices.Clone(list)
	slices.Sort(list)
	return slices.Compact(list)
}
