package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver
	_ "modernc.org/sqlite"             // registers the "sqlite" driver
)

// ErrBadDSN is returned by Open for a DSN it cannot parse.
var ErrBadDSN = errors.New("sqlstore: malformed store DSN")

// defaultBusyTimeout is how long a SQLite connection waits for another process's lock.
const defaultBusyTimeout = 5 * time.Second

// defaultOpenTimeout bounds connecting and migrating when ctx has no deadline of its own.
const defaultOpenTimeout = 60 * time.Second

// Open connects to the database named by dsn, applies the pending migrations and returns the
// store. dsn is one of:
//
//	sqlite:PATH[?synchronous=OFF|NORMAL|FULL|EXTRA&busy_timeout=MILLISECONDS]
//	PATH (a file path with a directory or an extension, same as sqlite:PATH)
//	postgres://user@host:port/db?sslmode=disable[&search_path=schema] (or postgresql://)
//
// A malformed DSN, an unreachable database, an unwritable file or a database newer than the
// binary give an error naming the cause; nothing panics.
func Open(ctx context.Context, dsn string) (*Store, error) {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, defaultOpenTimeout)
		defer cancel()
	}
	switch {
	case strings.TrimSpace(dsn) == "":
		return nil, fmt.Errorf("%w: empty (want sqlite:PATH or postgres://...)", ErrBadDSN)
	case strings.HasPrefix(dsn, "postgres://"), strings.HasPrefix(dsn, "postgresql://"):
		return openPostgres(ctx, dsn)
	case strings.HasPrefix(dsn, "sqlite:"):
		return openSQLite(ctx, strings.TrimPrefix(strings.TrimPrefix(dsn, "sqlite:"), "//"))
	case strings.Contains(dsn, "://"):
		scheme, _, _ := strings.Cut(dsn, "://")
		return nil, fmt.Errorf("%w: unknown scheme %q (want sqlite:PATH or postgres://...)", ErrBadDSN, scheme)
	case strings.ContainsRune(dsn, filepath.Separator) || filepath.Ext(dsn) != "":
		return openSQLite(ctx, dsn)
	default:
		return nil, fmt.Errorf("%w: %q is neither sqlite:PATH, a file path (with a directory or an extension) nor postgres://...", ErrBadDSN, dsn)
	}
}

// sqliteOptions are the settings a sqlite: DSN may carry.
type sqliteOptions struct {
	path        string
	synchronous string
	busyTimeout time.Duration
}

func parseSQLite(rest string) (sqliteOptions, error) {
	o := sqliteOptions{synchronous: "FULL", busyTimeout: defaultBusyTimeout}
	path, query, _ := strings.Cut(rest, "?")
	if path == "" {
		return o, fmt.Errorf("%w: sqlite DSN has no file path (want sqlite:PATH)", ErrBadDSN)
	}
	o.path = path
	values, err := url.ParseQuery(query)
	if err != nil {
		return o, fmt.Errorf("%w: sqlite options %q: %v", ErrBadDSN, query, err)
	}
	for key, vs := range values {
		v := vs[len(vs)-1]
		switch key {
		case "synchronous":
			switch s := strings.ToUpper(v); s {
			case "OFF", "NORMAL", "FULL", "EXTRA":
				o.synchronous = s
			default:
				return o, fmt.Errorf("%w: sqlite option synchronous=%q: want OFF, NORMAL, FULL or EXTRA", ErrBadDSN, v)
			}
		case "busy_timeout":
			ms, err := strconv.Atoi(v)
			if err != nil || ms < 0 {
				return o, fmt.Errorf("%w: sqlite option busy_timeout=%q: want milliseconds", ErrBadDSN, v)
			}
			o.busyTimeout = time.Duration(ms) * time.Millisecond
		default:
			return o, fmt.Errorf("%w: unknown sqlite option %q (known: synchronous, busy_timeout)", ErrBadDSN, key)
		}
	}
	return o, nil
}

// connRole is what a SQLite connection pool of the store is for.
type connRole int

const (
	writeConn      connRole = iota // the one write connection
	readConn                       // the query-only read pool
	checkpointConn                 // the checkpointer's connection (checkpoint.go)
	backupConn                     // Backup's connection (backup.go)
)

