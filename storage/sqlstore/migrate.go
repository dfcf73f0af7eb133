package sqlstore

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"
)

//go:embed migrations/*.sql
var migrationFiles embed.FS

// ErrSchemaTooNew is returned by Open when the database holds a migration this binary does
// not know: it was written by a newer version and must not be used by this one.
var ErrSchemaTooNew = errors.New("sqlstore: database schema is newer than this binary")

// migration is one numbered schema change: its SQL, then, for a few, Go code that fills
// what SQL cannot compute (goMigrations).
type migration struct {
	version int64
	name    string
	sql     string
	run     func(t *txn) error
}

// goMigrations are the steps run after the SQL of their migration, in its transaction.
var goMigrations = map[int64]func(t *txn) error{
	50: indexExistingMessages,
}

// migrations returns the embedded migrations of dialect d in ascending order. Files are
// named NNNN_what.sql, or NNNN_what.sqlite.sql and NNNN_what.postgres.sql for a change
// written once per dialect; two files with one number for one dialect are an error.
func migrations(d *dialect) ([]migration, error) {
	all, err := parseMigrations(migrationFiles, "migrations", d.name)
	for i := range all {
		all[i].run = goMigrations[all[i].version]
	}
	return all, err
}

func parseMigrations(fsys fs.FS, dir, dialectName string) ([]migration, error) {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, err
	}
	var out []migration
	for _, e := range entries {
		name := e.Name()
		num, _, ok := strings.Cut(name, "_")
		v, err := strconv.ParseInt(num, 10, 64)
		if !ok || err != nil || v <= 0 || !strings.HasSuffix(name, ".sql") {
			return nil, fmt.Errorf("sqlstore: migration file %q is not named NNNN_what.sql", name)
		}
		if only := path.Ext(strings.TrimSuffix(name, ".sql")); only == ".sqlite" || only == ".postgres" {
			if only[1:] != dialectName {
				continue
			}
		}
		body, err := fs.ReadFile(fsys, path.Join(dir, name))
		if err != nil {
			return nil, err
		}
		out = append(out, migration{version: v, name: name, sql: string(body)})
	}
	slices.SortFunc(out, func(a, b migration) int { return int(a.version - b.version) })
	for i := 1; i < len(out); i++ {
		if out[i].version == out[i-1].version {
			return nil, fmt.Errorf("sqlstore: migrations %q and %q share number %d", out[i-1].name, out[i].name, out[i].version)
		}
	}
	return out, nil
}

// migrate applies the pending migrations in one transaction. On PostgreSQL a transaction-scoped
// advisory lock (per schema) makes concurrent starters wait for each other; on SQLite the
// write transaction (BEGIN IMMEDIATE) does.
func (s *Store) migrate(ctx context.Context) error {
	all, err := migrations(s.d)
	if err != nil {
		return err
	}
	return s.migrateTo(ctx, all)
}

func (s *Store) migrateTo(ctx context.Context, all []migration) error {
	sqlTx, err := s.write.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("migrate: begin: %w", err)
	}
	defer sqlTx.Rollback()
	t := &txn{ctx: ctx, db: sqlTx, tx: sqlTx, d: s.d, count: &s.statements, trips: &s.roundTrips}
	if s.d.postgres {
		if _, err := t.exec("SELECT pg_advisory_xact_lock(72616, hashtext(current_schema()))"); err != nil {
			return fmt.Errorf("migrate: lock: %w", err)
		}
	}
	if _, err := t.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
		version BIGINT PRIMARY KEY,
		name TEXT NOT NULL,
		applied_at BIGINT NOT NULL)`); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	applied := map[int64]bool{}
	rows, err := t.query("SELECT version FROM schema_migrations")
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	var newest int64
	for rows.Next() {
		var v int64
		if err := rows.Scan(&v); err != nil {
			rows.Close()
			return fmt.Errorf("migrate: %w", err)
		}
		applied[v] = true
		newest = max(newest, v)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	var known int64
	if len(all) > 0 {
		known = all[len(all)-1].version
	}
	if newest > known {
		return fmt.Errorf("%w: it has migration %d, this binary knows up to %d; run a newer binary", ErrSchemaTooNew, newest, known)
	}
	for _, m := range all {
		if applied[m.version] {
			continue
		}
		if _, err := t.exec(s.d.ddl.Replace(m.sql)); err != nil {
			return fmt.Errorf("migration %s: %w", m.name, err)
		}
		if m.run != nil {
			if err := m.run(t); err != nil {
				return fmt.Errorf("migration %s: %w", m.name, err)
			}
		}
		if _, err := t.exec("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
			m.version, m.name, time.Now().Unix()); err != nil {
			return fmt.Errorf("migration %s: %w", m.name, err)
		}
	}
	if err := t.flush(); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	if err := sqlTx.Commit(); err != nil {
		return fmt.Errorf("migrate: commit: %w", err)
	}
	return nil
}
