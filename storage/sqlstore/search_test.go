package sqlstore_test

import (
	"database/sql"
	"path/filepath"
	"testing"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// TestSearchIndexMigration: migration 50 builds the search index of the messages stored
// before it. The test stores messages, removes what the search migrations made, and opens
// the store again.
func TestSearchIndexMigration(t *testing.T) {
	t.Parallel()
	t.Run("sqlite", func(t *testing.T) {
		t.Parallel()
		path := filepath.Join(t.TempDir(), "chat.db")
		testSearchIndexMigration(t, "sqlite", path, "sqlite:"+path,
			"DROP TABLE message_search", "DELETE FROM schema_migrations WHERE version IN (50, 51)")
	})
	t.Run("postgres", func(t *testing.T) {
		t.Parallel()
		dsn := freshSchema(t, postgresURL(t))
		testSearchIndexMigration(t, "pgx", dsn, dsn,
			"DROP INDEX messages_search", "ALTER TABLE messages DROP COLUMN search_topic, DROP COLUMN search_content",
			"DELETE FROM schema_migrations WHERE version IN (50, 51)")
	})
}

// testSearchIndexMigration stores three messages, two of them matching "cake", runs undo on
// the database (putting back an earlier form of the search index and deleting the migrations
// that changed it), opens the store again and checks that search finds the two.
func testSearchIndexMigration(t *testing.T, driver, driverDSN, dsn string, undo ...string) {
	s := mustOpen(t, dsn)
	const reader = users.ID(1)
	var want []messages.ID
	err := s.Update(t.Context(), func(tx storage.Tx) error {
		for i, text := range []string{"<p>Old cakes</p>", "<p>nothing</p>", "<p>a cake</p>"} {
			id, err := tx.Messages().Create(messages.Message{SenderID: 2, ChannelID: channels.ID(1), Topic: "t", Content: "x", Rendered: text},
				[]messages.UserMessage{{UserID: reader}})
			if err != nil {
				return err
			}
			if i != 1 {
				want = append(want, id)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	db, err := sql.Open(driver, driverDSN)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, stmt := range undo {
		if _, err := db.Exec(stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	s = mustOpen(t, dsn)
	var got []messages.ID
	err = s.View(t.Context(), func(tx storage.ReadTx) error {
		list, err := tx.Messages().Query(storage.MessageQuery{User: reader, Limit: 10,
			Terms: []messages.Term{{Operator: messages.OpSearch, Search: messages.ParseSearch("cake")}}})
		for _, m := range list {
			got = append(got, m.Message.ID)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("search after the migration = %v, want %v", got, want)
	}
}
