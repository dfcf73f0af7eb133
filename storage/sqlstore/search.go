package sqlstore

import (
	"database/sql"
	"slices"
	"strconv"
	"strings"

	"github.com/teamchat/chat/messages"
)

// Full-text search. Words are stemmed in Go (messages.SearchDoc), so that every backend
// matches exactly what messages.Search.Matches decides; the database only indexes the stems.
//
//   - SQLite: the FTS5 table message_search (rowid = message id; columns topic and content,
//     each the stems joined by spaces). A phrase is an FTS5 phrase (adjacent tokens within
//     one column); words are ANDed across both columns. The table keeps no token counts
//     (columnsize = 0, migration 161): nothing ranks by them.
//   - PostgreSQL: the columns search_topic and search_content of messages, tsvectors written
//     from the stems with their positions, and a GIN index on their concatenation. The
//     content's positions start at 2, so that after the topic's (1..n) they leave a gap and
//     no phrase spans the topic and the content. A phrase is a <-> chain in the tsquery.
//
// Both are written in the transaction that writes the message: Create, Update, Move (the
// topic) and Delete keep them in step, and migration 50 builds them for existing messages.

// ftsText is the FTS5 column value of a list of stems.
func ftsText(stems []string) string { return strings.Join(stems, " ") }

// tsvectorText is the tsvector literal of stems, numbered from first: 'stem':p1,p2 ...
func tsvectorText(stems []string, first int) string {
	pos := map[string][]int{}
	var order []string
	for i, s := range stems {
		p := first + i
		if p > 16383 { // PostgreSQL's largest position
			p = 16383
		}
		if _, seen := pos[s]; !seen {
			order = append(order, s)
		}
		pos[s] = append(pos[s], p)
	}
	var b strings.Builder
	for i, s := range order {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(lexeme(s))
		b.WriteByte(':')
		for j, p := range slices.Compact(pos[s]) {
			if j > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.Itoa(p))
		}
	}
	return b.String()
}

// lexeme quotes a stem for a tsvector or tsquery literal. Stems are letters and digits, but
// quote and backslash are escaped all the same.
func lexeme(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `''`).Replace(s) + "'"
}

// tsqueryText is the tsquery of a search: every word, and each phrase as a <-> chain.
func tsqueryText(s messages.Search) string {
	parts := make([]string, 0, len(s.Words)+len(s.Phrases))
	for _, w := range s.Words {
		parts = append(parts, lexeme(w))
	}
	for _, p := range s.Phrases {
		chain := make([]string, len(p))
		for i, w := range p {
			chain[i] = lexeme(w)
		}
		parts = append(parts, "("+strings.Join(chain, " <-> ")+")")
	}
	return strings.Join(parts, " & ")
}

// ftsQuery is the FTS5 query of a search: every word and each phrase, quoted (stems hold no
// double quote).
func ftsQuery(s messages.Search) string {
	parts := make([]string, 0, len(s.Words)+len(s.Phrases))
	for _, w := range s.Words {
		parts = append(parts, `"`+w+`"`)
	}
	for _, p := range s.Phrases {
		parts = append(parts, `"`+strings.Join(p, " ")+`"`)
	}
	return strings.Join(parts, " ")
}

// searchPlan splits a query's terms into the searches the database evaluates and the rest.
type searchPlan struct {
	positive, negative []messages.Search
	rest               []messages.Term
	// none: a search without words, which matches nothing.
	none bool
}

// searching reports whether the plan has a search for the database to evaluate.
func (p searchPlan) searching() bool { return len(p.positive) > 0 || len(p.negative) > 0 }

// customPlans makes PostgreSQL plan the transaction's next statements for their parameters:
// a search's plan depends on its words (the GIN index for a rare one, a walk of the primary
// key for a common one), which the generic plan of a cached prepared statement ignores.
func (a messageTx) customPlans() error {
	if !a.t.d.postgres {
		return nil
	}
	_, err := a.t.exec("SET LOCAL plan_cache_mode = force_custom_plan")
	return err
}

func planSearch(terms []messages.Term) searchPlan {
	var p searchPlan
	for _, t := range terms {
		switch {
		case t.Operator != messages.OpSearch:
			p.rest = append(p.rest, t)
		case t.Search.Empty():
			p.none = p.none || !t.Negated // a negated empty search matches everything
		case t.Negated:
			p.negative = append(p.negative, t.Search)
		default:
			p.positive = append(p.positive, t.Search)
		}
	}
	return p
}

// merged is the one search all of l require.
func merged(l []messages.Search) messages.Search {
	var s messages.Search
	for _, x := range l {
		s.Words = append(s.Words, x.Words...)
		s.Phrases = append(s.Phrases, x.Phrases...)
	}
	slices.Sort(s.Words)
	s.Words = slices.Compact(s.Words)
	return s
}

// searchMatch is the SQL condition that m matches a search (one parameter, appended to args).
func (a messageTx) searchMatch(s messages.Search, args *[]any) string {
	if a.t.d.postgres {
		*args = append(*args, tsqueryText(s))
		return "(m.search_topic || m.search_content) @@ CAST(? AS tsquery)"
	}
	*args = append(*args, ftsQuery(s))
	return "m.id IN (SELECT rowid FROM message_search WHERE message_search MATCH ?)"
}

// putSearch writes the index entry of a message that has none (SQLite; on PostgreSQL the
// columns are written with the message).
func (a messageTx) putSearch(id messages.ID, d messages.SearchDoc) {
	if a.t.d.postgres {
		return
	}
	a.t.deferLate("message_search", "INSERT INTO message_search (rowid, topic, content)", 3, [][]any{{id, ftsText(d.Topic), ftsText(d.Content)}})
}

// replaceSearch rewrites the index entry of an edited message (SQLite).
func (a messageTx) replaceSearch(id messages.ID, d messages.SearchDoc) error {
	if a.t.d.postgres {
		return nil
	}
	if _, err := a.t.exec("DELETE FROM message_search WHERE rowid = ?", id); err != nil {
		return err
	}
	a.putSearch(id, d)
	return nil
}

// indexExistingMessages builds the search index of the messages stored before migration 50,
// in batches of ids.
func indexExistingMessages(t *txn) error {
	const batch = 500
	a := messageTx{t: t}
	var after messages.ID
	for {
		type row struct {
			id              messages.ID
			topic, rendered string
		}
		list, err := scanAll(t, func(r *sql.Rows) (row, error) {
			var x row
			return x, r.Scan(&x.id, &x.topic, &x.rendered)
		}, "SELECT id, topic, rendered FROM messages WHERE id > ? ORDER BY id LIMIT ?", after, batch)
		if err != nil || len(list) == 0 {
			return err
		}
		for _, x := range list {
			d := messages.NewSearchDoc(x.topic, x.rendered)
			if t.d.postgres {
				_, err = t.exec("UPDATE messages SET search_topic = CAST(? AS tsvector), search_content = CAST(? AS tsvector) WHERE id = ?",
					tsvectorText(d.Topic, 1), tsvectorText(d.Content, 2), x.id)
			} else {
				a.putSearch(x.id, d)
			}
			if err != nil {
				return err
			}
		}
		after = list[len(list)-1].id
	}
}