// driverDSN is modernc's DSN for a pool of role: the plain path, then its options.
func (o sqliteOptions) driverDSN(role connRole) string {
	q := url.Values{}
	q.Set("_busy_timeout", strconv.FormatInt(o.busyTimeout.Milliseconds(), 10))
	switch role {
	case writeConn:
		q.Set("_journal_mode", "WAL")
		q.Set("_synchronous", o.synchronous)
		q.Set("_foreign_keys", "1")
		q.Set("_txlock", "immediate")
		// Temporary files in memory: a group commit's savepoints write each page they first
		// change to a sub-journal, a file otherwise (a write syscall per page).
		q.Add("_pragma", "temp_store(memory)")
		// Checkpoints run beside the writer; the writer's own only bounds the WAL.
		q.Add("_pragma", "wal_autocheckpoint("+strconv.Itoa(writerCheckpointPages)+")")
	case backupConn:
		// VACUUM INTO reads in one transaction and writes only its new file.
	case checkpointConn:
		// A checkpoint fsyncs the database file as the store's setting says.
		q.Set("_synchronous", o.synchronous)
	default:
		q.Set("_query_only", "1")
	}
	return o.path + "?" + q.Encode()
}

// openPool opens a pool of at most conns connections of role, none retired for its age, and
// pings it (closing it again when that fails).
func (o sqliteOptions) openPool(ctx context.Context, role connRole, conns int) (*sql.DB, error) {
	db, err := sql.Open("sqlite", o.driverDSN(role))
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(conns)
	db.SetMaxIdleConns(conns)
	db.SetConnMaxLifetime(0)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

func openSQLite(ctx context.Context, rest string) (*Store, error) {
	o, err := parseSQLite(rest)
	if err != nil {
		return nil, err
	}
	fail := func(err error) error { return fmt.Errorf("sqlstore: open sqlite database %q: %w", o.path, err) }
	// Writes: exactly one connection, so one writer at a time inside this process; BEGIN
	// IMMEDIATE and the busy timeout order writers of other processes.
	w, err := o.openPool(ctx, writeConn, 1)
	if err != nil {
		return nil, fail(err)
	}
	s := &Store{d: sqliteDialect, lite: &o, write: w}
	if err := s.migrate(ctx); err != nil {
		w.Close()
		return nil, fail(err)
	}
	// Reads: a small pool of query-only connections, which WAL lets run beside the writer.
	r, err := o.openPool(ctx, readConn, 4)
	if err != nil {
		w.Close()
		return nil, fail(err)
	}
	// Checkpoints: one connection beside the writer (checkpoint.go).
	c, err := o.openPool(ctx, checkpointConn, 1)
	if err != nil {
		w.Close()
		r.Close()
		return nil, fail(err)
	}
	s.read = r
	s.writeStmts, s.readStmts = newStmtCache(w), newStmtCache(r)
	s.checkpoints = startCheckpointer(c, checkpointEvery)
	return s, nil
}

func openPostgres(ctx context.Context, dsn string) (*Store, error) {
	redacted := redact(dsn)
	u, err := url.Parse(dsn)
	if err != nil || u.Host == "" {
		if err == nil {
			err = errors.New("no host")
		}
		return nil, fmt.Errorf("%w: postgres DSN %q: %v", ErrBadDSN, redacted, err)
	}
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		return nil, fmt.Errorf("sqlstore: postgres DSN %q: %w", redacted, err)
	}
	db.SetMaxOpenConns(16)
	db.SetMaxIdleConns(16)
	db.SetConnMaxIdleTime(5 * time.Minute)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("sqlstore: cannot reach postgres at %q: %w", redacted, err)
	}
	s := &Store{d: newPostgresDialect(), write: db, read: db}
	if err := s.migrate(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("sqlstore: postgres at %q: %w", redacted, err)
	}
	if err := s.d.resolveSequences(ctx, db); err != nil {
		db.Close()
		return nil, fmt.Errorf("sqlstore: postgres at %q: %w", redacted, err)
	}
	return s, nil
}

// redact hides the password of a DSN for error messages.
func redact(dsn string) string {
	u, err := url.Parse(dsn)
	if err != nil {
		return "(unparsable DSN)"
	}
	return u.Redacted()
}
