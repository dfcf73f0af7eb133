package storagetest

import (
	"testing"
	"time"

	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

func testUserStatuses(t *testing.T, open Opener) {
	at := time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC)
	t.Run("Put creates and replaces; Get and List by user id", func(t *testing.T) {
		s := open(t)
		busy := users.Status{UserID: 5, StatusText: "busy", EmojiName: "calendar", EmojiCode: "1f4c6", ReactionType: "unicode_emoji", Timestamp: at}
		lunch := users.Status{UserID: 2, StatusText: "lunch", Timestamp: at}
		mustUpdate(t, s, func(tx storage.Tx) error {
			if err := tx.UserStatuses().Put(busy); err != nil {
				return err
			}
			return tx.UserStatuses().Put(users.Status{UserID: 2, StatusText: "first"})
		})
		mustUpdate(t, s, func(tx storage.Tx) error { return tx.UserStatuses().Put(lunch) })
		mustView(t, s, func(tx storage.ReadTx) error {
			got, err := tx.UserStatuses().Get(5)
			if err != nil {
				return err
			}
			wantEqual(t, "Get", busy, got)
			_, err = tx.UserStatuses().Get(9)
			wantIs(t, "Get(none)", err, storage.ErrNotFound)
			all, err := tx.UserStatuses().List()
			if err != nil {
				return err
			}
			wantEqual(t, "List", []users.Status{lunch, busy}, all)
			return nil
		})
	})
	t.Run("List of none is empty; a rolled-back Put leaves nothing", func(t *testing.T) {
		s := open(t)
		_ = s.Update(t.Context(), func(tx storage.Tx) error {
			if err := tx.UserStatuses().Put(users.Status{UserID: 1, StatusText: "x"}); err != nil {
				return err
			}
			return errRollback
		})
		mustView(t, s, func(tx storage.ReadTx) error {
			all, err := tx.UserStatuses().List()
			if err != nil {
				return err
			}
			wantEqual(t, "List", []users.Status{}, all)
			return nil
		})
	})
}

func testMutedUsers(t *testing.T, open Opener) {
	at := time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC)
	t.Run("Add, List by muted id, MutedBy, Remove; conflicts and absent mutes", func(t *testing.T) {
		s := open(t)
		mustUpdate(t, s, func(tx storage.Tx) error {
			for _, m := range []users.MutedUser{
				{UserID: 1, MutedUserID: 7, DateMuted: at},
				{UserID: 1, MutedUserID: 3, DateMuted: at.Add(time.Second)},
				{UserID: 4, MutedUserID: 7, DateMuted: at},
			} {
				if err := tx.MutedUsers().Add(m); err != nil {
					return err
				}
			}
			return nil
		})
		mustUpdate(t, s, func(tx storage.Tx) error {
			err := tx.MutedUsers().Add(users.MutedUser{UserID: 1, MutedUserID: 7, DateMuted: at})
			wantIs(t, "Add(again)", err, storage.ErrConflict)
			// The transaction stays usable after the conflict.
			return tx.MutedUsers().Add(users.MutedUser{UserID: 2, MutedUserID: 7, DateMuted: at})
		})
		mustView(t, s, func(tx storage.ReadTx) error {
			got, err := tx.MutedUsers().List(1)
			if err != nil {
				return err
			}
			wantEqual(t, "List", []users.MutedUser{{UserID: 1, MutedUserID: 3, DateMuted: at.Add(time.Second)}, {UserID: 1, MutedUserID: 7, DateMuted: at}}, got)
			none, err := tx.MutedUsers().List(9)
			if err != nil {
				return err
			}
			wantEqual(t, "List(none)", []users.MutedUser{}, none)
			by, err := tx.MutedUsers().MutedBy([]users.ID{7})
			if err != nil {
				return err
			}
			wantEqual(t, "MutedBy", []users.ID{1, 2, 4}, mutedByIDs(by))
			by, err = tx.MutedUsers().MutedBy([]users.ID{7, 3, 9})
			if err != nil {
				return err
			}
			wantEqual(t, "MutedBy(7, 3, 9): muted 3 first, then muted 7", [][2]users.ID{{1, 3}, {1, 7}, {2, 7}, {4, 7}}, mutePairs(by))
			by, err = tx.MutedUsers().MutedBy(nil)
			wantEqual(t, "MutedBy(none)", 0, len(by))
			return err
		})
		mustUpdate(t, s, func(tx storage.Tx) error {
			if err := tx.MutedUsers().Remove(1, 7); err != nil {
				return err
			}
			wantIs(t, "Remove(absent)", tx.MutedUsers().Remove(1, 7), storage.ErrNotFound)
			return nil
		})
		mustView(t, s, func(tx storage.ReadTx) error {
			by, err := tx.MutedUsers().MutedBy([]users.ID{7})
			if err != nil {
				return err
			}
			wantEqual(t, "MutedBy after Remove", []users.ID{2, 4}, mutedByIDs(by))
			return nil
		})
	})
}

