package sqlstore

import (
	"context"
	"time"
)

// Test access to unexported names, for the benchmarks' bulk loader.

// FTSText and TSVectorText are ftsText and tsvectorText.
var (
	FTSText      = ftsText
	TSVectorText = tsvectorText
)

// ExecRaw runs a statement ("?" placeholders) outside any transaction of the store.
func ExecRaw(s *Store, query string, args ...any) error {
	_, err := s.write.ExecContext(context.Background(), s.d.q(query), args...)
	return err
}

// SetRetryBudget sets how long s runs a closure again that keeps losing races.
func SetRetryBudget(s *Store, d time.Duration) { s.retryBudget = d }

// SetMaxInlineSpans sets how many receive intervals a walk of messages on s tests as literal
// bounds (negative: none, every message tested with the subquery).
func SetMaxInlineSpans(s *Store, n int) { s.maxInlineSpans = n }

// IsPostgres reports whether s is on PostgreSQL.
func IsPostgres(s *Store) bool { return s.d.postgres }

// PendingRows counts the rows a write transaction holds back for its next statement
// (deferred.go); -1 for a transaction of another store.
func PendingRows(t any) int {
	x, ok := t.(*tx)
	if !ok {
		return -1
	}
	n := 0
	for _, p := range x.t.pending {
		n += len(p.rows)
	}
	return n
}

// DeferExec defers a statement ("?" placeholders) in a write transaction of a Store until its
// next statement or commit (deferred.go).
func DeferExec(t any, query string, args ...any) {
	t.(*tx).t.deferExec(query, args...)
}

// StoredRows counts the explicit rows (user_messages) of user u stored in s.
func StoredRows(s *Store, u int64) (int, error) {
	var n int
	err := s.write.QueryRowContext(context.Background(), s.d.q("SELECT COUNT(*) FROM user_messages WHERE user_id = ?"), u).Scan(&n)
	return n, err
}
