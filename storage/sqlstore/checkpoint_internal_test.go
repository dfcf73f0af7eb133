package sqlstore

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// openCheckpointed opens a SQLite store at path with a scratch table of large rows.
func openCheckpointed(t *testing.T, path string) *Store {
	t.Helper()
	s, err := Open(t.Context(), "sqlite:"+path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.write.Exec("CREATE TABLE IF NOT EXISTS scratch (id INTEGER PRIMARY KEY, v BLOB)"); err != nil {
		t.Fatal(err)
	}
	return s
}

// pagesPerCommit is about how many pages each commit of writePages adds to the WAL.
const pagesPerCommit = 8

// writePages commits n transactions through the store, each writing pagesPerCommit pages.
func writePages(t *testing.T, s *Store, n int) {
	t.Helper()
	if err := tryWritePages(s, n); err != nil {
		t.Fatal(err)
	}
}

func tryWritePages(s *Store, n int) error {
	blob := []byte(strings.Repeat("x", (pagesPerCommit-1)*4000))
	for range n {
		if err := s.run(context.Background(), s.write, s.updateOptions(), func(t *txn) error {
			_, err := t.exec("INSERT INTO scratch (v) VALUES (?)", blob)
			return err
		}); err != nil {
			return err
		}
	}
	return nil
}

// walPages is the size of path's WAL in pages (0 when there is none).
func walPages(t *testing.T, path string) int64 {
	t.Helper()
	fi, err := os.Stat(path + "-wal")
	if errors.Is(err, os.ErrNotExist) {
		return 0
	}
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size() / (4096 + 24)
}

// waitCheckpoints waits until c has attempted n checkpoints (the test's deadline bounds it).
func waitCheckpoints(c *checkpointer, n uint64) {
	for c.attempts() < n {
		time.Sleep(time.Millisecond)
	}
}

func TestCheckpointerCopiesAndTheWALStartsOver(t *testing.T) {
	path := filepath.Join(t.TempDir(), "wal.db")
	s := openCheckpointed(t, path)
	defer s.Close()
	c := s.checkpoints
	start := c.attempts()
	// Three times the pages at which the writer lets the WAL start over, in rounds of
	// checkpointEvery commits, each round's checkpoint awaited.
	rounds := 3 * writerCheckpointPages / (pagesPerCommit * checkpointEvery)
	for i := range rounds {
		writePages(t, s, checkpointEvery)
		waitCheckpoints(c, start+uint64(i)+1)
	}
	if got := c.runs.Load(); got != uint64(rounds) {
		t.Errorf("%d checkpoints run after %d rounds of %d commits (%d busy, %d failed), want one a round",
			got, rounds, checkpointEvery, c.busy.Load(), c.failures.Load())
	}
	// The WAL started over, rather than growing with every page written.
	// Bounded, not exact: a writer's own checkpoint that meets the checkpointer's (or a
	// reader's snapshot) leaves frames behind, and the WAL grows past writerCheckpointPages
	// until the next one completes (seen under load: 4,232 pages).
	if got, limit := walPages(t, path), int64(2*writerCheckpointPages); got > limit {
		t.Errorf("WAL of %d pages after %d written, want at most %d", got, rounds*checkpointEvery*pagesPerCommit, limit)
	}
}

func TestCheckpointerStopsWithClose(t *testing.T) {
	path := filepath.Join(t.TempDir(), "close.db")
	s := openCheckpointed(t, path)
	writePages(t, s, 3*checkpointEvery)
	c := s.checkpoints
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-c.done:
	default:
		t.Fatal("Close returned before the checkpointer stopped")
	}
	if err := c.db.Ping(); err == nil {
		t.Error("the checkpointer's connection is still open after Close")
	}
	if got := walPages(t, path); got != 0 {
		t.Errorf("WAL of %d pages after Close, want none", got)
	}
	s = openCheckpointed(t, path)
	defer s.Close()
	var n int
	if err := s.read.QueryRow("SELECT COUNT(*) FROM scratch").Scan(&n); err != nil || n != 3*checkpointEvery {
		t.Errorf("rows after reopening: %d, %v; want %d", n, err, 3*checkpointEvery)
	}
}

func TestCheckpointersOfTwoStoresShareAFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "two.db")
	a, b := openCheckpointed(t, path), openCheckpointed(t, path)
	rounds := 2 * writerCheckpointPages / (pagesPerCommit * checkpointEvery)
	errB := make(chan error)
	go func() { errB <- tryWritePages(b, rounds*checkpointEvery) }()
	writePages(t, a, rounds*checkpointEvery)
	if err := <-errB; err != nil {
		t.Fatal(err)
	}
	for name, s := range map[string]*Store{"a": a, "b": b} {
		c := s.checkpoints
		waitCheckpoints(c, 1)
		if c.failures.Load() != 0 {
			t.Errorf("store %s: %d checkpoints failed", name, c.failures.Load())
		}
	}
	if got, limit := walPages(t, path), int64(2*writerCheckpointPages); got > limit { // bounded, as above
		t.Errorf("WAL of %d pages, want at most %d", got, limit)
	}
	var n int
	if err := a.read.QueryRow("SELECT COUNT(*) FROM scratch").Scan(&n); err != nil || n != 2*rounds*checkpointEvery {
		t.Errorf("rows: %d, %v; want %d", n, err, 2*rounds*checkpointEvery)
	}
	for _, s := range []*Store{a, b} {
		if err := s.Close(); err != nil {
			t.Error(err)
		}
	}
	if got := walPages(t, path); got != 0 {
		t.Errorf("WAL of %d pages after both closed, want none", got)
	}
}
