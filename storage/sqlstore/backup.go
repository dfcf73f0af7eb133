package sqlstore

import (
	"context"
	"errors"
	"fmt"
	"os"
)

// ErrBackupUnsupported is returned by Backup on PostgreSQL, whose consistent copies pg_dump
// makes (README, "Operating it").
var ErrBackupUnsupported = errors.New("sqlstore: backup of a PostgreSQL store: use pg_dump")

// Backup writes a consistent copy of the SQLite database to the new file dest, while the
// store (and other processes on the same file) go on reading and writing: VACUUM INTO on a
// connection of its own reads the database in one read transaction, which WAL lets run
// beside the writer, so the copy holds exactly the commits before it began. dest must not
// exist. On PostgreSQL it returns ErrBackupUnsupported.
func (s *Store) Backup(ctx context.Context, dest string) error {
	if s.lite == nil {
		return ErrBackupUnsupported
	}
	if _, err := os.Lstat(dest); err == nil {
		return fmt.Errorf("sqlstore: backup to %q: %w", dest, os.ErrExist)
	}
	db, err := s.lite.openPool(ctx, backupConn, 1)
	if err != nil {
		return fmt.Errorf("sqlstore: backup of %q: %w", s.lite.path, err)
	}
	defer db.Close()
	if _, err := db.ExecContext(ctx, "VACUUM INTO ?", dest); err != nil {
		os.Remove(dest)
		return fmt.Errorf("sqlstore: backup of %q into %q: %w", s.lite.path, dest, err)
	}
	return nil
}

// Path is the SQLite database's file ("" on PostgreSQL).
func (s *Store) Path() string {
	if s.lite == nil {
		return ""
	}
	return s.lite.path
}
