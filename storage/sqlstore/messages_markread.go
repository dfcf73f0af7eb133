package sqlstore

import (
	"database/sql"
	"slices"
	"strconv"

	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/topics"
	"github.com/teamchat/chat/users"
)

// MarkRead selects the unread rows, explicit and implicit, then marks them read:
//   - a batch (Limit, no topic) walks the explicit rows and each receive interval from its
//     mark, oldest first, and moves the marks over what it read (markOldestRead);
//   - a whole channel (or every message) moves each mark to its channel's newest message and
//     sets the flag on the explicit rows only (deleting those it makes equal to the implicit
//     ones);
//   - a topic goes through SetFlags.
func (a messageTx) MarkRead(q storage.MarkReadQuery) ([]messages.ID, error) {
	if q.Limit > 0 && q.Topic == nil {
		return a.markOldestRead(q)
	}
	found, explicit, err := a.unreadRows(q)
	if err != nil {
		return nil, err
	}
	slices.Sort(found)
	if len(found) == 0 {
		return []messages.ID{}, nil
	}
	if q.Topic != nil || q.After != 0 || q.Limit > 0 {
		if _, err := a.SetFlags(q.User, found, messages.FlagRead, 0); err != nil {
			return nil, err
		}
		return found, nil
	}
	// Every implicit row of the channels becomes read: each mark moves to its channel's newest
	// message (the found ones included, the snapshot being the transaction's).
	where, args := "ri.user_id = ?", []any{q.User}
	if q.ChannelID != 0 {
		where, args = where+" AND ri.channel_id = ?", append(args, q.ChannelID)
	}
	if _, err := a.t.exec(`INSERT INTO read_marks (user_id, channel_id, read_through)
		SELECT x.user_id, x.channel_id, x.top FROM (SELECT DISTINCT ri.user_id, ri.channel_id,
			(SELECT MAX(m.id) FROM messages m WHERE m.channel_id = ri.channel_id) AS top
			FROM receive_intervals ri WHERE `+where+`) AS x WHERE x.top IS NOT NULL
		ON CONFLICT (user_id, channel_id) DO UPDATE SET read_through = CASE
			WHEN excluded.read_through > read_marks.read_through THEN excluded.read_through ELSE read_marks.read_through END`,
		args...); err != nil {
		return nil, err
	}
	return found, a.readExplicit(q.User, explicit)
}

// readExplicit sets the read flag on u's explicit rows of the messages in list, after
// deleting those it makes equal to the implicit rows they replace.
func (a messageTx) readExplicit(u users.ID, list []messages.ID) error {
	if len(list) == 0 {
		return nil
	}
	dropped, err := a.dropEqual(u, list, messages.FlagRead, 0)
	if err != nil || len(dropped) == len(list) {
		return err
	}
	_, err = a.t.exec("UPDATE user_messages SET flags = flags | "+flagRead+" WHERE user_id = ? AND message_id IN ("+
		a.t.d.idSet+")", u, ids(a.t.d, list))
	return err
}

// unreadRows returns the message ids of the unread rows q selects (the oldest first, at most
// q.Limit), and those of them that are explicit.
func (a messageTx) unreadRows(q storage.MarkReadQuery) (found, explicit []messages.ID, err error) {
	exWhere := "um.user_id = ? AND (um.flags & " + flagRead + ") = 0"
	imWhere := "ri.user_id = ? AND " + aboveMark(a.t.d)
	exArgs, imArgs := []any{q.User}, []any{q.User}
	exFrom := "user_messages um"
	if q.After != 0 {
		exWhere, imWhere = exWhere+" AND um.message_id > ?", imWhere+" AND m.id > ?"
		exArgs, imArgs = append(exArgs, q.After), append(imArgs, q.After)
	}
	if q.ChannelID != 0 {
		exFrom += " JOIN messages m ON m.id = um.message_id"
		exWhere, imWhere = exWhere+" AND m.channel_id = ?", imWhere+" AND m.channel_id = ?"
		exArgs, imArgs = append(exArgs, q.ChannelID), append(imArgs, q.ChannelID)
		if q.Topic != nil {
			key := topics.Key(*q.Topic)
			exWhere, imWhere = exWhere+" AND m.topic_key = ?", imWhere+" AND m.topic_key = ?"
			exArgs, imArgs = append(exArgs, key), append(imArgs, key)
		}
	}
	limit := ""
	if q.Limit > 0 {
		limit = " LIMIT " + strconv.Itoa(q.Limit)
	}
	type unread struct {
		id       messages.ID
		explicit bool
	}
	list, err := scanAll(a.t, func(row *sql.Rows) (unread, error) {
		var r unread
		return r, row.Scan(&r.id, &r.explicit)
	}, `SELECT id, explicit FROM (
		SELECT um.message_id AS id, 1 AS explicit FROM `+exFrom+` WHERE `+exWhere+`
		UNION ALL
		SELECT message_id AS id, 0 AS explicit FROM (`+implicitRows(imWhere)+`) AS i) AS r
		ORDER BY id`+limit, append(exArgs, imArgs...)...)
	if err != nil {
		return nil, nil, err
	}
	for _, r := range list {
		found = append(found, r.id)
		if r.explicit {
			explicit = append(explicit, r.id)
		}
	}
	return found, explicit, nil
}
