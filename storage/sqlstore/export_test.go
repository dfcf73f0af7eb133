package sqlstore

import "context"

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

// IsPostgres reports whether s is on PostgreSQL.
func IsPostgres(s *Store) bool { return s.d.postgres }
