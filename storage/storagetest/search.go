package storagetest

import (
	"errors"
	"testing"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// queryIDs runs q in a read transaction and returns the ids it matched, ascending.
func queryIDs(t *testing.T, s storage.Storage, q storage.MessageQuery) []messages.ID {
	t.Helper()
	out := []messages.ID{}
	mustView(t, s, func(tx storage.ReadTx) error {
		got, err := tx.Messages().Query(q)
		for _, m := range got {
			out = append(out, m.Message.ID)
		}
		return err
	})
	return out
}

func searchTerm(q string, negated bool) messages.Term {
	return messages.Term{Operator: messages.OpSearch, Text: q, Search: messages.ParseSearch(q), Negated: negated}
}

// testSearch pins the narrow terms a backend may evaluate itself (full-text search, has
// reactions): every backend returns what messages.Match decides, and its index follows
// creates, edits, moves, deletions and rollbacks.
func testSearch(t *testing.T, open Opener) {
	t.Run("search matches stemmed words and phrases of the topic and content", func(t *testing.T) {
		s := open(t)
		w := seedMessageWorld(t, s)
		row := map[users.ID]messages.Flags{w.u[0]: 0}
		mk := func(c channels.ID, topic, rendered string) messages.ID {
			return mustCreateMessage(t, s, messages.Message{SenderID: w.u[1], ChannelID: c, Topic: topic, Content: "x", Rendered: rendered}, row).ID
		}
		a := mk(w.c1, "lunch", "<p>We ate <strong>cakes</strong></p>")
		b := mk(w.c1, "dinner", "<p>the quick brown fox</p>")
		c := mk(w.c2, "Lunch plans", "<p>brown, then fox; a cake</p>")
		d := mustCreateMessage(t, s, messages.Message{SenderID: w.u[1], Recipients: []users.ID{w.u[0], w.u[1]}, Content: "x",
			Rendered: "<p>Foxes &amp; cakes</p>"}, row).ID
		mustCreateMessage(t, s, messages.Message{SenderID: w.u[1], ChannelID: w.c1, Topic: "lunch", Content: "x", Rendered: "<p>cake for others</p>"},
			map[users.ID]messages.Flags{w.u[2]: 0})
		for _, tt := range []struct {
			name  string
			terms []messages.Term
			want  []messages.ID
		}{
			{"a stemmed word", []messages.Term{searchTerm("CAKE", false)}, []messages.ID{a, c, d}},
			{"a topic word", []messages.Term{searchTerm("lunch", false)}, []messages.ID{a, c}},
			{"every word", []messages.Term{searchTerm("fox brown", false)}, []messages.ID{b, c}},
			{"a phrase", []messages.Term{searchTerm(`"brown fox"`, false)}, []messages.ID{b}},
			{"a phrase and a topic word", []messages.Term{searchTerm(`"brown fox" dinner`, false)}, []messages.ID{b}},
			{"no word", []messages.Term{searchTerm("!!", false)}, []messages.ID{}},
			{"negated", []messages.Term{searchTerm("cake", true)}, []messages.ID{b}},
			{"with a channel", []messages.Term{searchTerm("cake", false), {Operator: messages.OpChannel, Channel: w.c2}}, []messages.ID{c}},
			{"with is:dm", []messages.Term{searchTerm("fox", false), {Operator: messages.OpIs, Text: messages.IsDM}}, []messages.ID{d}},
			{"two searches", []messages.Term{searchTerm("cake", false), searchTerm("brown", false)}, []messages.ID{c}},
			{"a search and a negated one", []messages.Term{searchTerm("cake", false), searchTerm("brown", true)}, []messages.ID{a, d}},
		} {
			wantEqual(t, tt.name, tt.want, queryIDs(t, s, storage.MessageQuery{User: w.u[0], Terms: tt.terms, Limit: 100}))
		}
		wantEqual(t, "newest first, limited", []messages.ID{c, d},
			queryIDs(t, s, storage.MessageQuery{User: w.u[0], Terms: []messages.Term{searchTerm("cakes", false)}, Limit: 2, Newest: true}))
		wantEqual(t, "bounded by ids", []messages.ID{c},
			queryIDs(t, s, storage.MessageQuery{User: w.u[0], Terms: []messages.Term{searchTerm("cakes", false)}, MinID: b, MaxID: c, Limit: 10}))
	})

	t.Run("search follows edits, moves, deletions and rollbacks", func(t *testing.T) {
		s := open(t)
		w := seedMessageWorld(t, s)
		row := map[users.ID]messages.Flags{w.u[0]: 0}
		m := mustCreateMessage(t, s, messages.Message{SenderID: w.u[1], ChannelID: w.c1, Topic: "old", Content: "x", Rendered: "<p>apples</p>"}, row)
		other := mustCreateMessage(t, s, messages.Message{SenderID: w.u[1], ChannelID: w.c1, Topic: "old", Content: "x", Rendered: "<p>pears</p>"}, row)
		find := func(q string) []messages.ID {
			return queryIDs(t, s, storage.MessageQuery{User: w.u[0], Terms: []messages.Term{searchTerm(q, false)}, Limit: 10})
		}
		m.Rendered = "<p>oranges</p>"
		mustUpdate(t, s, func(tx storage.Tx) error { return tx.Messages().Update(m) })
		wantEqual(t, "old words after an edit", []messages.ID{}, find("apple"))
		wantEqual(t, "new words after an edit", []messages.ID{m.ID}, find("orange"))
		mustUpdate(t, s, func(tx storage.Tx) error {
			return tx.Messages().Move([]messages.ID{m.ID, other.ID}, w.c2, "Moved topic", messages.EditHistoryEntry{Timestamp: 5, UserID: w.u[1]}, 5)
		})
		wantEqual(t, "old topic after a move", []messages.ID{}, find("old"))
		wantEqual(t, "new topic after a move", []messages.ID{m.ID, other.ID}, find("moved"))
		wantEqual(t, "content after a move", []messages.ID{other.ID}, find("pear moved"))
		errBoom := errors.New("boom")
		err := s.Update(t.Context(), func(tx storage.Tx) error {
			changed := m
			changed.Rendered = "<p>bananas</p>"
			if err := tx.Messages().Update(changed); err != nil {
				return err
			}
			if _, err := tx.Messages().Create(messages.Message{SenderID: w.u[1], ChannelID: w.c1, Topic: "t", Content: "x", Rendered: "<p>bananas</p>"},
				[]messages.UserMessage{{UserID: w.u[0]}}); err != nil {
				return err
			}
			if err := tx.Messages().Delete([]messages.ID{other.ID}); err != nil {
				return err
			}
			if got, err := tx.Messages().Query(storage.MessageQuery{User: w.u[0], Terms: []messages.Term{searchTerm("banana", false)}, Limit: 10}); err != nil || len(got) != 2 {
				t.Errorf("inside the transaction: %d matches, %v; want 2", len(got), err)
			}
			return errBoom
		})
		if !errors.Is(err, errBoom) {
			t.Fatalf("Update = %v, want %v", err, errBoom)
		}
		wantEqual(t, "a rolled-back edit and create", []messages.ID{}, find("banana"))
		wantEqual(t, "a rolled-back delete", []messages.ID{other.ID}, find("pear"))
		mustUpdate(t, s, func(tx storage.Tx) error { return tx.Messages().Delete([]messages.ID{m.ID}) })
		wantEqual(t, "a deleted message", []messages.ID{}, find("orange"))
	})

	t.Run("Query reads on past many rows that other terms refuse", func(t *testing.T) {
		s := open(t)
		w := seedMessageWorld(t, s)
		var starred []messages.ID
		mustUpdate(t, s, func(tx storage.Tx) error {
			for i := range 450 {
				f := messages.Flags(0)
				if i == 3 || i == 5 || i == 440 {
					f = messages.FlagStarred
				}
				id, err := tx.Messages().Create(messages.Message{SenderID: w.u[1], ChannelID: w.c1, Topic: "t", Content: "x", Rendered: "<p>word</p>"},
					[]messages.UserMessage{{UserID: w.u[0], Flags: f}})
				if err != nil {
					return err
				}
				if f != 0 {
					starred = append(starred, id)
				}
			}
			return nil
		})
		is := messages.Term{Operator: messages.OpIs, Text: messages.IsStarred}
		for _, newest := range []bool{false, true} {
			wantEqual(t, "starred among many", starred, queryIDs(t, s, storage.MessageQuery{User: w.u[0], Terms: []messages.Term{is}, Limit: 5, Newest: newest}))
		}
		wantEqual(t, "the oldest two, with a search", starred[:2], queryIDs(t, s, storage.MessageQuery{User: w.u[0],
			Terms: []messages.Term{is, searchTerm("word", false)}, Limit: 2}))
		wantEqual(t, "the newest two, with a search", starred[1:], queryIDs(t, s, storage.MessageQuery{User: w.u[0], Terms: []messages.Term{is, searchTerm("word", false)}, Limit: 2, Newest: true}))
	})

	t.Run("has:reaction reads the reactions", func(t *testing.T) {
		s := open(t)
		w := seedMessageWorld(t, s)
		row := map[users.ID]messages.Flags{w.u[0]: 0}
		a := mustCreateMessage(t, s, messages.Message{SenderID: w.u[1], ChannelID: w.c1, Topic: "t", Content: "x", Rendered: "<p>a</p>"}, row)
		b := mustCreateMessage(t, s, messages.Message{SenderID: w.u[1], ChannelID: w.c1, Topic: "t", Content: "x", Rendered: "<p>b</p>"}, row)
		mustUpdate(t, s, func(tx storage.Tx) error {
			return tx.Messages().AddReaction(messages.Reaction{MessageID: b.ID, UserID: w.u[0], EmojiName: "smile", EmojiCode: "1f604", ReactionType: "unicode_emoji"})
		})
		has := messages.Term{Operator: messages.OpHas, Text: messages.HasReaction}
		wantEqual(t, "has:reaction", []messages.ID{b.ID}, queryIDs(t, s, storage.MessageQuery{User: w.u[0], Terms: []messages.Term{has}, Limit: 10}))
		has.Negated = true
		wantEqual(t, "-has:reaction", []messages.ID{a.ID}, queryIDs(t, s, storage.MessageQuery{User: w.u[0], Terms: []messages.Term{has}, Limit: 10}))
	})
}
