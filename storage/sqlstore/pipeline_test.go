package sqlstore_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/storage/sqlstore"
	"github.com/teamchat/chat/users"
)

// TestPipelinedRoundTrips pins PostgreSQL's round trips (pipeline.go, ahead.go): BEGIN goes
// with the check of the kept lists and a read announced ahead, deferred statements with the
// COMMIT, and a transaction that sends nothing sends no BEGIN or COMMIT; the rows written go
// in all the same.
func TestPipelinedRoundTrips(t *testing.T) {
	t.Parallel()
	s := mustOpen(t, freshSchema(t, postgresURL(t)))
	ctx := t.Context()
	var me users.ID
	err := s.Update(ctx, func(tx storage.Tx) (err error) {
		me, err = tx.Users().Create(users.User{Email: "a@example.com", APIKey: "k1", IsActive: true})
		if err != nil {
			return err
		}
		other, err := tx.Users().Create(users.User{Email: "b@example.com", APIKey: "k2", IsActive: true})
		if err != nil {
			return err
		}
		off := false
		return tx.Subscriptions().Put([]channels.Subscription{{UserID: me, ChannelID: 5, Active: true, Color: "#000"},
			{UserID: other, ChannelID: 5, Active: true, Color: "#fff", IsMuted: true, EmailNotifications: &off}})
	})
	if err != nil {
		t.Fatal(err)
	}
	var ahead []storage.SubscriberList // the subscriber list read ahead
	// Keep the users list.
	if err := s.View(ctx, func(tx storage.ReadTx) error { _, err := tx.Users().List(); return err }); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		fn    func(tx storage.Tx) error
		trips uint64
	}{
		{"nothing sent", func(storage.Tx) error { return nil }, 0},
		{"the kept list's check with BEGIN, the activity with COMMIT", func(tx storage.Tx) error {
			if _, err := tx.Users().List(); err != nil {
				return err
			}
			return tx.Users().SetLastActive(1000, me)
		}, 2},
		{"the subscribers announced ahead", func(tx storage.Tx) error {
			storage.PrefetchSend(tx, 5)
			if _, err := tx.Users().List(); err != nil {
				return err
			}
			var err error
			if ahead, err = storage.ActiveSubscribers(tx.Subscriptions(), []channels.ID{5}); err != nil {
				return err
			}
			return tx.Users().SetLastActive(2000, me)
		}, 2},
		{"the subscribers not announced", func(tx storage.Tx) error {
			if _, err := tx.Users().List(); err != nil {
				return err
			}
			_, err := tx.Subscriptions().ListForChannels([]channels.ID{5}, true)
			return err
		}, 3},
	} {
		before := s.RoundTrips()
		if err := s.UpdateReadCommitted(ctx, c.fn); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := s.RoundTrips() - before; got != c.trips {
			t.Errorf("%s: %d round trips, want %d", c.name, got, c.trips)
		}
	}
	err = s.View(ctx, func(tx storage.ReadTx) error {
		all, err := tx.Subscriptions().ListForChannels([]channels.ID{5}, true)
		if diff := cmp.Diff(storage.SubscriberListsOf([]channels.ID{5}, all), ahead); diff != "" {
			t.Errorf("subscriber list read ahead (-rows +ahead):\n%s", diff)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	var active []users.ID
	err = s.View(ctx, func(tx storage.ReadTx) (err error) {
		active, err = tx.Users().ActiveSince(2000)
		return err
	})
	if err != nil || len(active) != 1 || active[0] != me {
		t.Errorf("active since 2000 = %v, %v; want [%d] (written with the COMMIT)", active, err, me)
	}
}

// TestDeferredStatementFailure: a deferred statement that fails at the commit (PostgreSQL:
// in the COMMIT's round trip) fails the transaction, whose writes are undone.
func TestDeferredStatementFailure(t *testing.T) {
	t.Parallel()
	for name, open := range openers(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s := open(t)
			ctx := t.Context()
			err := s.Update(ctx, func(tx storage.Tx) error {
				if _, err := tx.Users().Create(users.User{Email: "a@example.com", APIKey: "k1"}); err != nil {
					return err
				}
				sqlstore.DeferExec(tx, "INSERT INTO no_such_table (x) VALUES (?)", 1)
				return nil
			})
			if err == nil {
				t.Fatal("Update with a failing deferred statement succeeded")
			}
			err = s.View(ctx, func(tx storage.ReadTx) error {
				all, err := tx.Users().List()
				if len(all) != 0 {
					t.Errorf("users = %d, want 0 (rolled back)", len(all))
				}
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestPipelinedCancel: a transaction whose context ends after its first batch fails with the
// context's error and leaves nothing behind (its connection is not handed out inside a
// transaction): later transactions see none of its writes and work as usual.
func TestPipelinedCancel(t *testing.T) {
	t.Parallel()
	for name, open := range openers(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s := open(t)
			for i := range 20 { // more than the pool's connections
				ctx, cancel := context.WithCancel(t.Context())
				err := s.Update(ctx, func(tx storage.Tx) error {
					if _, err := tx.Users().List(); err != nil {
						return err
					}
					if _, err := tx.Users().Create(users.User{Email: fmt.Sprintf("c%d@example.com", i), APIKey: fmt.Sprintf("c%d", i)}); err != nil {
						return err
					}
					err := tx.Users().SetLastActive(int64(1000+i), 1) // deferred: goes with the COMMIT
					cancel()
					return err
				})
				if !errors.Is(err, context.Canceled) {
					t.Fatalf("Update after its context ended: %v, want context.Canceled", err)
				}
			}
			ctx := t.Context()
			if err := s.Update(ctx, func(tx storage.Tx) error {
				_, err := tx.Users().Create(users.User{Email: "kept@example.com", APIKey: "kept"})
				return err
			}); err != nil {
				t.Fatal(err)
			}
			err := s.View(ctx, func(tx storage.ReadTx) error {
				all, err := tx.Users().List()
				if len(all) != 1 || all[0].Email != "kept@example.com" {
					t.Errorf("users = %v, want only kept@example.com", all)
				}
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestActivityAfterSerializableCommit: in a SERIALIZABLE transaction (Update) the sender's
// activity, which nothing in it reads back, runs after the COMMIT in a round trip of its own,
// outside the transaction's conflict checks (deferAfterCommit); read back inside the
// transaction it is written there; rolled back, it is not written at all.
func TestActivityAfterSerializableCommit(t *testing.T) {
	t.Parallel()
	s := mustOpen(t, freshSchema(t, postgresURL(t)))
	ctx := t.Context()
	var me users.ID
	if err := s.Update(ctx, func(tx storage.Tx) (err error) {
		me, err = tx.Users().Create(users.User{Email: "a@example.com", APIKey: "k1", IsActive: true})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	activeSince := func(at int64) []users.ID {
		var got []users.ID
		if err := s.View(ctx, func(tx storage.ReadTx) (err error) {
			got, err = tx.Users().ActiveSince(at)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		return got
	}
	boom := errors.New("boom")
	tests := []struct {
		name     string
		at       int64
		readBack bool
		fail     error
		extra    uint64 // round trips beyond those of the same transaction without activity
		want     int
	}{
		{"after the commit", 1000, false, nil, 1, 1},
		{"read back inside", 2000, true, nil, 1, 1},
		{"rolled back", 3000, false, boom, 0, 0},
	}
	for _, tt := range tests {
		var trips [2]uint64
		for i, active := range []bool{false, true} {
			before := s.RoundTrips()
			err := s.Update(ctx, func(tx storage.Tx) error {
				if _, err := tx.Users().Get(me); err != nil {
					return err
				}
				if active {
					if err := tx.Users().SetLastActive(tt.at, me); err != nil {
						return err
					}
				}
				if tt.readBack {
					got, err := tx.Users().ActiveSince(tt.at)
					if err != nil {
						return err
					}
					if active && (len(got) != 1 || got[0] != me) {
						t.Errorf("%s: ActiveSince inside = %v, want [%d]", tt.name, got, me)
					}
				}
				return tt.fail
			})
			if !errors.Is(err, tt.fail) {
				t.Fatalf("%s: %v", tt.name, err)
			}
			trips[i] = s.RoundTrips() - before
		}
		if got := trips[1] - trips[0]; got != tt.extra {
			t.Errorf("%s: %d round trips more with the activity (%v), want %d", tt.name, got, trips, tt.extra)
		}
		if got := activeSince(tt.at); len(got) != tt.want {
			t.Errorf("%s: active since %d = %v, want %d users", tt.name, tt.at, got, tt.want)
		}
	}
}
