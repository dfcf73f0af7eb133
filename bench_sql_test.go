package chat_test

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/storage/sqlstore"
)

// sqlBenchBackends adds SQLite (synchronous=FULL, in the benchmark's temporary directory) and,
// when CHAT_TEST_POSTGRES_URL is set, PostgreSQL (a fresh schema dropped afterwards).
func sqlBenchBackends() []benchBackend {
	list := []benchBackend{{"sqlite", func(b *testing.B) storage.Storage {
		s, err := sqlstore.Open(context.Background(), "sqlite:"+filepath.Join(b.TempDir(), "bench.db"))
		if err != nil {
			b.Fatal(err)
		}
		return s
	}}}
	if base := os.Getenv("CHAT_TEST_POSTGRES_URL"); base != "" {
		list = append(list, benchBackend{"postgres", func(b *testing.B) storage.Storage {
			s, err := sqlstore.Open(context.Background(), benchSchema(b, base))
			if err != nil {
				b.Fatal(err)
			}
			return s
		}})
	}
	return list
}

// benchSchema creates an empty PostgreSQL schema, dropped when the benchmark ends, and returns
// base with it as the search_path.
func benchSchema(b *testing.B, base string) string {
	b.Helper()
	db, err := sql.Open("pgx", base)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	name := fmt.Sprintf("bench_%d_%d", os.Getpid(), time.Now().UnixNano())
	if _, err := db.Exec("CREATE SCHEMA " + name); err != nil {
		b.Fatalf("create schema: %v", err)
	}
	b.Cleanup(func() {
		db, err := sql.Open("pgx", base)
		if err == nil {
			db.Exec("DROP SCHEMA " + name + " CASCADE")
			db.Close()
		}
	})
	u, err := url.Parse(base)
	if err != nil {
		b.Fatal(err)
	}
	q := u.Query()
	q.Set("search_path", name)
	u.RawQuery = q.Encode()
	return u.String()
}
