package sqlstore_test

import (
	"database/sql"
	"path/filepath"
	"slices"
	"testing"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// TestUserMessagesWithoutRowidMigration: migration 160 moves SQLite's user_messages rows into
// a table without a rowid, keeping every row and its flags. The test stores messages, puts
// the table back as it was before 160 (a rowid table), and opens the store again.
func TestUserMessagesWithoutRowidMigration(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "chat.db")
	s := mustOpen(t, "sqlite:"+path)
	var ids []messages.ID
	err := s.Update(t.Context(), func(tx storage.Tx) error {
		for i := range 3 {
			rows := []messages.UserMessage{{UserID: 1, Flags: messages.FlagRead}, {UserID: 2}, {UserID: users.ID(3 + i)}}
			id, err := tx.Messages().Create(messages.Message{SenderID: 1, ChannelID: channels.ID(1), Topic: "t", Content: "x", Rendered: "<p>x</p>"}, rows)
			if err != nil {
				return err
			}
			ids = append(ids, id)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := userRows(t, s, ids)
	s.Close()

	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, stmt := range []string{
		`CREATE TABLE user_messages_old (user_id BIGINT NOT NULL,
			message_id BIGINT NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
			flags BIGINT NOT NULL, PRIMARY KEY (user_id, message_id))`,
		"INSERT INTO user_messages_old SELECT user_id, message_id, flags FROM user_messages",
		"DROP TABLE user_messages",
		"ALTER TABLE user_messages_old RENAME TO user_messages",
		"CREATE INDEX user_messages_message ON user_messages (message_id, user_id)",
		"DELETE FROM schema_migrations WHERE version = 160",
	} {
		if _, err := db.Exec(stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	if _, err := db.Exec("SELECT rowid FROM user_messages"); err != nil {
		t.Fatalf("the table put back has no rowid: %v", err)
	}

	s = mustOpen(t, "sqlite:"+path)
	if got := userRows(t, s, ids); !slices.Equal(got, want) || len(got) != 9 {
		t.Errorf("rows after the migration = %v, want %v (9 rows)", got, want)
	}
	s.Close()
	if _, err := db.Exec("SELECT rowid FROM user_messages"); err == nil {
		t.Error("user_messages still has a rowid after migration 160")
	}
}

func userRows(t *testing.T, s storage.Storage, ids []messages.ID) []messages.UserMessage {
	t.Helper()
	var rows []messages.UserMessage
	if err := s.View(t.Context(), func(tx storage.ReadTx) error {
		var err error
		rows, err = tx.Messages().Rows(ids)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return rows
}

// TestSearchWithoutSizesMigration: migration 161 rebuilds SQLite's search index without its
// token counts, keeping every entry. The test stores messages, puts the index back as migration
// 50 made it, and opens the store again.
func TestSearchWithoutSizesMigration(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "chat.db")
	testSearchIndexMigration(t, "sqlite", path, "sqlite:"+path,
		"CREATE VIRTUAL TABLE message_search_old USING fts5(topic, content, tokenize = 'unicode61 remove_diacritics 0')",
		"INSERT INTO message_search_old (rowid, topic, content) SELECT rowid, topic, content FROM message_search",
		"DROP TABLE message_search",
		"ALTER TABLE message_search_old RENAME TO message_search",
		"DELETE FROM schema_migrations WHERE version = 161",
		"SELECT COUNT(*) FROM message_search_docsize",
	)
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec("SELECT COUNT(*) FROM message_search_docsize"); err == nil {
		t.Error("message_search_docsize still exists after migration 161")
	}
}
