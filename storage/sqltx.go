package storage

// SQLTx is an optional capability of the ReadTx and Tx of an SQL backend: it runs statements
// of the caller's own in the same transaction. Add-ons that must write or read atomically with
// the Service (the PostgreSQL event bus, which issues NOTIFY inside the writing transaction)
// find it with a type assertion; the Service never uses it, and the memory store does not
// offer it.
//
// Queries use "?" placeholders. Errors are classified as for the accessors: a lost race makes
// the backend run the whole transaction again.
type SQLTx interface {
	// SQLDialect is "sqlite" or "postgres".
	SQLDialect() string
	// ExecSQL runs a statement that returns no rows.
	ExecSQL(query string, args ...any) error
	// QueryRowSQL scans the single row of query into dest; ErrNotFound when there is none.
	QueryRowSQL(query string, args []any, dest ...any) error
}