func testProfileFieldChanges(t *testing.T, open Opener) {
	t.Run("Update replaces a field; Delete removes it with its values", func(t *testing.T) {
		s := open(t)
		var phone, team users.ProfileFieldID
		mustUpdate(t, s, func(tx storage.Tx) error {
			var err error
			if phone, err = tx.ProfileFields().Create(users.ProfileField{Type: users.ProfileShortText, Name: "Phone", Order: 1}); err != nil {
				return err
			}
			if team, err = tx.ProfileFields().Create(users.ProfileField{Type: users.ProfileShortText, Name: "Team", Order: 2}); err != nil {
				return err
			}
			return tx.ProfileFields().PutValues([]users.ProfileValue{
				{UserID: 1, FieldID: phone, Value: "123"}, {UserID: 1, FieldID: team, Value: "blue"}, {UserID: 2, FieldID: phone, Value: "456"},
			})
		})
		mustUpdate(t, s, func(tx storage.Tx) error {
			wantIs(t, "Update to a taken name", tx.ProfileFields().Update(users.ProfileField{ID: phone, Type: users.ProfileShortText, Name: "Team"}), storage.ErrConflict)
			wantIs(t, "Update of an unknown field", tx.ProfileFields().Update(users.ProfileField{ID: 99, Name: "Other"}), storage.ErrNotFound)
			wantIs(t, "Delete of an unknown field", tx.ProfileFields().Delete(99), storage.ErrNotFound)
			if err := tx.ProfileFields().Update(users.ProfileField{ID: team, Type: users.ProfileLongText, Name: "Squad", Hint: "h", Order: 0, Required: true}); err != nil {
				return err
			}
			return tx.ProfileFields().Delete(phone)
		})
		mustView(t, s, func(tx storage.ReadTx) error {
			fields, err := tx.ProfileFields().List()
			if err != nil {
				return err
			}
			wantEqual(t, "fields", []users.ProfileField{{ID: team, Type: users.ProfileLongText, Name: "Squad", Hint: "h", Order: 0, Required: true}}, fields)
			vals, err := tx.ProfileFields().Values(nil)
			if err != nil {
				return err
			}
			wantEqual(t, "values", []users.ProfileValue{{UserID: 1, FieldID: team, Value: "blue"}}, vals)
			return nil
		})
	})
}

func testBotConfigs(t *testing.T, open Opener) {
	t.Run("Put creates and replaces; Get of none is zero; List by user id", func(t *testing.T) {
		s := open(t)
		hook := users.BotConfig{UserID: 9, DefaultSendingStream: 3, DefaultAllPublicStreams: true,
			Service: users.BotService{Name: "hook", BaseURL: "https://x.test/hook", Interface: users.ServiceInterfaceSlack, Token: "tok"}}
		embedded := users.BotConfig{UserID: 4, DefaultEventsRegisterStream: 2,
			Service: users.BotService{Name: "converter", ConfigData: map[string]string{"key": "value"}}}
		mustUpdate(t, s, func(tx storage.Tx) error {
			if err := tx.BotConfigs().Put(users.BotConfig{UserID: 9, DefaultSendingStream: 1}); err != nil {
				return err
			}
			if err := tx.BotConfigs().Put(hook); err != nil {
				return err
			}
			return tx.BotConfigs().Put(embedded)
		})
		mustView(t, s, func(tx storage.ReadTx) error {
			got, err := tx.BotConfigs().Get(9)
			if err != nil {
				return err
			}
			wantEqual(t, "Get", hook, got)
			none, err := tx.BotConfigs().Get(5)
			if err != nil {
				return err
			}
			wantEqual(t, "Get(none)", users.BotConfig{UserID: 5}, none)
			all, err := tx.BotConfigs().List()
			if err != nil {
				return err
			}
			wantEqual(t, "List", []users.BotConfig{embedded, hook}, all)
			return nil
		})
	})
}

func testEmailInvites(t *testing.T, open Opener) {
	t.Run("an email invitation keeps its invitee; Update changes key, times and state", func(t *testing.T) {
		s := open(t)
		inv := users.Invite{Key: "aaaaaaaaaaaaaaaaaaaaaaaa", InvitedBy: 1, InvitedAs: users.RoleMember, ChannelIDs: []int64{}, GroupIDs: []users.GroupID{},
			Created: 100, ExpiresAt: 200, Email: "ada@example.com", NotifyReferrerOnJoin: true}
		other := users.Invite{Key: "bbbbbbbbbbbbbbbbbbbbbbbb", InvitedBy: 1, InvitedAs: users.RoleMember, ChannelIDs: []int64{}, GroupIDs: []users.GroupID{}, Created: 100}
		mustUpdate(t, s, func(tx storage.Tx) error {
			var err error
			if inv.ID, err = tx.Invites().Create(inv); err != nil {
				return err
			}
			other.ID, err = tx.Invites().Create(other)
			return err
		})
		mustUpdate(t, s, func(tx storage.Tx) error {
			wantIs(t, "Update to a taken key", tx.Invites().Update(users.Invite{ID: inv.ID, Key: other.Key}), storage.ErrConflict)
			wantIs(t, "Update of an unknown invitation", tx.Invites().Update(users.Invite{ID: 99, Key: "cccccccccccccccccccccccc"}), storage.ErrNotFound)
			changed := inv
			changed.Key, changed.Created, changed.ExpiresAt, changed.Used = "dddddddddddddddddddddddd", 300, 400, true
			return tx.Invites().Update(changed)
		})
		mustView(t, s, func(tx storage.ReadTx) error {
			got, err := tx.Invites().GetByKey("dddddddddddddddddddddddd")
			if err != nil {
				return err
			}
			want := inv
			want.Key, want.Created, want.ExpiresAt, want.Used = "dddddddddddddddddddddddd", 300, 400, true
			wantEqual(t, "updated invitation", want, got)
			return nil
		})
	})
}

// mutedByIDs are the users who muted, in the order of list.
func mutedByIDs(list []users.MutedUser) []users.ID {
	out := []users.ID{}
	for _, m := range list {
		out = append(out, m.UserID)
	}
	return out
}

// mutePairs are the (user, muted user) pairs of list, in its order.
func mutePairs(list []users.MutedUser) [][2]users.ID {
	out := [][2]users.ID{}
	for _, m := range list {
		out = append(out, [2]users.ID{m.UserID, m.MutedUserID})
	}
	return out
}
