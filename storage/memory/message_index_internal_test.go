package memory

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// TestMessageIndexesFollowWrites runs random message writes (sends, edits, moves, deletions,
// rows put and deleted, archive restores), a third of the transactions rolled back, and after
// each checks that every index holds exactly what a scan of the messages and rows gives, and
// that Query answers as a scan of every message does.
func TestMessageIndexesFollowWrites(t *testing.T) {
	t.Parallel()
	s := New()
	r := rand.New(rand.NewPCG(42, 7))
	errRollback := errors.New("rolled back")
	topicsList := []string{"lunch", "LUNCH", "ſtraße", "Straße", "k", "\u212a", "dinner"}
	for round := range 300 {
		rollback := r.IntN(3) == 0
		err := s.Update(t.Context(), func(tx storage.Tx) error {
			for range 1 + r.IntN(6) {
				randomWrite(t, tx, r, topicsList)
			}
			if rollback {
				return errRollback
			}
			return nil
		})
		if err != nil && !errors.Is(err, errRollback) {
			t.Fatalf("round %d: %v", round, err)
		}
		checkIndexes(t, s.d)
		checkQueries(t, s, r, topicsList)
	}
	c, err := s.Clone()
	if err != nil {
		t.Fatal(err)
	}
	checkIndexes(t, c.d)
}

// randomWrite makes one random write of the messages area.
func randomWrite(t *testing.T, w storage.Tx, r *rand.Rand, topicsList []string) {
	t.Helper()
	mw := w.Messages()
	md := &w.(*tx).d.msgs
	existing := slices.Sorted(func(yield func(messages.ID) bool) {
		for id := range md.messages {
			if !yield(id) {
				return
			}
		}
	})
	pick := func() messages.ID {
		if len(existing) == 0 {
			return 1
		}
		return existing[r.IntN(len(existing))]
	}
	var err error
	switch op := r.IntN(8); {
	case op < 3 || len(existing) == 0:
		m := messages.Message{SenderID: users.ID(1 + r.IntN(4)), Content: "m", Timestamp: int64(r.IntN(50))}
		if r.IntN(3) == 0 {
			m.Recipients = messages.Participants(m.SenderID, []users.ID{users.ID(1 + r.IntN(4))})
		} else {
			m.ChannelID, m.Topic = channels.ID(1+r.IntN(3)), topicsList[r.IntN(len(topicsList))]
		}
		rows := []messages.UserMessage{{UserID: m.SenderID}, {UserID: users.ID(1 + r.IntN(4))}}
		_, err = mw.Create(m, rows)
	case op == 3:
		ids := []messages.ID{pick(), pick()}
		err = mw.Move(ids, channels.ID(1+r.IntN(3)), topicsList[r.IntN(len(topicsList))], messages.EditHistoryEntry{}, 1)
	case op == 4:
		m, gerr := mw.Get(pick())
		if gerr != nil {
			return
		}
		m.Content, m.Timestamp = "edited", int64(r.IntN(50))
		if !m.IsDirect() {
			m.Topic = topicsList[r.IntN(len(topicsList))]
		}
		err = mw.Update(m)
	case op == 5:
		err = mw.Delete([]messages.ID{pick(), pick(), pick()})
	case op == 6:
		err = mw.PutRows([]messages.UserMessage{{UserID: users.ID(1 + r.IntN(5)), MessageID: pick(), Flags: messages.FlagHistorical}})
	default:
		err = mw.DeleteRows([]users.ID{users.ID(1 + r.IntN(5))}, []messages.ID{pick(), pick()})
	}
	if err != nil && !errors.Is(err, storage.ErrNotFound) {
		t.Fatal(err)
	}
}

// checkIndexes compares every index of d with what a scan of d's messages and rows gives.
func checkIndexes(t *testing.T, d *data) {
	t.Helper()
	md := &d.msgs
	want := newMessageIndexes()
	for _, id := range slices.Sorted(func(yield func(messages.ID) bool) {
		for id := range md.messages {
			if !yield(id) {
				return
			}
		}
	}) {
		for _, l := range want.messageLists(md.messages[id]) {
			*l = append(*l, id)
		}
		for u := range md.rows[id] {
			l := listOf(want.byUser, u)
			*l = append(*l, id)
		}
	}
	got := md.idx.clone() // drops the empty lists
	opts := []cmp.Option{cmp.AllowUnexported(messageIndexes{}, topicKey{}), cmpopts.EquateEmpty()}
	if diff := cmp.Diff(want.clone(), got, opts...); diff != "" {
		t.Fatalf("indexes differ from a scan (-scan +index):\n%s", diff)
	}
}

