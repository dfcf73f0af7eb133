package sqlstore

import (
	"database/sql"
	"slices"

	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/users"
)

// The users' rows: explicit ones in user_messages, implicit ones derived (receivers.go).

// Rows and UserRows read a list of messages' rows as one range of ids when the ids lie close
// together (idranges.go).
func (a messageTx) Rows(list []messages.ID) ([]messages.UserMessage, error) {
	if len(list) == 0 {
		return nil, a.t.live()
	}
	cond, args, dense := a.listed(list)
	rows, err := scanAll(a.t, scanRow, "SELECT user_id, message_id, flags FROM ("+
		allRows("um.message_id "+cond, "m.id "+cond)+") AS r ORDER BY message_id, user_id", slices.Concat(args, args)...)
	return onlyListed(rows, err, list, dense, rowMessage)
}

// rowMessage is a row's message id (onlyListed).
func rowMessage(r *messages.UserMessage) messages.ID { return r.MessageID }

func (a messageTx) UserRows(u users.ID, list []messages.ID) ([]messages.UserMessage, error) {
	if len(list) == 0 {
		return nil, a.t.live()
	}
	cond, args, dense := a.listed(list)
	rows, err := scanAll(a.t, scanRow, "SELECT user_id, message_id, flags FROM ("+
		allRows("um.user_id = ? AND um.message_id "+cond, "ri.user_id = ? AND m.id "+cond)+
		") AS r ORDER BY message_id", slices.Concat([]any{u}, args, []any{u}, args)...)
	return onlyListed(rows, err, list, dense, rowMessage)
}

// UserRowsWhere reads the explicit rows with their flags, then the implicit ones in bulk
// (implicitRowsOf), and merges them.
func (a messageTx) UserRowsWhere(u users.ID, set, clear messages.Flags) ([]messages.UserMessage, error) {
	explicit, err := scanAll(a.t, scanRow, `SELECT user_id, message_id, flags FROM user_messages
		WHERE user_id = ? AND (flags & ?) = ? AND (flags & ?) = 0 ORDER BY message_id`,
		u, int64(set), int64(set), int64(clear))
	if err != nil {
		return nil, err
	}
	implicit, err := a.implicitRowsOf(u, set, clear)
	if err != nil {
		return nil, err
	}
	return mergeByMessage(explicit, implicit), nil
}

// MaxReceivedID takes the highest of the explicit rows and, per receive interval of the
// user, its newest implicit-rows message without an explicit row (implicit rows are never
// historical).
func (a messageTx) MaxReceivedID(u users.ID) (messages.ID, error) {
	var id messages.ID
	err := a.t.get(`SELECT COALESCE(MAX(x), 0) FROM (
		SELECT MAX(message_id) AS x FROM user_messages WHERE user_id = ? AND (flags & ?) = 0
		UNION ALL
		SELECT (SELECT m.id FROM messages m WHERE `+inInterval("ri", "m")+` AND m.implicit_rows
			AND NOT EXISTS (SELECT 1 FROM user_messages e WHERE e.user_id = ri.user_id AND e.message_id = m.id)
			ORDER BY m.id DESC LIMIT 1) AS x
		FROM receive_intervals ri WHERE ri.user_id = ?) AS r`,
		[]any{u, int64(messages.FlagHistorical), u}, &id)
	return id, err
}

// SetFlags first deletes u's explicit rows whose new flags equal the implicit rows they
// replace, then makes the implicit rows that change explicit, then updates the explicit rows.
func (a messageTx) SetFlags(u users.ID, list []messages.ID, add, remove messages.Flags) ([]messages.ID, error) {
	changed := []messages.ID{}
	if len(list) == 0 {
		return changed, a.t.live()
	}
	set := ids(a.t.d, list)
	dropped, err := a.dropEqual(u, list, add, remove)
	if err != nil {
		return nil, err
	}
	if _, err := a.t.exec(`INSERT INTO user_messages (user_id, message_id, flags)
		SELECT user_id, message_id, flags FROM (`+implicitRows("ri.user_id = ? AND m.id IN ("+a.t.d.idSet+")")+`) AS x
		WHERE ((x.flags | ?) & ~CAST(? AS BIGINT)) <> x.flags`, u, set, int64(add), int64(remove)); err != nil {
		return nil, err
	}
	found, err := scanAll(a.t, func(row *sql.Rows) (messages.ID, error) {
		var id messages.ID
		return id, row.Scan(&id)
	}, `UPDATE user_messages SET flags = (flags | ?) & ~CAST(? AS BIGINT)
		WHERE user_id = ? AND message_id IN (`+a.t.d.idSet+`) AND ((flags | ?) & ~CAST(? AS BIGINT)) <> flags
		RETURNING message_id`,
		int64(add), int64(remove), u, set, int64(add), int64(remove))
	if err != nil {
		return nil, err
	}
	if add&messages.FlagRead != 0 {
		cs, err := a.implicitChannels(list)
		if err != nil {
			return nil, err
		}
		if err := a.advanceMarks(u, cs); err != nil {
			return nil, err
		}
	}
	found = append(found, dropped...)
	slices.Sort(found)
	return append(changed, slices.Compact(found)...), nil
}

