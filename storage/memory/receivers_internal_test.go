package memory

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// receiversFixture is a store with n active users subscribed to one channel.
func receiversFixture(t *testing.T, n int) (*Store, []users.ID, channels.ID) {
	t.Helper()
	s := New()
	var us []users.ID
	var c channels.ID
	err := s.Update(t.Context(), func(tx storage.Tx) error {
		var err error
		if c, err = tx.Channels().Create(channels.Channel{Name: "big"}); err != nil {
			return err
		}
		var subs []channels.Subscription
		for i := range n {
			u, err := tx.Users().Create(users.User{Email: fmt.Sprintf("u%d@example.com", i), IsActive: true})
			if err != nil {
				return err
			}
			us = append(us, u)
			subs = append(subs, channels.Subscription{UserID: u, ChannelID: c, Active: true})
		}
		return tx.Subscriptions().Put(subs)
	})
	if err != nil {
		t.Fatal(err)
	}
	return s, us, c
}

// storedRows counts the explicit rows the store holds.
func storedRows(s *Store) int {
	n := 0
	for _, byUser := range s.d.msgs.rows {
		n += len(byUser)
	}
	return n
}

// TestImplicitRowsStaySparse sends to a channel of many subscribers and reads: a send stores
// the rows given to it (those that differ from the implicit ones) only, and reading, by
// message or by channel, leaves no row behind.
func TestImplicitRowsStaySparse(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		read func(mw storage.MessageWriter, u users.ID, c channels.ID, ids []messages.ID) error
	}{
		{"whole channel", func(mw storage.MessageWriter, u users.ID, c channels.ID, _ []messages.ID) error {
			_, err := mw.MarkRead(storage.MarkReadQuery{User: u, ChannelID: c})
			return err
		}},
		{"one message at a time", func(mw storage.MessageWriter, u users.ID, _ channels.ID, ids []messages.ID) error {
			for _, id := range ids {
				if _, err := mw.SetFlags(u, []messages.ID{id}, messages.FlagRead, 0); err != nil {
					return err
				}
			}
			return nil
		}},
		{"newest first, a few at a time", func(mw storage.MessageWriter, u users.ID, _ channels.ID, _ []messages.ID) error {
			for range 5 {
				if _, err := mw.MarkRead(storage.MarkReadQuery{User: u, Limit: 4}); err != nil {
					return err
				}
			}
			return nil
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s, us, c := receiversFixture(t, 300)
			var ids []messages.ID
			err := s.Update(t.Context(), func(tx storage.Tx) error {
				for i := range 20 {
					sender := us[i%3]
					before := storedRows(s)
					id, _, err := storage.CreateForSubscribers(tx.Messages(), messages.Message{SenderID: sender, ChannelID: c, Topic: "t"}, nil,
						[]messages.UserMessage{{UserID: sender, Flags: messages.FlagRead}, {UserID: us[10], Flags: 0}, {UserID: us[11], Flags: messages.FlagMentioned}})
					if err != nil {
						return err
					}
					if got := storedRows(s) - before; got != 2 {
						t.Errorf("send %d stored %d rows, want 2 (the sender's and the mention)", i, got)
					}
					ids = append(ids, id)
				}
				for _, u := range us {
					if err := tc.read(tx.Messages(), u, c, ids); err != nil {
						return err
					}
				}
				unread, err := tx.Messages().UserRowsWhere(us[50], 0, messages.FlagRead)
				if len(unread) != 0 {
					t.Errorf("unread rows after reading: %v", unread)
				}
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			if got := storedRows(s); got != len(ids) {
				t.Errorf("stored rows after everyone read: %d, want %d (the mentions)", got, len(ids))
			}
		})
	}
}

// TestImplicitRowsRollBackAndClone runs random writes of rows on messages with implicit rows
// on a store and, with a row per recipient, on a reference store: both answer alike after
// each transaction, a rolled-back transaction leaves every answer as it was, and a clone
// answers as its original does.
func TestImplicitRowsRollBackAndClone(t *testing.T) {
	t.Parallel()
	s, us, c := receiversFixture(t, 5)
	ref, _, _ := receiversFixture(t, 5)
	errRollback := errors.New("rolled back")
	var ids, refIDs []messages.ID
	for round := range 200 {
		before, sent := observeRows(t, s, us, c), len(ids)
		rollback := round%3 == 0
		for i, st := range []*Store{s, ref} {
			r := rand.New(rand.NewPCG(3, uint64(round)))
			err := st.Update(t.Context(), func(tx storage.Tx) error {
				for range 1 + r.IntN(4) {
					if err := randomRowWrite(tx, r, us, c, i == 1, []*[]messages.ID{&ids, &refIDs}[i]); err != nil {
						return err
					}
				}
				if rollback {
					return errRollback
				}
				return nil
			})
			if err != nil && !errors.Is(err, errRollback) {
				t.Fatalf("round %d: %v", round, err)
			}
		}
		if rollback {
			ids, refIDs = ids[:sent], refIDs[:sent]
		}
		got := observeRows(t, s, us, c)
		if diff := cmp.Diff(observeRows(t, ref, us, c), got, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("round %d: (-reference +implicit rows):\n%s", round, diff)
		}
		if diff := cmp.Diff(before, got, cmpopts.EquateEmpty()); rollback && diff != "" {
			t.Fatalf("round %d: a rolled-back transaction changed the rows (-before +after):\n%s", round, diff)
		}
	}
	clone, err := s.Clone()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(observeRows(t, s, us, c), observeRows(t, clone, us, c), cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("clone (-original +clone):\n%s", diff)
	}
}

// randomRowWrite makes one random write that changes rows or who receives the channel; full
// stores a message with a row per recipient instead of implicit rows.
func randomRowWrite(tx storage.Tx, r *rand.Rand, us []users.ID, c channels.ID, full bool, ids *[]messages.ID) error {
	mw := tx.Messages()
	u := us[r.IntN(len(us))]
	pick := func() []messages.ID {
		if len(*ids) == 0 {
			return nil
		}
		return []messages.ID{(*ids)[r.IntN(len(*ids))], (*ids)[r.IntN(len(*ids))]}
	}
	var err error
	switch r.IntN(10) {
	case 0, 1, 2:
		m := messages.Message{SenderID: u, ChannelID: c, Topic: "t"}
		rows := []messages.UserMessage{{UserID: u, Flags: messages.FlagRead}}
		var id messages.ID
		if full {
			id, err = mw.Create(m, storage.FullRows(receiving(tx, c), rows))
		} else {
			id, _, err = storage.CreateForSubscribers(mw, m, nil, rows)
		}
		*ids = append(*ids, id)
	case 3:
		err = tx.Subscriptions().Put([]channels.Subscription{{UserID: u, ChannelID: c, Active: r.IntN(2) == 0}})
	case 4:
		_, err = mw.SetFlags(u, pick(), messages.FlagRead, messages.FlagStarred*messages.Flags(r.IntN(2)))
	case 5:
		_, err = mw.MarkRead(storage.MarkReadQuery{User: u, ChannelID: c, Limit: r.IntN(3)})
	case 6:
		err = mw.DeleteRows([]users.ID{u}, pick())
	case 7:
		err = updateChannel(mw, pick(), c+channels.ID(r.IntN(2)))
	case 8:
		var usr users.User
		if usr, err = tx.Users().Get(u); err == nil {
			usr.IsActive = !usr.IsActive
			err = tx.Users().Update(usr)
		}
	default:
		err = mw.Move(pick(), c+channels.ID(r.IntN(2)), "moved", messages.EditHistoryEntry{}, 0)
	}
	return err
}

// receiving returns the users receiving channel c: active subscribers who are active.
func receiving(w storage.Tx, c channels.ID) []users.ID {
	d := w.(*tx).d
	var out []users.ID
	for u, s := range d.subsByChannel[c] {
		if s.Active && d.users[u].IsActive {
			out = append(out, u)
		}
	}
	slices.Sort(out)
	return out
}

// updateChannel puts the messages in channel c with Update.
func updateChannel(mw storage.MessageWriter, ids []messages.ID, c channels.ID) error {
	for _, id := range ids {
		m, err := mw.Get(id)
		if err != nil {
			return err
		}
		m.ChannelID = c
		if err := mw.Update(m); err != nil {
			return err
		}
	}
	return nil
}

// observeRows is what the store answers about the rows of channel c and of the users.
func observeRows(t *testing.T, s *Store, us []users.ID, c channels.ID) map[string]any {
	t.Helper()
	out := map[string]any{}
	err := s.View(t.Context(), func(tx storage.ReadTx) error {
		mr := tx.Messages()
		var all []messages.ID
		for id := range s.d.msgs.messages {
			all = append(all, id)
		}
		slices.Sort(all)
		out["all"] = all
		var err error
		if out["rows"], err = mr.Rows(all); err != nil {
			return err
		}
		for _, u := range us {
			q, err := mr.Query(storage.MessageQuery{User: u, Newest: true, Limit: 1000})
			if err != nil {
				return err
			}
			out[fmt.Sprint("query ", u)] = q
			if out[fmt.Sprint("topics ", u)], err = mr.Topics(c, u, false); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
