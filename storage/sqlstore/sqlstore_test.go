package sqlstore_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib"

	"github.com/teamchat/chat/internal/pgtest"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/storage/sqlstore"
	"github.com/teamchat/chat/storage/storagetest"
	"github.com/teamchat/chat/users"
)

func TestConformanceSQLite(t *testing.T) {
	t.Parallel()
	storagetest.Run(t, func(t *testing.T) storage.Storage {
		return mustOpen(t, "sqlite:"+filepath.Join(t.TempDir(), "chat.db"))
	})
}

func TestConformancePostgres(t *testing.T) {
	t.Parallel()
	base := postgresURL(t)
	storagetest.Run(t, func(t *testing.T) storage.Storage {
		return mustOpen(t, freshSchema(t, base))
	})
}

// mustOpen opens dsn and closes the store when the test ends.
func mustOpen(t testing.TB, dsn string) *sqlstore.Store {
	t.Helper()
	s, err := sqlstore.Open(t.Context(), dsn)
	if err != nil {
		t.Fatalf("Open(%q): %v", dsn, err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// postgresURL is CHAT_TEST_POSTGRES_URL, or skips the test.
func postgresURL(t testing.TB) string { return pgtest.URL(t) }

// freshSchema creates an empty schema, dropped when the test ends, and returns base's DSN with
// that schema as its search_path.
func freshSchema(t testing.TB, base string) string { return pgtest.SchemaOf(t, base) }

// TestConflictKeepsTransactionUsable pins that a refused write does not poison the rest of the
// transaction (PostgreSQL aborts a transaction on a failed statement unless it is contained).
func TestConflictKeepsTransactionUsable(t *testing.T) {
	t.Parallel()
	for name, open := range openers(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s := open(t)
			err := s.Update(t.Context(), func(tx storage.Tx) error {
				if _, err := tx.Users().Create(users.User{Email: "a@example.com", APIKey: "k1"}); err != nil {
					return err
				}
				_, err := tx.Users().Create(users.User{Email: "A@example.com", APIKey: "k2"})
				if !errors.Is(err, storage.ErrConflict) {
					t.Errorf("duplicate email: error = %v, want ErrConflict", err)
				}
				_, err = tx.Users().Create(users.User{Email: "b@example.com", APIKey: "k3"})
				return err
			})
			if err != nil {
				t.Fatalf("Update after a refused write: %v", err)
			}
			err = s.View(t.Context(), func(tx storage.ReadTx) error {
				all, err := tx.Users().List()
				if len(all) != 2 {
					t.Errorf("users = %d, want 2", len(all))
				}
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
		})
	}
}

// databases returns, per backend, a function making a new database and returning its DSN,
// for tests that open two Stores on one database (two processes); PostgreSQL's skips the
// test when it is not configured.
func databases() map[string]func(t *testing.T) string {
	return map[string]func(t *testing.T) string{
		"sqlite":   func(t *testing.T) string { return "sqlite:" + filepath.Join(t.TempDir(), "chat.db") },
		"postgres": func(t *testing.T) string { return freshSchema(t, postgresURL(t)) },
	}
}

// openers returns the backends to test: SQLite always, PostgreSQL when configured.
func openers(t *testing.T) map[string]func(t *testing.T) *sqlstore.Store {
	m := map[string]func(t *testing.T) *sqlstore.Store{
		"sqlite": func(t *testing.T) *sqlstore.Store {
			return mustOpen(t, "sqlite:"+filepath.Join(t.TempDir(), "chat.db"))
		},
	}
	if base := os.Getenv("CHAT_TEST_POSTGRES_URL"); base != "" {
		m["postgres"] = func(t *testing.T) *sqlstore.Store { return mustOpen(t, freshSchema(t, base)) }
	}
	return m
}
