package sqlstore

import "github.com/teamchat/chat/storage"

// The optional storage.SQLTx capability: add-ons (the PostgreSQL event bus) run statements of
// their own in the Service's transaction, with the accessors' error classification (a lost race
// re-runs the closure).
var (
	_ storage.SQLTx = (*readTx)(nil)
	_ storage.SQLTx = (*tx)(nil)
)

// SQLDialect is "sqlite" or "postgres".
func (r *readTx) SQLDialect() string { return r.t.d.name }

// ExecSQL runs a statement that returns no rows ("?" placeholders).
func (r *readTx) ExecSQL(query string, args ...any) error {
	_, err := r.t.exec(query, args...)
	return err
}

// QueryRowSQL scans the single row of query into dest; storage.ErrNotFound when there is none.
func (r *readTx) QueryRowSQL(query string, args []any, dest ...any) error {
	return r.t.get(query, args, dest...)
}
