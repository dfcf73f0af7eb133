package sqlstore_test

import (
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/storage/sqlstore"
	"github.com/teamchat/chat/users"
)

func TestOpenRefusesBadInput(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tests := []struct {
		name, dsn, want string
	}{
		{"empty", "", "empty"},
		{"unknown scheme", "mysql://localhost/db", `unknown scheme "mysql"`},
		{"neither a path nor a URL", "redis", "neither"},
		{"sqlite without path", "sqlite:", "no file path"},
		{"unknown sqlite option", "sqlite:" + filepath.Join(dir, "a.db") + "?cache=shared", `unknown sqlite option "cache"`},
		{"bad synchronous", "sqlite:" + filepath.Join(dir, "b.db") + "?synchronous=SOMETIMES", "synchronous"},
		{"bad busy timeout", "sqlite:" + filepath.Join(dir, "c.db") + "?busy_timeout=soon", "busy_timeout"},
		{"missing directory", "sqlite:" + filepath.Join(dir, "no", "such", "dir.db"), "open sqlite database"},
		{"postgres without host", "postgres:///db", "postgres DSN"},
		{"unreachable postgres", "postgres://nobody:secret@127.0.0.1:1/db?sslmode=disable&connect_timeout=2", "cannot reach postgres"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s, err := sqlstore.Open(t.Context(), tt.dsn)
			if err == nil {
				s.Close()
				t.Fatalf("Open(%q) succeeded, want an error containing %q", tt.dsn, tt.want)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Open(%q) = %v, want an error containing %q", tt.dsn, err, tt.want)
			}
			if strings.Contains(err.Error(), "secret") {
				t.Errorf("error %q shows the password", err)
			}
		})
	}
}

func TestOpenReadOnlyFile(t *testing.T) {
	t.Parallel()
	if os.Geteuid() == 0 {
		t.Skip("running as root: file permissions do not stop writes")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "ro.db")
	mustOpen(t, "sqlite:"+path).Close()
	for _, p := range []string{path, dir} {
		if err := os.Chmod(p, 0o555); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() { os.Chmod(dir, 0o755) })
	if s, err := sqlstore.Open(t.Context(), "sqlite:"+path); err == nil {
		s.Close()
		t.Fatal("Open on a read-only file succeeded, want an error")
	}
}

func TestOpenPersistsAcrossReopen(t *testing.T) {
	t.Parallel()
	dsn := filepath.Join(t.TempDir(), "chat.db") // a bare path means SQLite
	s := mustOpen(t, dsn)
	if err := s.Update(t.Context(), func(tx storage.Tx) error {
		_, err := tx.Users().Create(users.User{Email: "a@example.com", FullName: "A", APIKey: "k"})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s = mustOpen(t, "sqlite:"+dsn+"?synchronous=NORMAL")
	err := s.View(t.Context(), func(tx storage.ReadTx) error {
		u, err := tx.Users().GetByAPIKey("k")
		if err == nil && u.Email != "a@example.com" {
			t.Errorf("email = %q after reopening, want a@example.com", u.Email)
		}
		return err
	})
	if err != nil {
		t.Fatalf("user after reopening: %v", err)
	}
	if got := s.Dialect(); got != "sqlite" {
		t.Errorf("Dialect() = %q, want sqlite", got)
	}
}

func TestOpenRefusesNewerSchema(t *testing.T) {
	t.Parallel()
	t.Run("sqlite", func(t *testing.T) {
		t.Parallel()
		path := filepath.Join(t.TempDir(), "chat.db")
		testNewerSchema(t, "sqlite", path, "sqlite:"+path)
	})
	t.Run("postgres", func(t *testing.T) {
		t.Parallel()
		dsn := freshSchema(t, postgresURL(t))
		testNewerSchema(t, "pgx", dsn, dsn)
	})
}

// testNewerSchema records a migration from the future in the database, then expects Open to
// refuse it with ErrSchemaTooNew.
func testNewerSchema(t *testing.T, driver, driverDSN, dsn string) {
	mustOpen(t, dsn).Close()
	db, err := sql.Open(driver, driverDSN)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec("INSERT INTO schema_migrations (version, name, applied_at) VALUES (999999, '999999_future.sql', 0)"); err != nil {
		t.Fatal(err)
	}
	s, err := sqlstore.Open(t.Context(), dsn)
	if err == nil {
		s.Close()
		t.Fatal("Open on a newer schema succeeded")
	}
	if !errors.Is(err, sqlstore.ErrSchemaTooNew) || !strings.Contains(err.Error(), "999999") {
		t.Fatalf("Open on a newer schema: %v, want ErrSchemaTooNew naming migration 999999", err)
	}
}

func TestConcurrentOpenMigratesOnce(t *testing.T) {
	t.Parallel()
	dsn := freshSchema(t, postgresURL(t))
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for range 4 {
		wg.Go(func() {
			s, err := sqlstore.Open(t.Context(), dsn)
			if err == nil {
				err = s.Close()
			}
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatalf("concurrent Open: %v", err)
		}
	}
}
