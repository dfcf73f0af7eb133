package chat_test

import (
	"database/sql"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/internal/benchorg"
	"github.com/teamchat/chat/storage/sqlstore"
)

// TestRowsWrittenPerSend prints the rows a send adds to each table of a SQLite store, to a
// channel of 10 members and to one of 10,000, and pins issue 42's constant: a channel message
// is stored for its channel's subscribers (storage.CreateForSubscribers) with implicit rows, so
// a send writes one message row, its search entries and the sender's row (read), whatever the
// channel's size: 5 rows (user_messages gains 1). Updates of existing rows are not counted (a
// table's count does not change).
func TestRowsWrittenPerSend(t *testing.T) {
	const rowsPerSend = 5
	if testing.Short() {
		t.Skip("builds a 10,000-member organization on SQLite")
	}
	t.Parallel()
	path := filepath.Join(t.TempDir(), "chat.db")
	store, err := sqlstore.Open(t.Context(), "sqlite:"+path)
	if err != nil {
		t.Fatal(err)
	}
	svc, err := chat.New(chat.Options{Store: store, HeartbeatWait: time.Hour, Logger: quietLogger()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { svc.Close(); store.Close() })
	ctx := t.Context()
	if _, err := svc.CreateOrganization(ctx, chat.CreateOrganizationParams{Name: "Rows", URL: "https://rows.example.com/"}); err != nil {
		t.Fatal(err)
	}
	org, err := benchorg.Build(ctx, svc, store, benchorg.Spec{Users: 10000, Channels: 1, SubsPerUser: 1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Subscribe(ctx, org.Admin, chat.SubscribeParams{
		Subscriptions: []chat.SubscriptionRequest{{Name: "small"}},
		Principals:    chat.Principals{IDs: org.Members[:9]},
	}); err != nil {
		t.Fatal(err)
	}
	small, err := svc.GetStreamID(ctx, org.Admin, chat.GetStreamIDParams{Stream: "small"})
	if err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, c := range []struct {
		name       string
		channel    channels.ID
		recipients int64
	}{{"10 members", small.StreamID, 10}, {"10,000 members", org.Channels[0], 10001}} {
		before := tableCounts(t, db)
		id := c.channel
		// Twice: the first message of a channel writes more than the next ones do.
		for range 2 {
			if _, err := svc.SendMessage(ctx, org.Admin, chat.SendMessageParams{Type: "stream", ChannelID: &id, Topic: ptrTo("rows"), Content: "a message"}); err != nil {
				t.Fatal(err)
			}
		}
		mid := tableCounts(t, db)
		if _, err := svc.SendMessage(ctx, org.Admin, chat.SendMessageParams{Type: "stream", ChannelID: &id, Topic: ptrTo("rows"), Content: "a message"}); err != nil {
			t.Fatal(err)
		}
		after := tableCounts(t, db)
		added, report := countDelta(mid, after)
		t.Logf("send to a channel of %s (%d recipients): %d rows added: %s", c.name, c.recipients, added, report)
		if d := after["messages"] - mid["messages"]; d != 1 {
			t.Errorf("%s: messages gained %d rows per send, want 1", c.name, d)
		}
		if d := after["user_messages"] - mid["user_messages"]; d != 1 {
			t.Errorf("%s: user_messages gained %d rows per send, want 1 (the sender's; %d recipients)", c.name, d, c.recipients)
		}
		if added != rowsPerSend {
			t.Errorf("%s: a send added %d rows, want the constant %d", c.name, added, rowsPerSend)
		}
		if d := mid["messages"] - before["messages"]; d != 2 {
			t.Errorf("%s: messages gained %d rows for two sends", c.name, d)
		}
	}
}

// tableCounts counts the rows of every table of the database (FTS shadow tables included).
func tableCounts(t *testing.T, db *sql.DB) map[string]int64 {
	t.Helper()
	rows, err := db.QueryContext(t.Context(), "SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%'")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			t.Fatal(err)
		}
		names = append(names, n)
	}
	if err := rows.Close(); err != nil {
		t.Fatal(err)
	}
	out := map[string]int64{}
	for _, n := range names {
		var c int64
		if err := db.QueryRowContext(t.Context(), `SELECT COUNT(*) FROM "`+n+`"`).Scan(&c); err != nil {
			t.Fatalf("count %s: %v", n, err)
		}
		out[n] = c
	}
	return out
}

// countDelta sums the rows added between two counts and lists the tables that changed.
func countDelta(before, after map[string]int64) (int64, string) {
	var total int64
	var parts []string
	for n, c := range after {
		if d := c - before[n]; d != 0 {
			total += d
			parts = append(parts, fmt.Sprintf("%s %+d", n, d))
		}
	}
	slices.Sort(parts)
	return total, strings.Join(parts, ", ")
}
