package sqlstore_test

import (
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/storage/sqlstore"
	"github.com/teamchat/chat/storage/storagetest"
	"github.com/teamchat/chat/users"
)

// TestImplicitRowsStaySparse: what a store keeps of the rows of messages stored for their
// channel's subscribers does not grow as users read them: the sender's row only, then nothing
// once the readers' marks pass the messages; a flag other than read keeps one explicit row
// while it is set.
func TestImplicitRowsStaySparse(t *testing.T) {
	t.Parallel()
	onBothDialects(t, func(t *testing.T, dsn string) { testImplicitRowsStaySparse(t, mustOpen(t, dsn)) })
}

// onBothDialects runs fn in parallel subtests with the address of a new SQLite store and of
// a fresh PostgreSQL schema (skipped without CHAT_TEST_POSTGRES_URL).
func onBothDialects(t *testing.T, fn func(t *testing.T, dsn string)) {
	for _, tc := range []struct {
		name string
		dsn  func(t *testing.T) string
	}{
		{"sqlite", func(t *testing.T) string { return "sqlite:" + filepath.Join(t.TempDir(), "chat.db") }},
		{"postgres", func(t *testing.T) string { return freshSchema(t, postgresURL(t)) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fn(t, tc.dsn(t))
		})
	}
}

func testImplicitRowsStaySparse(t *testing.T, s *sqlstore.Store) {
	var us []users.ID
	var c channels.ID
	var ids []messages.ID
	mustWrite(t, s, func(tx storage.Tx) (err error) {
		for i := range 3 {
			id, err := tx.Users().Create(users.User{Email: fmt.Sprintf("s%d@example.com", i), FullName: "S", Role: users.RoleMember,
				IsActive: true, APIKey: fmt.Sprintf("%032d", i), Timezone: "UTC", DateJoined: time.Unix(1700000000, 0).UTC()})
			if err != nil {
				return err
			}
			us = append(us, id)
		}
		if c, err = tx.Channels().Create(channels.Channel{Name: "sparse", DateCreated: 1700000000}); err != nil {
			return err
		}
		var subs []channels.Subscription
		for _, u := range us {
			subs = append(subs, channels.Subscription{UserID: u, ChannelID: c, Active: true})
		}
		if err := tx.Subscriptions().Put(subs); err != nil {
			return err
		}
		for range 20 {
			id, _, err := storage.CreateForSubscribers(tx.Messages(), messages.Message{SenderID: us[0], ChannelID: c, Topic: "t", Content: "x", Rendered: "<p>x</p>"},
				us, []messages.UserMessage{{UserID: us[0], Flags: messages.FlagRead}})
			if err != nil {
				return err
			}
			ids = append(ids, id)
		}
		return nil
	})
	stored := func(step string, u users.ID, want int) {
		t.Helper()
		n, err := sqlstore.StoredRows(s, int64(u))
		if err != nil {
			t.Fatal(err)
		}
		if n != want {
			t.Errorf("%s: user %d has %d stored rows, want %d", step, u, n, want)
		}
	}
	stored("after the sends", us[0], 20)
	stored("after the sends", us[1], 0)
	for _, step := range []struct {
		name  string
		write func(tx storage.Tx) error
		u     users.ID
		want  int
	}{
		{"newest half read", func(tx storage.Tx) error { return setFlags(tx, us[1], ids[10:], messages.FlagRead, 0) }, us[1], 10},
		{"oldest half read", func(tx storage.Tx) error { return setFlags(tx, us[1], ids[:10], messages.FlagRead, 0) }, us[1], 0},
		{"one starred", func(tx storage.Tx) error { return setFlags(tx, us[1], ids[3:4], messages.FlagStarred, 0) }, us[1], 1},
		{"unstarred", func(tx storage.Tx) error { return setFlags(tx, us[1], ids[3:4], 0, messages.FlagStarred) }, us[1], 0},
		{"one unread", func(tx storage.Tx) error { return setFlags(tx, us[1], ids[5:6], 0, messages.FlagRead) }, us[1], 1},
		{"read again", func(tx storage.Tx) error { return setFlags(tx, us[1], ids[5:6], messages.FlagRead, 0) }, us[1], 0},
		{"channel read", func(tx storage.Tx) error {
			got, err := tx.Messages().MarkRead(storage.MarkReadQuery{User: us[2], ChannelID: c})
			if err == nil && !slices.Equal(got, ids) {
				err = fmt.Errorf("MarkRead = %v, want every message", got)
			}
			return err
		}, us[2], 0},
		{"sender reads", func(tx storage.Tx) error { return setFlags(tx, us[0], ids[19:], messages.FlagRead, 0) }, us[0], 0},
	} {
		mustWrite(t, s, step.write)
		stored(step.name, step.u, step.want)
	}
}

func setFlags(tx storage.Tx, u users.ID, ids []messages.ID, add, remove messages.Flags) error {
	_, err := tx.Messages().SetFlags(u, ids, add, remove)
	return err
}

// TestImplicitRowsWithoutInlineSpans runs the differential case of implicit rows with every
// message of a walk tested against the receive intervals by the subquery, the path of users
// with more intervals than a walk tests as literal bounds (holdsSQL).
func TestImplicitRowsWithoutInlineSpans(t *testing.T) {
	t.Parallel()
	open := func(dsn func(t *testing.T) string) storagetest.Opener {
		return func(t *testing.T) storage.Storage {
			s := mustOpen(t, dsn(t))
			sqlstore.SetMaxInlineSpans(s, -1)
			return s
		}
	}
	t.Run("sqlite", func(t *testing.T) {
		storagetest.ImplicitRows(t, open(func(t *testing.T) string { return "sqlite:" + filepath.Join(t.TempDir(), "chat.db") }))
	})
	t.Run("postgres", func(t *testing.T) {
		base := postgresURL(t)
		storagetest.ImplicitRows(t, open(func(t *testing.T) string { return freshSchema(t, base) }))
	})
}
