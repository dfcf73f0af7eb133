package chat_test

import (
	"errors"
	"testing"
	"time"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/users"
)

// setRealmGroup sets one of the organization's group permissions to a system group.
func setRealmGroup(t *testing.T, f *fixture, setting, group string) {
	t.Helper()
	v := users.Named(f.groupIDs(t)[group])
	if _, err := f.svc.UpdateRealm(t.Context(), f.actor("owner"), chat.UpdateRealmParams{
		GroupSettings: map[string]chat.GroupSettingChange{setting: {New: &v}},
	}); err != nil {
		t.Fatalf("UpdateRealm(%s=%s): %v", setting, group, err)
	}
}

func wantMsg(t *testing.T, what string, err error, msg string) {
	t.Helper()
	if msg == "" {
		if err != nil {
			t.Fatalf("%s: %v, want success", what, err)
		}
		return
	}
	var e *chat.Error
	if !errors.As(err, &e) || e.Msg != msg {
		t.Fatalf("%s: %v, want %q", what, err, msg)
	}
}

func TestDeleteOwnMessageFollowsTheOrganization(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	for _, c := range []struct {
		name    string
		setup   func(t *testing.T, f *fixture)
		as      string
		after   time.Duration
		wantErr string
	}{
		{name: "a member deletes their own message (Zulip's default: everyone)", as: "member"},
		{name: "within the time limit and its grace", as: "member", after: 600*time.Second + 20*time.Second},
		{name: "past the time limit", as: "member", after: 621 * time.Second, wantErr: "The time limit for deleting this message has passed"},
		{name: "no time limit", as: "member", after: 48 * time.Hour, setup: func(t *testing.T, f *fixture) {
			mustDo(t, "UpdateRealm", errOf(f.svc.UpdateRealm(ctx, f.actor("admin"), chat.UpdateRealmParams{Settings: map[string]any{"message_content_delete_limit_seconds": nil}})))
		}},
		{name: "own messages restricted to moderators", as: "member", wantErr: "You don't have permission to delete this message", setup: func(t *testing.T, f *fixture) {
			setRealmGroup(t, f, "can_delete_own_message_group", users.GroupModerators)
		}},
		{name: "an administrator deletes another's message at any age", as: "admin", after: 48 * time.Hour},
		{name: "another member may not", as: "guest", wantErr: "You don't have permission to delete this message"},
		{name: "an administrator outside can_delete_any_message_group may not", as: "admin", wantErr: "You don't have permission to delete this message", setup: func(t *testing.T, f *fixture) {
			setRealmGroup(t, f, "can_delete_any_message_group", users.GroupOwners)
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			id := mustSendDirect(t, f, "member", "hello", "guest", "admin")
			if c.setup != nil {
				c.setup(t, f)
			}
			f.clock.Advance(c.after)
			_, err := f.svc.DeleteMessage(ctx, f.actor(c.as), chat.DeleteMessageParams{MessageID: id})
			wantMsg(t, "DeleteMessage", err, c.wantErr)
		})
	}
}

func TestDirectMessagePermissionGroups(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	send := func(f *fixture, from string, to ...string) error {
		ids := make([]users.ID, len(to))
		for i, s := range to {
			ids[i] = f.ids[s]
		}
		_, err := f.svc.SendMessage(ctx, f.actor(from), chat.SendMessageParams{Type: "direct", UserIDs: ids, Content: "hi"})
		return err
	}
	t.Run("nobody: direct messages are off, but not to oneself or bots", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t)
		setRealmGroup(t, f, "direct_message_permission_group", users.GroupNobody)
		wantMsg(t, "to a member", send(f, "owner", "member"), "Direct messages are disabled in this organization.")
		wantMsg(t, "to oneself", send(f, "member", "member"), "")
		wantMsg(t, "to a bot", send(f, "member", "bot"), "")
	})
	t.Run("administrators: a conversation needs one", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t)
		setRealmGroup(t, f, "direct_message_permission_group", users.GroupAdministrators)
		wantMsg(t, "member to guest", send(f, "member", "guest"), "This conversation does not include any users who can authorize it.")
		wantMsg(t, "member to admin", send(f, "member", "admin"), "")
		wantMsg(t, "member to guest and admin", send(f, "member", "guest", "admin"), "")
	})
	t.Run("initiators: others may only answer", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t)
		setRealmGroup(t, f, "direct_message_initiator_group", users.GroupModerators)
		wantMsg(t, "member starts", send(f, "member", "guest"), "You do not have permission to initiate direct message conversations.")
		wantMsg(t, "admin starts", send(f, "admin", "member"), "")
		wantMsg(t, "member answers", send(f, "member", "admin"), "")
	})
}
