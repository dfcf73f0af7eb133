package chat_test

import (
	"testing"
	"time"

	chat "github.com/teamchat/chat"
)

// statementCounter is a store that counts the statements it sends and its round trips to
// the database (sqlstore.Store).
type statementCounter interface {
	Statements() uint64
	RoundTrips() uint64
}

// sendStatementBudget is the most statements one channel message to a channel of a few
// subscribers may take on an SQL store, BEGIN and COMMIT included (issue 24; fifteen before):
// the check of the cached lists (the users, whom the acting user and the subscribers are read
// from without a statement, who muted whom, alert words, linkifiers...), the channel's
// subscribers (SQLite: kept by the store while the subscriptions' version holds), the message
// with its channel's first and last message before it (PostgreSQL: those and the message's id
// are read ahead, in the first round trip), its rows (SQLite: the message, then its rows, the
// sender's activity and its search entry, each shared by a group's sends:
// internal/engine/commits.go), the sender's activity (PostgreSQL).
var sendStatementBudget = map[string]uint64{"sqlite": 7, "postgres": 7}

// sendRoundTripBudget is the most round trips to the database those statements may take:
// PostgreSQL sends BEGIN with the check of the cached lists and the reads announced ahead
// (the channel's subscribers, its bounds and the message's id), and the message and the
// sender's activity with the COMMIT (sqlstore's pipeline.go, ahead.go): a send waits for the
// database twice (six times before). SQLite has one call per statement.
var sendRoundTripBudget = map[string]uint64{"sqlite": 7, "postgres": 2}

// TestSendStatements counts the statements of a channel message on the SQL stores, the
// world's lists being cached (a second message), and holds them to sendStatementBudget and
// their round trips to sendRoundTripBudget.
func TestSendStatements(t *testing.T) {
	t.Parallel()
	for _, b := range testBackends() {
		budget, ok := sendStatementBudget[b.name]
		if !ok {
			continue
		}
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			f := newFixtureOn(t, b.open(t))
			counter, ok := f.store.(statementCounter)
			if !ok {
				t.Fatalf("%T does not count its statements", f.store)
			}
			ch := mustChannel(t, f, "counted", chat.NewChannelSettings{}, "member", "admin", "owner", "guest")
			ctx := t.Context()
			for i, who := range []string{"member", "admin", "member"} {
				// A second later each time: the sender's activity is written (a store leaves
				// out a time it has written already, sqlstore's activity.go).
				f.clock.Advance(time.Second)
				before, tripsBefore := counter.Statements(), counter.RoundTrips()
				if _, err := f.svc.SendMessage(ctx, f.actor(who), chat.SendMessageParams{
					Type: "stream", ChannelID: &ch, Topic: ptr("counting"), Content: "one more message",
				}); err != nil {
					t.Fatal(err)
				}
				n, trips := counter.Statements()-before, counter.RoundTrips()-tripsBefore
				t.Logf("message %d: %d statements, %d round trips", i+1, n, trips)
				if i > 0 && n > budget {
					t.Errorf("message %d took %d statements, budget %d", i+1, n, budget)
				}
				if i > 0 && trips > sendRoundTripBudget[b.name] {
					t.Errorf("message %d took %d round trips, budget %d", i+1, trips, sendRoundTripBudget[b.name])
				}
			}
		})
	}
}
