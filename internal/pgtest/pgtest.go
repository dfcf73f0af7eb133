// Package pgtest gives tests a PostgreSQL schema of their own on the server named by
// CHAT_TEST_POSTGRES_URL, and skips them with a clear reason when it is unset.
//
// Imports: the standard library and the pgx driver; only tests import it.
package pgtest

import (
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"net/url"
	"os"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" database/sql driver
)

// EnvVar names the variable holding the test server's URL.
const EnvVar = "CHAT_TEST_POSTGRES_URL"

// Configured reports whether EnvVar names a test server.
func Configured() bool { return os.Getenv(EnvVar) != "" }

// URL is the test server's URL, or skips the test when EnvVar is unset.
func URL(t testing.TB) string {
	t.Helper()
	u := os.Getenv(EnvVar)
	if u == "" {
		t.Skip(EnvVar + " is not set: PostgreSQL tests skipped (set it to postgres://user@host:port/db?sslmode=disable)")
	}
	return u
}

// Schema creates an empty schema on the test server, dropped when the test ends, and returns
// the server's URL with that schema as its search_path. It skips the test when EnvVar is
// unset.
func Schema(t testing.TB) string { return SchemaOf(t, URL(t)) }

// SchemaOf is Schema on the server at base.
func SchemaOf(t testing.TB, base string) string {
	t.Helper()
	var b [8]byte
	_, _ = rand.Read(b[:])
	name := "t_" + hex.EncodeToString(b[:])
	exec := func(q string) error {
		db, err := sql.Open("pgx", base)
		if err != nil {
			return err
		}
		defer db.Close()
		_, err = db.Exec(q)
		return err
	}
	if err := exec("CREATE SCHEMA " + name); err != nil {
		t.Fatalf("create schema: %v", err)
	}
	t.Cleanup(func() {
		if err := exec("DROP SCHEMA " + name + " CASCADE"); err != nil {
			t.Errorf("drop schema %s: %v", name, err)
		}
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("parse %s: %v", base, err)
	}
	q := u.Query()
	q.Set("search_path", name)
	u.RawQuery = q.Encode()
	return u.String()
}
