package sqlstore

import (
	"os"
	"slices"
	"testing"
	"time"

	"github.com/teamchat/chat/internal/pgtest"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// TestReadCommittedListKeptAtItsSnapshot pins that a list read at READ COMMITTED (a send's
// UpdateReadCommitted), where each statement has a snapshot of its own, is kept only as what the
// snapshot of the transaction's check saw: a user created by another process between the
// check and the read must not be kept in a list labelled with the older snapshot, which a
// transaction that began before the creation would then take as its own view.
func TestReadCommittedListKeptAtItsSnapshot(t *testing.T) {
	t.Parallel()
	if os.Getenv("CHAT_TEST_POSTGRES_URL") == "" {
		t.Skip("CHAT_TEST_POSTGRES_URL is not set: PostgreSQL only (per-statement snapshots)")
	}
	dsn := pgtest.SchemaOf(t, pgtest.URL(t))
	ctx := t.Context()
	open := func() *Store {
		s, err := Open(ctx, dsn)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	a, b := open(), open()
	newUser := func(email string) users.User {
		return users.User{Email: email, FullName: email, Role: users.RoleMember, IsActive: true,
			APIKey: email + "-key-0000000000000000000000", Timezone: "UTC", DateJoined: time.Unix(1700000000, 0).UTC()}
	}
	if err := b.Update(ctx, func(tx storage.Tx) error {
		_, err := tx.Users().Create(newUser("early@example.com"))
		return err
	}); err != nil {
		t.Fatal(err)
	}
	var checked pgSnapshot
	err := a.UpdateReadCommitted(ctx, func(stx storage.Tx) error {
		if _, err := stx.Linkifiers().List(); err != nil { // the check: the snapshot of the kept lists
			return err
		}
		checked = stx.(*tx).t.tables.snap
		if err := b.Update(ctx, func(tx storage.Tx) error {
			_, err := tx.Users().Create(newUser("late@example.com"))
			return err
		}); err != nil {
			return err
		}
		list, err := stx.Users().List() // its own snapshot: late is there
		if !slices.ContainsFunc(list, func(u users.User) bool { return u.Email == "late@example.com" }) {
			t.Errorf("the READ COMMITTED read does not see the user created before it")
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	c := &a.cache.users
	c.mu.Lock()
	kept, snap := c.list, c.snap
	c.mu.Unlock()
	if kept != nil && snap.xmin == checked.xmin && snap.xmax == checked.xmax && slices.Equal(snap.xip, checked.xip) {
		t.Errorf("the list read after another process's change is kept at the check's snapshot %v, which does not see the change", checked)
	}
	// Without a change in between, a READ COMMITTED read keeps its list (sends fill the cache).
	c.mu.Lock()
	c.list = nil
	c.mu.Unlock()
	if err := a.UpdateReadCommitted(ctx, func(stx storage.Tx) error {
		if _, err := stx.Linkifiers().List(); err != nil {
			return err
		}
		_, err := stx.Users().List()
		return err
	}); err != nil {
		t.Fatal(err)
	}
	c.mu.Lock()
	refilled := c.list != nil
	c.mu.Unlock()
	if !refilled {
		t.Error("a READ COMMITTED read with no change since its check kept nothing")
	}
	// A later transaction still reads the list right, kept or not.
	if err := a.View(ctx, func(tx storage.ReadTx) error {
		list, err := tx.Users().List()
		if len(list) != 2 {
			t.Errorf("a later transaction reads %d users, want 2", len(list))
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
}
