package sqlstore_test

import (
	"errors"
	"testing"
	"time"

	"github.com/teamchat/chat/realms"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/storage/sqlstore"
)

// TestRetriesCountsTransactionsRunAgain makes two PostgreSQL transactions write the row both
// read: the later committer loses the serialization race, is run again, and Retries counts it.
func TestRetriesCountsTransactionsRunAgain(t *testing.T) {
	t.Parallel()
	s := mustOpen(t, freshSchema(t, postgresURL(t)))
	ctx := t.Context()
	put := func(name string) func(storage.Tx) error {
		return func(tx storage.Tx) error { return tx.Realm().Put(realms.Realm{Name: name}) }
	}
	if err := s.Update(ctx, put("start")); err != nil {
		t.Fatal(err)
	}
	if got := s.Retries(); got != 0 {
		t.Fatalf("Retries after one uncontended transaction = %d, want 0", got)
	}
	read, release := make(chan struct{}), make(chan struct{})
	runs := 0
	done := make(chan error, 1)
	go func() {
		done <- s.Update(ctx, func(tx storage.Tx) error {
			runs++
			if _, err := tx.Realm().Get(); err != nil {
				return err
			}
			if runs == 1 {
				close(read)
				<-release // the other transaction writes and commits meanwhile
			}
			return put("first")(tx)
		})
	}()
	<-read
	if err := s.Update(ctx, put("second")); err != nil {
		t.Fatal(err)
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if runs < 2 || s.Retries() < 1 {
		t.Errorf("closure ran %d times, Retries = %d; want a lost race run again and counted", runs, s.Retries())
	}
}

// TestContentionGivesUpWithErrContention: a PostgreSQL transaction that loses its race on
// every run is run again, with waits, until the retry budget runs out, and then fails with
// storage.ErrContention (which the engine answers with 503 WRITE_CONFLICT), counted by
// Contended; a transaction that loses only its first races commits.
func TestContentionGivesUpWithErrContention(t *testing.T) {
	t.Parallel()
	s := mustOpen(t, freshSchema(t, postgresURL(t)))
	sqlstore.SetRetryBudget(s, 150*time.Millisecond)
	ctx := t.Context()
	// A serialization failure raised by the database itself, as SSI raises it.
	lose := func(tx storage.Tx) error {
		return tx.(storage.SQLTx).ExecSQL(`DO $$ BEGIN RAISE EXCEPTION 'lost' USING ERRCODE = '40001'; END $$`)
	}
	tests := []struct {
		name         string
		losses       int // runs that lose before one that does not; -1: every run loses
		wantErr      error
		wantContend  uint64
		wantMinRetry uint64
	}{
		{"loses twice, then commits", 2, nil, 0, 2},
		{"loses every run", -1, storage.ErrContention, 1, 1},
	}
	for _, tt := range tests {
		before, beforeRetries := s.Contended(), s.Retries()
		runs := 0
		start := time.Now()
		err := s.Update(ctx, func(tx storage.Tx) error {
			runs++
			if tt.losses < 0 || runs <= tt.losses {
				return lose(tx)
			}
			return tx.Realm().Put(realms.Realm{Name: tt.name})
		})
		if !errors.Is(err, tt.wantErr) || (tt.wantErr == nil) != (err == nil) {
			t.Errorf("%s: Update = %v, want %v", tt.name, err, tt.wantErr)
		}
		if got := s.Contended() - before; got != tt.wantContend {
			t.Errorf("%s: Contended rose by %d, want %d", tt.name, got, tt.wantContend)
		}
		if got := s.Retries() - beforeRetries; got < tt.wantMinRetry {
			t.Errorf("%s: Retries rose by %d, want at least %d (runs %d)", tt.name, got, tt.wantMinRetry, runs)
		}
		if tt.losses < 0 && time.Since(start) > 2*time.Second {
			t.Errorf("%s: gave up after %v, want about the 150ms budget", tt.name, time.Since(start))
		}
	}
	var name string
	if err := s.View(ctx, func(tx storage.ReadTx) error {
		r, err := tx.Realm().Get()
		name = r.Name
		return err
	}); err != nil || name != "loses twice, then commits" {
		t.Errorf("realm name = %q, %v; want the write of the transaction that committed", name, err)
	}
}
