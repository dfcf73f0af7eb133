package storagetest

import (
	"testing"
	"time"

	"github.com/teamchat/chat/realms"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

func testRealm(t *testing.T, open Opener) {
	t.Run("Get before Put is not found", func(t *testing.T) {
		s := open(t)
		mustView(t, s, func(tx storage.ReadTx) error {
			_, err := tx.Realm().Get()
			wantIs(t, "Get", err, storage.ErrNotFound)
			return nil
		})
	})

	t.Run("Put then Get round-trips every field", func(t *testing.T) {
		s := open(t)
		want := realms.Realm{
			Name: "Acme", Description: "**bold**", IconURL: "https://x/icon.png",
			URL: "https://chat.acme.test", DateCreated: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC),
			EnableSpectatorAccess: true, WaitingPeriodThreshold: 3,
			DefaultEmailVisibility: users.EmailVisibleAdmins, PasswordAuthEnabled: true,
			EmptyTopicDisplayName:          "general chat",
			NewStreamAnnouncementsStreamID: 7,
			CanCreatePublicChannelGroup:    users.Named(5),
			CanCreatePrivateChannelGroup:   users.GroupSetting{Members: []users.ID{1, 2}, Subgroups: []users.GroupID{3}},
			AllowMessageEditing:            true, MessageContentEditLimitSeconds: 600,
			MoveMessagesWithinStreamLimitSeconds: 0, MoveMessagesBetweenStreamsLimitSeconds: 3600,
			MessageEditHistoryVisibilityPolicy: "moves",
			CanMoveMessagesBetweenTopicsGroup:  users.Named(7),
			CanResolveTopicsGroup:              users.GroupSetting{Members: []users.ID{4}},
			CanDeleteOwnMessageGroup:           users.Named(9),
			DirectMessagePermissionGroup:       users.GroupSetting{Members: []users.ID{2}, Subgroups: []users.GroupID{5}},
			CreateMultiuseInviteGroup:          users.Named(4),
			Settings: map[string]any{
				"digest_weekday": int64(4), "inline_url_embed_preview": true, "default_language": "de",
				"message_content_delete_limit_seconds": nil, "jitsi_server_url": "https://jitsi.acme.test",
			},
			SignupAnnouncementsStreamID: 8, ZulipUpdateAnnouncementsStreamID: 9, ModerationRequestChannelID: 10,
			Domains:              []realms.Domain{{Domain: "acme.test", AllowSubdomains: true}, {Domain: "example.org"}},
			UserSettingsDefaults: map[string]any{"twenty_four_hour_time": true, "color_scheme": int64(3), "emojiset": "text"},
		}
		mustUpdate(t, s, func(tx storage.Tx) error { return tx.Realm().Put(want) })
		mustView(t, s, func(tx storage.ReadTx) error {
			got, err := tx.Realm().Get()
			if err != nil {
				return err
			}
			wantEqual(t, "realm", want, got)
			return nil
		})
		want.Name = "Renamed"
		mustUpdate(t, s, func(tx storage.Tx) error { return tx.Realm().Put(want) })
		mustView(t, s, func(tx storage.ReadTx) error {
			got, err := tx.Realm().Get()
			wantEqual(t, "name after second Put", "Renamed", got.Name)
			return err
		})
	})
}
