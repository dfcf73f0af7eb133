package sqlstore

import (
	"database/sql"
	"slices"

	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/topics"
)

// Query reads the candidate messages in id order (the user's rows joined on; the searches
// and the non-negated channel/topic/sender/id terms pushed into SQL), applies messages.Match
// with the other terms to each and stops at Limit. It reads in rounds of a bounded number of
// rows, each continuing after the last id the previous one read, so that the database plans
// for a LIMIT (PostgreSQL then walks an index in id order instead of sorting every match);
// a round grows fourfold while messages.Match keeps refusing rows. With a search on SQLite the
// FTS5 index drives the walk (it yields its matches in id order). The user's receive
// intervals and read marks are read once, before the rounds, to tell the implicit rows.
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
	rcv, err := a.receivingOf(q.User)
	if err != nil {
		return nil, err
	}
	round := max(q.Limit, 100)
	for {
		read, last, err := a.queryRound(q, plan, rcv, round, &out)
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
// q.Limit in all) and returns how many rows it read and the id of the last. A message
// without an explicit row of the user is read when it is in a history channel or when it has
// implicit rows and one of the user's intervals holds it (tested against the intervals' bounds
// as parameters, or with a subquery per message when the user has many); rcv then tells its
// implicit row.
func (a messageTx) queryRound(q storage.MessageQuery, plan searchPlan, rcv receiving, limit int, out *[]storage.MessageMatch) (int, messages.ID, error) {
	id := "m.id"
	from := "messages m"
	if len(plan.positive) > 0 && !a.t.d.postgres {
		id, from = "s.rowid", "message_search s CROSS JOIN messages m ON m.id = s.rowid"
	}
	args := []any{q.User}
	where := a.pushedTerms(id, q, plan, rcv, &args)
	order := "ASC"
	if q.Newest {
		order = "DESC"
	}
	// rowFlags is the explicit row's flags, -1 for a message with implicit rows without one
	// (rcv tells whether the user has an implicit row), NULL for neither.
	columns := messageColumns + ", COALESCE(um.flags, CASE WHEN m.implicit_rows THEN -1 END)"
	reactions := messages.NeedsReactions(plan.rest)
	if reactions {
		columns += ", EXISTS (SELECT 1 FROM reactions r WHERE r.message_id = m.id)"
	}
	rows, err := a.t.query(`SELECT `+columns+`
		FROM `+from+` LEFT JOIN user_messages um ON um.message_id = m.id AND um.user_id = ?
		WHERE `+where+` ORDER BY `+id+` `+order+` LIMIT ?`, append(args, limit)...)
	if err != nil {
		return 0, 0, err
	}
	defer rows.Close()
	read, last := 0, messages.ID(0)
	for rows.Next() {
		var rowFlags sql.NullInt64
		var reacted bool
		dest := []any{&rowFlags, &reacted}
		if !reactions {
			dest = dest[:1]
		}
		m, err := scanMessageInto(rows, dest...)
		if err != nil {
			return 0, 0, a.t.check(err)
		}
		read, last = read+1, m.ID
		f, received := messages.Flags(rowFlags.Int64), rowFlags.Valid
		if rowFlags.Int64 < 0 {
			f, received = rcv.implicitRow(m.ChannelID, m.ID)
		}
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
// with its parameters appended to args: the bounds, the user's access (a row, explicit or
// implicit, or a history channel; the terms that cannot hold left out), the searches and the
// non-negated channel, topic, sender and id terms (messages.Match checks these again).
func (a messageTx) pushedTerms(id string, q storage.MessageQuery, plan searchPlan, rcv receiving, args *[]any) string {
	where := id + " >= ? AND (um.user_id IS NOT NULL"
	*args = append(*args, q.MinID)
	if len(q.HistoryChannels) > 0 {
		where += " OR (m.channel_id <> 0 AND m.channel_id IN (" + a.t.d.idSet + "))"
		*args = append(*args, ids(a.t.d, q.HistoryChannels))
	}
	if test, ok := rcv.holdsSQL(a.t.inlineSpans, args); ok {
		where += " OR (m.implicit_rows AND " + test + ")"
	} else if len(rcv) > 0 {
		where += " OR (m.implicit_rows AND EXISTS (SELECT 1 FROM receive_intervals ri WHERE ri.user_id = ? AND " + inInterval("ri", "m") + "))"
		*args = append(*args, q.User)
	}
	where += ")"
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
