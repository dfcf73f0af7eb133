package sqlstore_test

import (
	"testing"

	"github.com/teamchat/chat/realms"
	"github.com/teamchat/chat/storage"
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
