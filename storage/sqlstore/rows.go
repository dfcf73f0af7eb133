package sqlstore

import (
	"database/sql"
	"encoding/json"
	"strings"
)

// rowsPerStatement bounds a multi-row INSERT so that its parameters stay under both
// databases' limits (SQLite 32766, PostgreSQL 65535) for any table of ours.
const rowsPerStatement = 500

// insertRows writes rows (each with len(rows[i]) == width values) with one multi-row
// statement per rowsPerStatement rows: head + " VALUES (?, ...), (?, ...) " + tail.
func insertRows(t *txn, head string, width int, rows [][]any, tail string) error {
	for _, st := range insertStatements(head, width, rows, tail) {
		if _, err := t.exec(st.query, st.args...); err != nil {
			return err
		}
	}
	return nil
}

// insertStatements are insertRows' statements.
func insertStatements(head string, width int, rows [][]any, tail string) []statement {
	one := "(" + strings.TrimSuffix(strings.Repeat("?, ", width), ", ") + ")"
	var out []statement
	for start := 0; start < len(rows); start += rowsPerStatement {
		chunk := rows[start:min(start+rowsPerStatement, len(rows))]
		var b strings.Builder
		b.WriteString(head)
		b.WriteString(" VALUES ")
		args := make([]any, 0, len(chunk)*width)
		for i, r := range chunk {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(one)
			args = append(args, r...)
		}
		b.WriteString(" ")
		b.WriteString(tail)
		out = append(out, statement{query: b.String(), args: args})
	}
	return out
}

// nullableBool is the column value of an optional bool.
func nullableBool(b *bool) any {
	if b == nil {
		return nil
	}
	return *b
}

// boolPtr is the inverse of nullableBool.
func boolPtr(n sql.NullBool) *bool {
	if !n.Valid {
		return nil
	}
	b := n.Bool
	return &b
}

// jsonIDs stores a list as a JSON array, nil as NULL, so that nil and empty survive.
func jsonIDs(list []int64) any {
	if list == nil {
		return nil
	}
	b, _ := json.Marshal(list) // cannot fail: integers only
	return string(b)
}

// parseJSONIDs is the inverse of jsonIDs.
func parseJSONIDs(n sql.NullString) ([]int64, error) {
	if !n.Valid {
		return nil, nil
	}
	list := []int64{}
	err := json.Unmarshal([]byte(n.String), &list)
	return list, err
}
