package sqlstore

import (
	"database/sql"
	"fmt"

	"github.com/teamchat/chat/storage"
)

// notFound wraps storage.ErrNotFound with what was looked up.
func notFound(what string, key any) error {
	return fmt.Errorf("sqlstore: %s %v: %w", what, key, storage.ErrNotFound)
}

// mustAffect reports ErrNotFound when a write matched no row.
func mustAffect(res sql.Result, what string, key any) error {
	n, err := res.RowsAffected()
	if err != nil {
		return fmt.Errorf("sqlstore: %s %v: %w", what, key, err)
	}
	if n == 0 {
		return notFound(what, key)
	}
	return nil
}
