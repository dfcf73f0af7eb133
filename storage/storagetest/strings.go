package storagetest

import (
	"errors"
	"testing"

	"github.com/teamchat/chat/drafts"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/realms"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// testInvalidStrings pins storage.ErrInvalidString: a write of a string holding a NUL byte or
// bytes that are not UTF-8 fails with it on every backend, and the transaction that returns
// it leaves nothing behind (PostgreSQL refuses such text; SQLite and memory would keep it).
func testInvalidStrings(t *testing.T, open Opener) {
	bad := map[string]string{"a NUL byte": "a\x00b", "a byte that is not UTF-8": "a\xffb", "a truncated UTF-8 sequence": "a\xe2\x82"}
	writes := []struct {
		name  string
		write func(tx storage.Tx, w messageWorld, s string) error
		count func(tx storage.ReadTx, w messageWorld) (int, error)
	}{
		{
			name: "user's full name",
			write: func(tx storage.Tx, _ messageWorld, s string) error {
				u := newUser(1)
				u.FullName = s
				_, err := tx.Users().Create(u)
				return err
			},
			count: func(tx storage.ReadTx, _ messageWorld) (int, error) {
				l, err := tx.Users().List()
				return len(l) - 3, err // the world's three users
			},
		},
		{
			name: "user's email",
			write: func(tx storage.Tx, _ messageWorld, s string) error {
				u := newUser(2)
				u.Email = s + "@example.com"
				_, err := tx.Users().Create(u)
				return err
			},
			count: func(tx storage.ReadTx, _ messageWorld) (int, error) {
				l, err := tx.Users().List()
				return len(l) - 3, err
			},
		},
		{
			name: "saved snippet's content",
			write: func(tx storage.Tx, w messageWorld, s string) error {
				_, err := tx.SavedSnippets().Create(drafts.SavedSnippet{UserID: w.u[0], Title: "T", Content: s, DateCreated: 10})
				return err
			},
			count: func(tx storage.ReadTx, w messageWorld) (int, error) {
				l, err := tx.SavedSnippets().ListForUser(w.u[0])
				return len(l), err
			},
		},
		{
			name: "message's content",
			write: func(tx storage.Tx, w messageWorld, s string) error {
				_, err := tx.Messages().Create(messages.Message{SenderID: w.u[0], ChannelID: w.c1, Topic: "t", Content: s, Timestamp: 100},
					[]messages.UserMessage{{UserID: w.u[0]}})
				return err
			},
			count: func(tx storage.ReadTx, w messageWorld) (int, error) {
				_, err := tx.Messages().Get(1)
				if err != nil && errors.Is(err, storage.ErrNotFound) {
					return 0, nil
				}
				return 1, err
			},
		},
		{
			name: "message's topic",
			write: func(tx storage.Tx, w messageWorld, s string) error {
				_, err := tx.Messages().Create(messages.Message{SenderID: w.u[0], ChannelID: w.c1, Topic: s, Content: "c", Timestamp: 100},
					[]messages.UserMessage{{UserID: w.u[0]}})
				return err
			},
			count: func(tx storage.ReadTx, w messageWorld) (int, error) {
				_, err := tx.Messages().Get(1)
				if err != nil && errors.Is(err, storage.ErrNotFound) {
					return 0, nil
				}
				return 1, err
			},
		},
		{
			name: "realm's name",
			write: func(tx storage.Tx, _ messageWorld, s string) error {
				return tx.Realm().Put(realms.Realm{Name: s})
			},
			count: func(tx storage.ReadTx, _ messageWorld) (int, error) {
				_, err := tx.Realm().Get()
				if err != nil && errors.Is(err, storage.ErrNotFound) {
					return 0, nil
				}
				return 1, err
			},
		},
	}
	for _, wr := range writes {
		for kind, s := range bad {
			t.Run(wr.name+" with "+kind+" is refused and rolled back", func(t *testing.T) {
				st := open(t)
				w := seedMessageWorld(t, st)
				err := st.Update(t.Context(), func(tx storage.Tx) error { return wr.write(tx, w, s) })
				wantIs(t, "Update", err, storage.ErrInvalidString)
				mustView(t, st, func(tx storage.ReadTx) error {
					n, err := wr.count(tx, w)
					if err != nil {
						return err
					}
					if n != 0 {
						t.Errorf("%d records written after the refusal, want 0", n)
					}
					return nil
				})
				// The store stays usable, and takes the same write with valid text.
				mustUpdate(t, st, func(tx storage.Tx) error { return wr.write(tx, w, "a\u00e9b") })
			})
		}
	}
	t.Run("valid text round-trips", func(t *testing.T) {
		st := open(t)
		const text = "\u00e9\u4e16\U0001F600 tab\tnewline\n"
		var id users.ID
		mustUpdate(t, st, func(tx storage.Tx) (err error) {
			u := newUser(3)
			u.FullName = text
			id, err = tx.Users().Create(u)
			return err
		})
		mustView(t, st, func(tx storage.ReadTx) error {
			u, err := tx.Users().Get(id)
			if err != nil {
				return err
			}
			wantEqual(t, "full name", text, u.FullName)
			return nil
		})
	})
}
