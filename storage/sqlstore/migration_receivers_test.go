package sqlstore_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/storage/sqlstore"
	"github.com/teamchat/chat/users"
)

// TestReceiveIntervalsMigration: migration 193 (implicit rows, issue 42) keeps every row of a
// store written by the previous schema, with its flags, and every user's unread state; a
// channel message stored for its subscribers afterwards reaches those receiving its channel.
// The test writes a store, puts it back as it was before 193 (and 194, its index), and opens it
// again.
func TestReceiveIntervalsMigration(t *testing.T) {
	t.Parallel()
	onBothDialects(t, testReceiveIntervalsMigration)
}

// migrationState is what the migration must keep: every row, and per user the unread rows
// and the highest message received.
type migrationState struct {
	Rows    []messages.UserMessage
	Unread  map[users.ID][]messages.UserMessage
	MaxSeen map[users.ID]messages.ID
}

func testReceiveIntervalsMigration(t *testing.T, dsn string) {
	s := mustOpen(t, dsn)
	var us []users.ID
	var cs []channels.ID
	var ids []messages.ID
	mustWrite(t, s, func(tx storage.Tx) error {
		for i := range 4 {
			u := users.User{Email: fmt.Sprintf("m%d@example.com", i), FullName: "M", Role: users.RoleMember,
				IsActive: i != 3, APIKey: fmt.Sprintf("%032d", i), Timezone: "UTC", DateJoined: time.Unix(1700000000, 0).UTC()}
			id, err := tx.Users().Create(u)
			if err != nil {
				return err
			}
			us = append(us, id)
		}
		for _, name := range []string{"one", "two"} {
			id, err := tx.Channels().Create(channels.Channel{Name: name, DateCreated: 1700000000})
			if err != nil {
				return err
			}
			cs = append(cs, id)
		}
		// us[0], us[1] receive cs[0]; us[2]'s subscription is inactive; us[3] is inactive.
		subs := []channels.Subscription{{UserID: us[0], ChannelID: cs[0], Active: true}, {UserID: us[1], ChannelID: cs[0], Active: true},
			{UserID: us[2], ChannelID: cs[0]}, {UserID: us[3], ChannelID: cs[0], Active: true}, {UserID: us[1], ChannelID: cs[1], Active: true}}
		if err := tx.Subscriptions().Put(subs); err != nil {
			return err
		}
		for i := range 5 {
			c := cs[i%2]
			rows := []messages.UserMessage{{UserID: us[0], Flags: messages.FlagRead}, {UserID: us[1], Flags: messages.Flags(i%2) | messages.FlagStarred*messages.Flags(i/3)},
				{UserID: us[2], Flags: messages.FlagHistorical}}
			id, err := tx.Messages().Create(messages.Message{SenderID: us[0], ChannelID: c, Topic: "t", Content: "x", Rendered: "<p>x</p>"}, rows)
			if err != nil {
				return err
			}
			ids = append(ids, id)
		}
		id, err := tx.Messages().Create(messages.Message{SenderID: us[0], Recipients: []users.ID{us[0], us[1]}, Content: "d", Rendered: "<p>d</p>"},
			[]messages.UserMessage{{UserID: us[0], Flags: messages.FlagRead}, {UserID: us[1]}})
		ids = append(ids, id)
		return err
	})
	want := readMigrationState(t, s, us, ids)
	for _, stmt := range []string{"DROP INDEX messages_implicit", "DROP TABLE receive_intervals", "DROP TABLE read_marks",
		"ALTER TABLE messages DROP COLUMN implicit_rows", "DELETE FROM schema_migrations WHERE version >= 193"} {
		if err := sqlstore.ExecRaw(s, stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	s.Close()

	s = mustOpen(t, dsn)
	if diff := cmp.Diff(want, readMigrationState(t, s, us, ids)); diff != "" {
		t.Errorf("state after the migration (-before +after):\n%s", diff)
	}
	var sent messages.ID
	mustWrite(t, s, func(tx storage.Tx) (err error) {
		sent, _, err = storage.CreateForSubscribers(tx.Messages(), messages.Message{SenderID: us[0], ChannelID: cs[0], Topic: "t", Content: "y", Rendered: "<p>y</p>"},
			[]users.ID{us[0], us[1]}, []messages.UserMessage{{UserID: us[0], Flags: messages.FlagRead}})
		return err
	})
	got := readMigrationState(t, s, us, append(slices.Clone(ids), sent))
	wantRows := append(slices.Clone(want.Rows), messages.UserMessage{UserID: us[0], MessageID: sent, Flags: messages.FlagRead},
		messages.UserMessage{UserID: us[1], MessageID: sent})
	if diff := cmp.Diff(wantRows, got.Rows); diff != "" {
		t.Errorf("rows after a send (-want +got):\n%s", diff)
	}
	if got.MaxSeen[us[1]] != sent || !slices.ContainsFunc(got.Unread[us[1]], func(r messages.UserMessage) bool { return r.MessageID == sent }) {
		t.Errorf("user %d after a send: highest received %d, unread %v; want %d among them", us[1], got.MaxSeen[us[1]], got.Unread[us[1]], sent)
	}
}

func readMigrationState(t *testing.T, s storage.Storage, us []users.ID, ids []messages.ID) migrationState {
	t.Helper()
	st := migrationState{Unread: map[users.ID][]messages.UserMessage{}, MaxSeen: map[users.ID]messages.ID{}}
	if err := s.View(t.Context(), func(tx storage.ReadTx) error {
		var err error
		if st.Rows, err = tx.Messages().Rows(ids); err != nil {
			return err
		}
		for _, u := range us {
			if st.Unread[u], err = tx.Messages().UserRowsWhere(u, 0, messages.FlagRead); err != nil {
				return err
			}
			if st.MaxSeen[u], err = tx.Messages().MaxReceivedID(u); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return st
}

func mustWrite(t *testing.T, s storage.Storage, fn func(storage.Tx) error) {
	t.Helper()
	if err := s.Update(t.Context(), fn); err != nil {
		t.Fatal(err)
	}
}