// checkQueries compares Query's answers with a scan of every message, for narrows the indexes
// serve.
func checkQueries(t *testing.T, s *Store, r *rand.Rand, topicsList []string) {
	t.Helper()
	u := users.ID(1 + r.IntN(5))
	c := channels.ID(1 + r.IntN(3))
	topic := topicsList[r.IntN(len(topicsList))]
	cases := [][]messages.Term{
		nil,
		{{Operator: messages.OpChannel, Channel: c}},
		{{Operator: messages.OpChannel, Channel: c}, {Operator: messages.OpTopic, Text: topic}},
		{{Operator: messages.OpSender, User: u}},
		{{Operator: messages.OpDM, Users: messages.Participants(u, []users.ID{users.ID(1 + r.IntN(4))})}},
		{{Operator: messages.OpDMIncluding, User: users.ID(1 + r.IntN(4))}},
		{{Operator: messages.OpIs, Text: messages.IsUnread}},
		{{Operator: messages.OpID, Message: messages.ID(1 + r.IntN(40))}},
		{{Operator: messages.OpChannel, Channel: c, Negated: true}},
	}
	history := [][]channels.ID{nil, {c}, {1, 2, 3}}[r.IntN(3)]
	err := s.View(t.Context(), func(rt storage.ReadTx) error {
		md := &rt.(*readTx).d.msgs
		for _, terms := range cases {
			for _, newest := range []bool{false, true} {
				q := storage.MessageQuery{User: u, HistoryChannels: history, Terms: terms, Newest: newest, Limit: 1 + r.IntN(5), MinID: messages.ID(r.IntN(10))}
				got, err := rt.Messages().Query(q)
				if err != nil {
					return err
				}
				want := scanQuery(md, q)
				if diff := cmp.Diff(want, got); diff != "" {
					t.Fatalf("Query(%+v) differs from a scan (-scan +query):\n%s", q, diff)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// scanQuery answers q by reading every message, as Query did before the indexes.
func scanQuery(md *messageData, q storage.MessageQuery) []storage.MessageMatch {
	ids := slices.Sorted(func(yield func(messages.ID) bool) {
		for id := range md.messages {
			if !yield(id) {
				return
			}
		}
	})
	if q.Newest {
		slices.Reverse(ids)
	}
	out := []storage.MessageMatch{}
	for _, id := range ids {
		if id < q.MinID || q.MaxID != 0 && id > q.MaxID {
			continue
		}
		m := md.messages[id]
		flags, received := md.rows[id][q.User]
		if !received && (m.IsDirect() || !slices.Contains(q.HistoryChannels, m.ChannelID)) {
			continue
		}
		if !messages.Match(q.Terms, messages.Candidate{Message: m, Flags: flags, Received: received}) {
			continue
		}
		out = append(out, storage.MessageMatch{Message: m.Clone(), Flags: flags, Received: received})
		if len(out) == q.Limit {
			break
		}
	}
	if q.Newest {
		slices.Reverse(out)
	}
	return out
}

// TestFoldTopicIsEqualFold: two topic names share a key exactly when strings.EqualFold says
// they are the same topic.
func TestFoldTopicIsEqualFold(t *testing.T) {
	t.Parallel()
	names := []string{"lunch", "LUNCH", "Lunch", "ſtraße", "STRASSE", "straße", "Straße", "k", "K", "\u212a",
		"Σίσυφος", "ΣΊΣΥΦΟΣ", "σίσυφοσ", "ǅ", "ǆ", "Ǆ", "", "\xff", "\xfe", "lunch ", "ΐ", "ΐ"}
	for _, a := range names {
		for _, b := range names {
			if same, keyed := strings.EqualFold(a, b), foldTopic(a) == foldTopic(b); same != keyed {
				t.Errorf("%q, %q: EqualFold %v, same key %v", a, b, same, keyed)
			}
		}
	}
}
