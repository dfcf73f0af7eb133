package sqlstore

import (
	"database/sql"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/users"
)

// A user's implicit rows read in bulk (receivers.go has the model). Reading 50,000 of them as
// 50,000 result rows costs the driver more than the walk of the index does, and testing each
// message for an explicit row of the user is a probe of user_messages per message; instead
// one statement walks the partial index messages_implicit over each interval's range of ids
// (bounded on both sides, so a closed interval stops at its end) and aggregates the ids into
// a string, and a second reads the user's explicit rows over the ids found, as one range of
// the primary key; Go parses, removes the replaced ones and merges.

// implicitRowsOf returns u's implicit rows whose flags include all of set and none of clear
// (only FlagRead can be in either, the implicit rows carrying no other), none of them replaced
// by an explicit row, ascending by message id.
func (a messageTx) implicitRowsOf(u users.ID, set, clear messages.Flags) ([]messages.UserMessage, error) {
	if set&^messages.FlagRead != 0 || set&clear != 0 {
		return nil, nil
	}
	mark := "COALESCE(rm.read_through, 0)"
	lo, hi := "ri.after_id", "COALESCE(ri.through_id, "+strconv.FormatInt(math.MaxInt64, 10)+")"
	if clear&messages.FlagRead != 0 {
		lo = a.t.d.greatest(lo, mark)
	}
	if set&messages.FlagRead != 0 {
		hi = a.t.d.least(hi, mark)
	}
	var read, unread string
	if err := a.t.get(`SELECT COALESCE(`+a.t.d.idList("CASE WHEN m.id <= "+mark+" THEN m.id END")+`, ''),
			COALESCE(`+a.t.d.idList("CASE WHEN m.id > "+mark+" THEN m.id END")+`, '')
		FROM receive_intervals ri LEFT JOIN read_marks rm ON rm.user_id = ri.user_id AND rm.channel_id = ri.channel_id
		JOIN messages m ON m.channel_id = ri.channel_id AND m.id > `+lo+` AND m.id <= `+hi+`
		WHERE ri.user_id = ? AND m.implicit_rows`, []any{u}, &read, &unread); err != nil {
		return nil, err
	}
	readIDs, err := parseIDs(read)
	if err != nil {
		return nil, err
	}
	unreadIDs, err := parseIDs(unread)
	if err != nil {
		return nil, err
	}
	if len(readIDs)+len(unreadIDs) == 0 {
		return nil, nil
	}
	first, last := idRange(readIDs, unreadIDs)
	var explicit string
	if err := a.t.get(`SELECT COALESCE(`+a.t.d.idList("message_id")+`, '') FROM user_messages
		WHERE user_id = ? AND message_id >= ? AND message_id <= ?`, []any{u, first, last}, &explicit); err != nil {
		return nil, err
	}
	replaced, err := parseIDs(explicit)
	if err != nil {
		return nil, err
	}
	return mergeRows(u, without(readIDs, replaced), without(unreadIDs, replaced), messages.FlagRead), nil
}

// idList is the aggregate of the ids of expr as a string of decimal ids separated by commas
// (NULL when none, NULLs skipped).
func (d *dialect) idList(expr string) string {
	if d.postgres {
		return "string_agg(CAST(" + expr + " AS TEXT), ',')"
	}
	return "group_concat(" + expr + ", ',')"
}

// greatest and least are the larger and the smaller of two integer expressions.
func (d *dialect) greatest(x, y string) string {
	if d.postgres {
		return "GREATEST(" + x + ", " + y + ")"
	}
	return "MAX(" + x + ", " + y + ")"
}

func (d *dialect) least(x, y string) string {
	if d.postgres {
		return "LEAST(" + x + ", " + y + ")"
	}
	return "MIN(" + x + ", " + y + ")"
}

// parseIDs parses an idList into ascending ids (the aggregate's order is not promised).
func parseIDs(s string) ([]messages.ID, error) {
	if s == "" {
		return nil, nil
	}
	out := make([]messages.ID, 0, len(s)/6+1)
	var n int64
	digits := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == ',' {
			if digits == 0 {
				return nil, fmt.Errorf("sqlstore: empty id in list at %d", i)
			}
			out = append(out, messages.ID(n))
			n, digits = 0, 0
			continue
		}
		c := s[i]
		if c < '0' || c > '9' || digits == 18 {
			return nil, fmt.Errorf("sqlstore: bad id in list at %d", i)
		}
		n, digits = n*10+int64(c-'0'), digits+1
	}
	if !slices.IsSorted(out) {
		slices.Sort(out)
	}
	return out, nil
}

// idRange returns the lowest and highest id of two ascending lists, not both empty.
func idRange(x, y []messages.ID) (messages.ID, messages.ID) {
	switch {
	case len(x) == 0:
		return y[0], y[len(y)-1]
	case len(y) == 0:
		return x[0], x[len(x)-1]
	}
	return min(x[0], y[0]), max(x[len(x)-1], y[len(y)-1])
}

