package sqlstore

import (
	"database/sql"
	"maps"
	"math"
	"slices"
	"strconv"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// A batch of MarkRead (MarkAllAsRead's transactions): the oldest unread rows above After,
// selected without enumerating the rest, marked read mostly by moving marks.

// explicitUnread is one of a user's unread explicit rows with what decides whether, read, it
// equals the implicit row it replaces.
type explicitUnread struct {
	id       messages.ID
	flags    messages.Flags
	channel  channels.ID // 0: a direct message
	implicit bool        // the message has implicit rows
}

// unreadBatch is the oldest unread rows of a batch: every id, the explicit rows, and the
// implicit ones of each channel.
type unreadBatch struct {
	ids      []messages.ID
	explicit []explicitUnread
	implicit map[channels.ID][]messages.ID
}

// markOldestRead marks the oldest q.Limit unread rows above q.After read. Every unread row up
// to the batch's newest id (last) being in the batch, each channel whose mark is at least
// q.After moves its mark to its newest message up to last, so its implicit rows need no
// write; a channel whose mark is below q.After (unread rows may remain under q.After) goes
// through SetFlags. The explicit rows that reading makes equal to the implicit ones under the
// new marks are deleted, the others gain the flag. Each selection reads at most Limit rows per
// arm: the explicit rows along the primary key, each interval along messages_implicit from
// above its mark.
func (a messageTx) markOldestRead(q storage.MarkReadQuery) ([]messages.ID, error) {
	rcv, err := a.receivingOf(q.User)
	if err != nil {
		return nil, err
	}
	if q.ChannelID != 0 {
		only := receiving{}
		if cr := rcv[q.ChannelID]; cr != nil {
			only[q.ChannelID] = cr
		}
		rcv = only
	}
	b, err := a.oldestUnread(q, rcv)
	if err != nil || len(b.ids) == 0 {
		return b.ids, err
	}
	last := messages.ID(math.MaxInt64)
	if len(b.ids) == q.Limit {
		last = b.ids[len(b.ids)-1]
	}
	var slow []messages.ID
	for _, c := range slices.Sorted(maps.Keys(rcv)) {
		cr := rcv[c]
		if cr.mark < q.After {
			slow = append(slow, b.implicit[c]...)
			continue
		}
		if cr.mark, err = a.raiseMark(q.User, c, cr.mark, last); err != nil {
			return nil, err
		}
	}
	var equal, gain []messages.ID
	for _, r := range b.explicit {
		// Read, the row is equal to the implicit one it replaces under the new marks.
		if f, ok := rcv.implicitRow(r.channel, r.id); ok && r.implicit && r.flags|messages.FlagRead == f {
			equal = append(equal, r.id)
		} else {
			gain = append(gain, r.id)
		}
	}
	if len(equal) > 0 {
		if _, err := a.t.exec("DELETE FROM user_messages WHERE user_id = ? AND message_id IN ("+a.t.d.idSet+")", q.User, ids(a.t.d, equal)); err != nil {
			return nil, err
		}
	}
	if err := a.readGaining(q, gain, b.ids[len(b.ids)-1]); err != nil {
		return nil, err
	}
	if len(slow) > 0 {
		if _, err := a.SetFlags(q.User, slow, messages.FlagRead, 0); err != nil {
			return nil, err
		}
	}
	return b.ids, nil
}

// readGaining sets the read flag on u's explicit rows of the messages in gain, the batch's
// explicit unread rows up to newest that stay: without a channel, every unread explicit row
// in (q.After, newest] is one of them, so the statement walks that range of the key.
func (a messageTx) readGaining(q storage.MarkReadQuery, gain []messages.ID, newest messages.ID) error {
	if len(gain) == 0 {
		return nil
	}
	if q.ChannelID == 0 {
		_, err := a.t.exec("UPDATE user_messages SET flags = flags | "+flagRead+` WHERE user_id = ? AND message_id > ? AND message_id <= ?
			AND (flags & `+flagRead+") = 0", q.User, q.After, newest)
		return err
	}
	_, err := a.t.exec("UPDATE user_messages SET flags = flags | "+flagRead+" WHERE user_id = ? AND message_id IN ("+
		a.t.d.idSet+")", q.User, ids(a.t.d, gain))
	return err
}

// oldestUnread selects the oldest q.Limit unread rows of q above q.After: the explicit ones,
// then each interval's implicit ones, the upper bound shrinking to the batch's newest id once
// the batch is full.
func (a messageTx) oldestUnread(q storage.MarkReadQuery, rcv receiving) (unreadBatch, error) {
	limit := " LIMIT " + strconv.Itoa(q.Limit)
	// The rows first, along the key, then their messages (a join first would let PostgreSQL
	// hash every message), unless the channel narrows the rows.
	rows := `SELECT um.message_id, um.flags FROM user_messages um
		WHERE um.user_id = ? AND (um.flags & ` + flagRead + `) = 0 AND um.message_id > ? ORDER BY um.message_id` + limit
	args := []any{q.User, q.After}
	if q.ChannelID != 0 {
		rows = `SELECT um.message_id, um.flags FROM user_messages um JOIN messages m ON m.id = um.message_id
			WHERE um.user_id = ? AND (um.flags & ` + flagRead + `) = 0 AND um.message_id > ? AND m.channel_id = ? ORDER BY um.message_id` + limit
		args = append(args, q.ChannelID)
	}
	explicit, err := scanAll(a.t, func(r *sql.Rows) (explicitUnread, error) {
		var x explicitUnread
		return x, r.Scan(&x.id, &x.flags, &x.channel, &x.implicit)
	}, `SELECT x.message_id, x.flags, COALESCE(m.channel_id, 0), m.implicit_rows
		FROM (`+rows+`) AS x JOIN messages m ON m.id = x.message_id ORDER BY x.message_id`, args...)
	if err != nil {
		return unreadBatch{}, err
	}
	b := unreadBatch{implicit: map[channels.ID][]messages.ID{}}
	for _, x := range explicit {
		b.ids = append(b.ids, x.id)
	}
	bound := func() messages.ID {
		if len(b.ids) < q.Limit {
			return math.MaxInt64
		}
		return b.ids[len(b.ids)-1]
	}
	owner := map[messages.ID]channels.ID{}
	for _, c := range slices.Sorted(maps.Keys(rcv)) {
		for _, span := range rcv[c].spans {
			if err := a.unreadOfSpan(q, c, max(span[0], rcv[c].mark, q.After), min(span[1], bound()), &b, owner); err != nil {
				return unreadBatch{}, err
			}
		}
	}
	if len(b.ids) == 0 {
		return unreadBatch{ids: []messages.ID{}}, nil
	}
	newest := b.ids[len(b.ids)-1]
	for _, x := range explicit {
		if x.id <= newest {
			b.explicit = append(b.explicit, x)
		}
	}
	for _, id := range b.ids {
		if c, ok := owner[id]; ok {
			b.implicit[c] = append(b.implicit[c], id)
		}
	}
	return b, nil
}

// unreadOfSpan adds to b the implicit unread rows of channel c with ids in (lo, hi], at most
// q.Limit of them, the oldest first, keeping b's q.Limit oldest; owner records their channel.
func (a messageTx) unreadOfSpan(q storage.MarkReadQuery, c channels.ID, lo, hi messages.ID, b *unreadBatch, owner map[messages.ID]channels.ID) error {
	if lo >= hi {
		return nil
	}
	got, err := scanAll(a.t, func(row *sql.Rows) (messages.ID, error) {
		var id messages.ID
		return id, row.Scan(&id)
	}, `SELECT m.id FROM messages m WHERE m.channel_id = ? AND m.implicit_rows AND m.id > ? AND m.id <= ?
		AND NOT EXISTS (SELECT 1 FROM user_messages x WHERE x.user_id = ? AND x.message_id = m.id)
		ORDER BY m.id LIMIT `+strconv.Itoa(q.Limit), c, lo, hi, q.User)
	if err != nil {
		return err
	}
	for _, id := range got {
		owner[id] = c
	}
	b.ids = append(b.ids, got...)
	slices.Sort(b.ids)
	b.ids = b.ids[:min(len(b.ids), q.Limit)]
	return nil
}

// raiseMark moves u's mark of c from old to c's newest message up to last, deletes u's
// explicit read rows the move makes equal to the implicit ones, and returns the mark.
func (a messageTx) raiseMark(u users.ID, c channels.ID, old, last messages.ID) (messages.ID, error) {
	var next sql.NullInt64
	if err := a.t.get("SELECT MAX(id) FROM messages WHERE channel_id = ? AND id <= ?", []any{c, last}, &next); err != nil {
		return 0, err
	}
	if !next.Valid || messages.ID(next.Int64) <= old {
		return old, nil
	}
	if err := a.setMark(u, c, next.Int64); err != nil {
		return 0, err
	}
	return messages.ID(next.Int64), a.dropReadBetween(u, c, int64(old), next.Int64)
}
