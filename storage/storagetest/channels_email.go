package storagetest

import (
	"testing"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/storage"
)

func testChannelEmailAddresses(t *testing.T, open Opener) {
	t.Run("Create, EmailAddress, EmailAddressByToken, conflicts", func(t *testing.T) {
		s := open(t)
		a := channels.EmailAddress{ChannelID: 3, CreatorID: 7, SenderID: 1<<31 - 3, Token: "0123456789abcdef0123456789abcdef", Created: 1000}
		b := channels.EmailAddress{ChannelID: 3, CreatorID: 7, SenderID: 7, Token: "fedcba9876543210fedcba9876543210", Created: 1001}
		mustUpdate(t, s, func(tx storage.Tx) (err error) {
			if a.ID, err = tx.Channels().CreateEmailAddress(a); err != nil {
				return err
			}
			b.ID, err = tx.Channels().CreateEmailAddress(b)
			return err
		})
		if a.ID == b.ID {
			t.Fatalf("two addresses got id %d", a.ID)
		}
		mustView(t, s, func(tx storage.ReadTx) error {
			got, err := tx.Channels().EmailAddress(3, 7, 1<<31-3)
			if err != nil {
				return err
			}
			wantEqual(t, "EmailAddress", a, got)
			got, err = tx.Channels().EmailAddressByToken(b.Token)
			if err != nil {
				return err
			}
			wantEqual(t, "EmailAddressByToken", b, got)
			_, err = tx.Channels().EmailAddress(3, 8, 8)
			wantIs(t, "EmailAddress(unknown)", err, storage.ErrNotFound)
			_, err = tx.Channels().EmailAddressByToken("00000000000000000000000000000000")
			wantIs(t, "EmailAddressByToken(unknown)", err, storage.ErrNotFound)
			return nil
		})
		err := s.Update(t.Context(), func(tx storage.Tx) error {
			_, err := tx.Channels().CreateEmailAddress(channels.EmailAddress{ChannelID: 4, CreatorID: 1, SenderID: 1, Token: a.Token})
			return err
		})
		wantIs(t, "CreateEmailAddress with a taken token", err, storage.ErrConflict)
		err = s.Update(t.Context(), func(tx storage.Tx) error {
			_, err := tx.Channels().CreateEmailAddress(channels.EmailAddress{ChannelID: 3, CreatorID: 7, SenderID: 7, Token: "11111111111111111111111111111111"})
			return err
		})
		wantIs(t, "CreateEmailAddress for a taken (channel, creator, sender)", err, storage.ErrConflict)
	})
	t.Run("rolled back with its transaction", func(t *testing.T) {
		s := open(t)
		err := s.Update(t.Context(), func(tx storage.Tx) error {
			if _, err := tx.Channels().CreateEmailAddress(channels.EmailAddress{ChannelID: 1, CreatorID: 1, SenderID: 1, Token: "22222222222222222222222222222222"}); err != nil {
				return err
			}
			return storage.ErrConflict
		})
		wantIs(t, "the failing update", err, storage.ErrConflict)
		mustView(t, s, func(tx storage.ReadTx) error {
			_, err := tx.Channels().EmailAddressByToken("22222222222222222222222222222222")
			wantIs(t, "EmailAddressByToken after the rollback", err, storage.ErrNotFound)
			return nil
		})
	})
}