// without returns the ids of list (ascending) that are not in drop (ascending), in place.
func without(list, drop []messages.ID) []messages.ID {
	if len(drop) == 0 {
		return list
	}
	out, j := list[:0], 0
	for _, id := range list {
		for j < len(drop) && drop[j] < id {
			j++
		}
		if j < len(drop) && drop[j] == id {
			continue
		}
		out = append(out, id)
	}
	return out
}

// mergeRows returns u's rows of the ascending lists withFlags (flags f) and without (no
// flags), ascending by message id.
func mergeRows(u users.ID, withFlags, without []messages.ID, f messages.Flags) []messages.UserMessage {
	out := make([]messages.UserMessage, 0, len(withFlags)+len(without))
	i, j := 0, 0
	for i < len(withFlags) || j < len(without) {
		if j == len(without) || (i < len(withFlags) && withFlags[i] < without[j]) {
			out = append(out, messages.UserMessage{UserID: u, MessageID: withFlags[i], Flags: f})
			i++
			continue
		}
		out = append(out, messages.UserMessage{UserID: u, MessageID: without[j]})
		j++
	}
	return out
}

// mergeByMessage merges two lists of one user's rows, each ascending by message id.
func mergeByMessage(x, y []messages.UserMessage) []messages.UserMessage {
	if len(x) == 0 {
		return y
	}
	if len(y) == 0 {
		return x
	}
	out := make([]messages.UserMessage, 0, len(x)+len(y))
	i, j := 0, 0
	for i < len(x) || j < len(y) {
		if j == len(y) || (i < len(x) && x[i].MessageID <= y[j].MessageID) {
			out = append(out, x[i])
			i++
			continue
		}
		out = append(out, y[j])
		j++
	}
	return out
}

// receiving is what a user's implicit rows derive from: the receive intervals and read marks
// of each channel, read once for a walk of messages (Query) that then tells each message's
// implicit row in Go instead of two subqueries per message.
type receiving map[channels.ID]*channelReceiving

type channelReceiving struct {
	spans [][2]messages.ID // (after, through]; through math.MaxInt64 while open
	mark  messages.ID
}

// receivingOf reads u's intervals and marks.
func (a messageTx) receivingOf(u users.ID) (receiving, error) {
	type span struct {
		c              channels.ID
		after, through messages.ID
		mark           messages.ID
	}
	list, err := scanAll(a.t, func(row *sql.Rows) (span, error) {
		var s span
		return s, row.Scan(&s.c, &s.after, &s.through, &s.mark)
	}, `SELECT ri.channel_id, ri.after_id, COALESCE(ri.through_id, `+strconv.FormatInt(math.MaxInt64, 10)+`), COALESCE(rm.read_through, 0)
		FROM receive_intervals ri LEFT JOIN read_marks rm ON rm.user_id = ri.user_id AND rm.channel_id = ri.channel_id
		WHERE ri.user_id = ?`, u)
	if err != nil {
		return nil, err
	}
	r := receiving{}
	for _, s := range list {
		cr := r[s.c]
		if cr == nil {
			cr = &channelReceiving{mark: s.mark}
			r[s.c] = cr
		}
		cr.spans = append(cr.spans, [2]messages.ID{s.after, s.through})
	}
	return r, nil
}

// implicitRow tells whether the user has an implicit row of message id of channel c (one
// stored with implicit rows and without an explicit row of the user), and its flags.
func (r receiving) implicitRow(c channels.ID, id messages.ID) (messages.Flags, bool) {
	cr := r[c]
	if cr == nil {
		return 0, false
	}
	for _, s := range cr.spans {
		if s[0] < id && id <= s[1] {
			if id <= cr.mark {
				return messages.FlagRead, true
			}
			return 0, true
		}
	}
	return 0, false
}

// defaultInlineSpans is how many receive intervals a walk of messages tests as literal bounds
// (holdsSQL): a CASE on the channel costs a few comparisons per message where the subquery
// costs a search of receive_intervals, until the comparisons add up.
const defaultInlineSpans = 16

// inlineSpans is the Store's maxInlineSpans, the default for 0.
func (s *Store) inlineSpans() int {
	if s.maxInlineSpans == 0 {
		return defaultInlineSpans
	}
	return s.maxInlineSpans
}

// holdsSQL is the condition that one of r's intervals holds message m, as a CASE on the
// channel over the intervals' bounds (appended to args), channels in order so that the text
// depends only on the shape; false when r has no interval or more than limit.
func (r receiving) holdsSQL(limit int, args *[]any) (string, bool) {
	n := 0
	for _, cr := range r {
		n += len(cr.spans)
	}
	if n == 0 || n > limit {
		return "", false
	}
	list := slices.Sorted(maps.Keys(r))
	var b strings.Builder
	b.WriteString("CASE m.channel_id")
	for _, c := range list {
		b.WriteString(" WHEN ? THEN (")
		*args = append(*args, c)
		for i, s := range r[c].spans {
			if i > 0 {
				b.WriteString(" OR ")
			}
			if s[1] == math.MaxInt64 {
				b.WriteString("m.id > ?")
				*args = append(*args, s[0])
				continue
			}
			b.WriteString("(m.id > ? AND m.id <= ?)")
			*args = append(*args, s[0], s[1])
		}
		b.WriteString(")")
	}
	b.WriteString(" ELSE FALSE END")
	return b.String(), true
}
