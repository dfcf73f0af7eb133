package chat_test

import (
	"testing"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/users"
)

func TestDeactivateOwnUser(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	// The owner is the only owner; the member owns a bot.
	f.ids["memberbot"] = mustProvision(t, f, chat.ProvisionUserParams{Email: "mb@example.com", FullName: "Member Bot", BotType: users.BotGeneric, BotOwnerID: f.ids["member"]}).UserID
	checkRefusals(t, f, []refusal{
		{"only owner", func() error {
			return errOf(f.svc.DeactivateOwnUser(ctx, f.actor("owner"), chat.DeactivateOwnUserParams{}))
		},
			chat.CodeCannotDeactivateLastUser, "Cannot deactivate the only organization owner."},
		{"anonymous", func() error { return errOf(f.svc.DeactivateOwnUser(ctx, chat.Actor{}, chat.DeactivateOwnUserParams{})) }, chat.CodeUnauthorized, ""},
	})
	_, err := f.svc.DeactivateOwnUser(ctx, f.actor("owner"), chat.DeactivateOwnUserParams{})
	if e := wantError(t, err, chat.CodeCannotDeactivateLastUser, 400, ""); e.Extra["is_last_owner"] != true || e.Extra["entity"] != "organization owner" {
		t.Errorf("extra keys %v", e.Extra)
	}
	mustDo(t, "DeactivateOwnUser", errOf(f.svc.DeactivateOwnUser(ctx, f.actor("member"), chat.DeactivateOwnUserParams{})))
	for _, name := range []string{"member", "memberbot"} {
		if f.isActive(t, name) {
			t.Errorf("%s is still active", name)
		}
	}
	// Down to one active user: the last one cannot leave.
	for _, name := range []string{"admin", "guest", "bot", "webhook"} {
		mustDo(t, "DeactivateOwnUser "+name, errOf(f.svc.DeactivateOwnUser(ctx, f.actor(name), chat.DeactivateOwnUserParams{})))
	}
	f.setUser(t, "owner", func(u *users.User) { u.Role = users.RoleMember })
	_, err = f.svc.DeactivateOwnUser(ctx, f.actor("owner"), chat.DeactivateOwnUserParams{})
	if e := wantError(t, err, chat.CodeCannotDeactivateLastUser, 400, "Cannot deactivate the only user."); e.Extra["is_last_owner"] != false || e.Extra["entity"] != "user" {
		t.Errorf("extra keys %v", e.Extra)
	}
}

func TestUpdateUserByEmail(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	mustDo(t, "UpdateUserByEmail", errOf(f.svc.UpdateUserByEmail(ctx, f.actor("admin"), chat.UpdateUserByEmailParams{
		Email: "member@example.com", UpdateUserParams: chat.UpdateUserParams{FullName: ptr("Mia Renamed")}})))
	got, err := f.svc.GetUser(ctx, f.actor("owner"), chat.GetUserParams{UserID: f.ids["member"]})
	mustDo(t, "GetUser", err)
	if got.User.FullName != "Mia Renamed" {
		t.Errorf("full name %q", got.User.FullName)
	}
	checkRefusals(t, f, []refusal{
		{"unknown email", func() error {
			return errOf(f.svc.UpdateUserByEmail(ctx, f.actor("admin"), chat.UpdateUserByEmailParams{Email: "nobody@example.com", UpdateUserParams: chat.UpdateUserParams{FullName: ptr("X Y")}}))
		}, "", "No such user"},
		{"not an administrator", func() error {
			return errOf(f.svc.UpdateUserByEmail(ctx, f.actor("member"), chat.UpdateUserByEmailParams{Email: "guest@example.com", UpdateUserParams: chat.UpdateUserParams{FullName: ptr("X Y")}}))
		}, "", ""},
	})
}

// selfDeactivationConsistencyCases are the consistency cases of DELETE /users/me and PATCH
// /users/{email}.
func selfDeactivationConsistencyCases() []consistencyCase {
	return []consistencyCase{
		{method: "DeactivateOwnUser", name: "member with a bot", setup: func(t *testing.T, f *fixture) {
			mustProvision(t, f, chat.ProvisionUserParams{Email: "mb@example.com", FullName: "Member Bot", BotType: users.BotGeneric, BotOwnerID: f.ids["member"]})
			mustDo(t, "UpdateStatus", errOf(f.svc.UpdateStatus(t.Context(), f.actor("member"), chat.UpdateStatusParams{StatusText: ptr("leaving")})))
		}, run: func(t *testing.T, f *fixture) {
			mustDo(t, "DeactivateOwnUser", errOf(f.svc.DeactivateOwnUser(t.Context(), f.actor("member"), chat.DeactivateOwnUserParams{})))
		}},
		{method: "UpdateUserByEmail", name: "name and role by real email", run: func(t *testing.T, f *fixture) {
			mustDo(t, "UpdateUserByEmail", errOf(f.svc.UpdateUserByEmail(t.Context(), f.actor("owner"), chat.UpdateUserByEmailParams{
				Email: "member@example.com", UpdateUserParams: chat.UpdateUserParams{Role: ptr(users.RoleModerator), FullName: ptr("Mia Moderator")}})))
		}},
	}
}