// dropEqual deletes u's explicit rows of the messages in list whose flags, once add and
// remove applied, equal the implicit rows they replace, and returns the ids of those whose
// flags that changed.
func (a messageTx) dropEqual(u users.ID, list []messages.ID, add, remove messages.Flags) ([]messages.ID, error) {
	type dropped struct {
		id    messages.ID
		flags messages.Flags
	}
	rows, err := scanAll(a.t, func(row *sql.Rows) (dropped, error) {
		var d dropped
		return d, row.Scan(&d.id, &d.flags)
	}, `DELETE FROM user_messages WHERE user_id = ? AND message_id IN (`+a.t.d.idSet+`)
		AND EXISTS (SELECT 1 FROM messages m JOIN receive_intervals ri ON ri.user_id = user_messages.user_id AND `+inInterval("ri", "m")+`
			LEFT JOIN read_marks rm ON rm.user_id = user_messages.user_id AND rm.channel_id = m.channel_id
			WHERE m.id = user_messages.message_id AND m.implicit_rows
			AND ((user_messages.flags | ?) & ~CAST(? AS BIGINT)) = `+implicitFlags("m", "rm")+`)
		RETURNING message_id, flags`, u, ids(a.t.d, list), int64(add), int64(remove))
	if err != nil {
		return nil, err
	}
	var out []messages.ID
	for _, d := range rows {
		if (d.flags|add)&^remove != d.flags {
			out = append(out, d.id)
		}
	}
	return out, nil
}

func (a messageTx) PutRows(rows []messages.UserMessage) error {
	if len(rows) == 0 {
		return a.t.live()
	}
	msgIDs := make([]messages.ID, len(rows))
	who := make([]users.ID, len(rows))
	for i, r := range rows {
		msgIDs[i], who[i] = r.MessageID, r.UserID
	}
	msgIDs = sortedUnique(msgIDs)
	var n int
	if err := a.t.get("SELECT COUNT(*) FROM messages WHERE id IN ("+a.t.d.idSet+")", []any{ids(a.t.d, msgIDs)}, &n); err != nil {
		return err
	}
	if n != len(msgIDs) {
		return notFound("message in", msgIDs)
	}
	if err := a.upsertRows(rows); err != nil {
		return err
	}
	return a.normalize(sortedUnique(who), msgIDs)
}

// DeleteRows removes the rows in one statement, after making the implicit rows of the
// messages explicit.
func (a messageTx) DeleteRows(us []users.ID, list []messages.ID) error {
	if len(us) == 0 || len(list) == 0 {
		return a.t.live()
	}
	if err := a.materialize(list); err != nil {
		return err
	}
	_, err := a.t.exec("DELETE FROM user_messages WHERE user_id IN ("+a.t.d.idSet+") AND message_id IN ("+a.t.d.idSet+")",
		ids(a.t.d, us), ids(a.t.d, list))
	return err
}

// topicsWithRows is the statement of the newest message per topic of a channel among those
// the user has a row for (explicit, or implicit).
func topicsWithRows() string {
	return `SELECT MAX(m.id) FROM messages m WHERE m.channel_id = ?
		AND (EXISTS (SELECT 1 FROM user_messages um WHERE um.user_id = ? AND um.message_id = m.id)
			OR (m.implicit_rows AND EXISTS (SELECT 1 FROM receive_intervals ri WHERE ri.user_id = ? AND ` + inInterval("ri", "m") + `)))
		GROUP BY m.topic_key`
}
