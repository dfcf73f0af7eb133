package chat_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// newUsersFixture is newFixture plus a moderator, a deactivated member, a second owner-less
// target member ("target") and a bot owned by the target.
func newUsersFixture(t *testing.T) *fixture {
	t.Helper()
	f := newFixture(t)
	ctx := t.Context()
	for _, u := range []struct {
		name string
		p    chat.ProvisionUserParams
	}{
		{"moderator", chat.ProvisionUserParams{Email: "mod@example.com", FullName: "Mo Moderator", Role: users.RoleModerator}},
		{"deactivated", chat.ProvisionUserParams{Email: "gone@example.com", FullName: "Gone Admin", Role: users.RoleAdministrator}},
		{"target", chat.ProvisionUserParams{Email: "target@example.com", FullName: "Tara Target"}},
	} {
		res, err := f.svc.ProvisionUser(ctx, u.p)
		if err != nil {
			t.Fatalf("ProvisionUser(%s): %v", u.name, err)
		}
		f.ids[u.name] = res.UserID
		f.keys[u.name] = res.APIKey
	}
	res, err := f.svc.ProvisionUser(ctx, chat.ProvisionUserParams{Email: "tbot@example.com", FullName: "Target Bot",
		BotType: users.BotGeneric, BotOwnerID: f.ids["target"]})
	if err != nil {
		t.Fatal(err)
	}
	f.ids["targetbot"] = res.UserID
	f.setUser(t, "deactivated", func(u *users.User) { u.IsActive = false })
	return f
}

// snapshot is every stored user and group, for asserting that a refusal changed nothing.
func (f *fixture) snapshot(t *testing.T) string {
	t.Helper()
	var out []byte
	err := f.store.View(t.Context(), func(tx storage.ReadTx) error {
		us, err := tx.Users().List()
		if err != nil {
			return err
		}
		gs, err := tx.Groups().List()
		if err != nil {
			return err
		}
		ids := make([]users.ID, len(us))
		for i, u := range us {
			ids[i] = u.ID
		}
		settings, err := tx.UserSettings().GetMany(ids)
		if err != nil {
			return err
		}
		out, err = json.Marshal(struct {
			U []users.User
			G []users.Group
			S map[users.ID]users.Settings
		}{us, gs, settings})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// mustUser reads a stored user.
func (f *fixture) mustUser(t *testing.T, name string) users.User {
	t.Helper()
	var u users.User
	err := f.store.View(t.Context(), func(tx storage.ReadTx) (err error) {
		u, err = tx.Users().Get(f.ids[name])
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// eventsNoID renders events as generic JSON values without their ids.
func eventsNoID(t *testing.T, evs []chat.Event) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, e := range evs {
		b, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		delete(m, "id")
		out = append(out, m)
	}
	return out
}

func idf(id users.ID) float64 { return float64(id) }

func TestGetUser(t *testing.T) {
	t.Parallel()
	f := newUsersFixture(t)
	ctx := t.Context()
	// The organization shows emails to administrators only.
	member, err := f.svc.GetUser(ctx, f.actor("member"), chat.GetUserParams{UserID: f.ids["admin"]})
	if err != nil {
		t.Fatal(err)
	}
	placeholder := "user" + itoa(int64(f.ids["admin"])) + "@chat.example.com"
	if member.User.DeliveryEmail != nil || member.User.Email != placeholder || member.User.AvatarURL == nil ||
		member.User.ProfileData != nil || member.User.IsActive == nil || !*member.User.IsActive || member.User.Role != users.RoleAdministrator {
		t.Errorf("member's view of the admin = %+v", member.User)
	}
	admin, err := f.svc.GetUser(ctx, f.actor("admin"), chat.GetUserParams{UserID: f.ids["member"],
		UserQueryOptions: chat.UserQueryOptions{IncludeCustomProfileFields: true}})
	if err != nil {
		t.Fatal(err)
	}
	if admin.User.DeliveryEmail == nil || *admin.User.DeliveryEmail != "Member@Example.com" || admin.User.AvatarURL != nil ||
		admin.User.ProfileData == nil || admin.User.Timezone != "Europe/Paris" {
		t.Errorf("admin's view of the member = %+v", admin.User)
	}
	noGravatar, err := f.svc.GetUser(ctx, f.actor("admin"), chat.GetUserParams{UserID: f.ids["member"],
		UserQueryOptions: chat.UserQueryOptions{ClientGravatar: ptr(false)}})
	if err != nil || noGravatar.User.AvatarURL == nil {
		t.Errorf("client_gravatar=false gives avatar_url %v (err %v)", noGravatar.User.AvatarURL, err)
	}
	bot, err := f.svc.GetUser(ctx, f.actor("guest"), chat.GetUserParams{UserID: f.ids["bot"],
		UserQueryOptions: chat.UserQueryOptions{IncludeCustomProfileFields: true}})
	if err != nil || bot.User.DeliveryEmail == nil || bot.User.BotType == nil || *bot.User.BotType != users.BotGeneric ||
		bot.User.BotOwnerID == nil || bot.User.BotOwnerID.ID != f.ids["owner"] || bot.User.ProfileData != nil {
		t.Errorf("guest's view of a bot = %+v (err %v)", bot.User, err)
	}
	gone, err := f.svc.GetUser(ctx, f.actor("member"), chat.GetUserParams{UserID: f.ids["deactivated"]})
	if err != nil || *gone.User.IsActive {
		t.Errorf("deactivated user = %+v (err %v)", gone.User, err)
	}
	_, err = f.svc.GetUser(ctx, f.actor("member"), chat.GetUserParams{UserID: 9999})
	wantError(t, err, chat.CodeBadRequest, http.StatusBadRequest, "No such user")
	_, err = f.svc.GetUser(ctx, f.actor("deactivated"), chat.GetUserParams{UserID: f.ids["member"]})
	wantError(t, err, chat.CodeUnauthorized, http.StatusUnauthorized, "Account is deactivated")
}

func TestGetUserByEmail(t *testing.T) {
	t.Parallel()
	f := newUsersFixture(t)
	ctx := t.Context()
	placeholder := "USER" + itoa(int64(f.ids["admin"])) + "@chat.example.com"
	tests := []struct {
		name, as, email string
		want            users.ID // 0: No such user
	}{
		{"placeholder works for everyone", "guest", placeholder, f.ids["admin"]},
		{"hidden real email is not found", "member", "admin@example.com", 0},
		{"visible real email, any case", "admin", "MEMBER@example.com", f.ids["member"]},
		{"own email", "member", "member@example.com", f.ids["member"]},
		{"bot email is public", "guest", "bot@example.com", f.ids["bot"]},
		{"unknown placeholder", "member", "user99999@chat.example.com", 0},
		{"placeholder of another host", "member", "user1@other.example.com", 0},
		{"unknown", "member", "nobody@example.com", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := f.svc.GetUserByEmail(ctx, f.actor(tt.as), chat.GetUserByEmailParams{Email: tt.email})
			if tt.want == 0 {
				wantError(t, err, chat.CodeBadRequest, http.StatusBadRequest, "No such user")
				return
			}
			if err != nil || res.User.UserID != tt.want {
				t.Fatalf("GetUserByEmail(%q) as %s = %d, %v; want %d", tt.email, tt.as, res.User.UserID, err, tt.want)
			}
		})
	}
}

func TestGetUsersAndOwnUser(t *testing.T) {
	t.Parallel()
	f := newUsersFixture(t)
	ctx := t.Context()
	all, err := f.svc.GetUsers(ctx, f.actor("member"), chat.GetUsersParams{})
	if err != nil {
		t.Fatal(err)
	}
	if got := len(all.Members); got != f.userCount(t) {
		t.Errorf("GetUsers lists %d users, want %d (deactivated and bots included)", got, f.userCount(t))
	}
	some, err := f.svc.GetUsers(ctx, f.actor("member"), chat.GetUsersParams{UserIDs: []users.ID{f.ids["bot"], f.ids["admin"]}})
	if err != nil || len(some.Members) != 2 || some.Members[0].UserID != f.ids["admin"] {
		t.Errorf("GetUsers(user_ids) = %+v, %v", some.Members, err)
	}
	_, err = f.svc.GetUsers(ctx, f.actor("member"), chat.GetUsersParams{UserIDs: []users.ID{12345}})
	wantError(t, err, chat.CodeBadRequest, http.StatusBadRequest, "Invalid user ID: 12345")
	me, err := f.svc.GetOwnUser(ctx, f.actor("member"), chat.UserQueryOptions{})
	if err != nil || me.UserID != f.ids["member"] || me.DeliveryEmail == nil || me.MaxMessageID != -1 {
		t.Errorf("GetOwnUser = %+v, %v", me, err)
	}
	body, _ := json.Marshal(me)
	var m map[string]any
	_ = json.Unmarshal(body, &m)
	if m["user_id"] == nil || m["max_message_id"] == nil || m["user"] != nil {
		t.Errorf("GetOwnUser JSON = %s, want the record at the top level", body)
	}
}

func TestUpdateUserRoleEvents(t *testing.T) {
	t.Parallel()
	f := newUsersFixture(t)
	ctx := t.Context()
	q := f.register(t, "member", "realm_user", "user_group")
	role := users.RoleModerator
	if _, err := f.svc.UpdateUser(ctx, f.actor("admin"), chat.UpdateUserParams{UserID: f.ids["target"], Role: &role,
		FullName: ptr("  Tara Renamed ")}); err != nil {
		t.Fatal(err)
	}
	u := f.mustUser(t, "target")
	if u.Role != users.RoleModerator || u.FullName != "Tara Renamed" {
		t.Errorf("target after update = %+v", u)
	}
	groups := f.groupIDs(t)
	want := []map[string]any{
		{"type": "realm_user", "op": "update", "person": map[string]any{"user_id": idf(u.ID), "full_name": "Tara Renamed"}},
		{"type": "realm_user", "op": "update", "person": map[string]any{"user_id": idf(u.ID), "role": 300.0}},
		{"type": "user_group", "op": "remove_members", "group_id": float64(groups[users.GroupMembers]), "user_ids": []any{idf(u.ID)}},
		{"type": "user_group", "op": "remove_members", "group_id": float64(groups[users.GroupFullMembers]), "user_ids": []any{idf(u.ID)}},
		{"type": "user_group", "op": "add_members", "group_id": float64(groups[users.GroupModerators]), "user_ids": []any{idf(u.ID)}},
	}
	if diff := cmp.Diff(want, eventsNoID(t, f.poll(t, "member", q, -1, true))); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	// Membership follows: the moderator is in role:moderators and, through subgroups, members.
	res, err := f.svc.GetIsUserGroupMember(ctx, f.actor("member"), chat.GetIsUserGroupMemberParams{GroupID: groups[users.GroupMembers], UserID: u.ID})
	if err != nil || !res.IsUserGroupMember {
		t.Errorf("moderator in role:members = %v, %v", res.IsUserGroupMember, err)
	}
	// Unchanged values send nothing.
	if _, err := f.svc.UpdateUser(ctx, f.actor("admin"), chat.UpdateUserParams{UserID: u.ID, Role: &role, FullName: ptr("Tara Renamed")}); err != nil {
		t.Fatal(err)
	}
	if evs := f.poll(t, "member", q, 4, true); len(evs) != 0 {
		t.Errorf("no-op update sent %v", eventsNoID(t, evs))
	}
}

// groupIDs maps group names to ids.
func (f *fixture) groupIDs(t *testing.T) map[string]users.GroupID {
	t.Helper()
	out := map[string]users.GroupID{}
	err := f.store.View(t.Context(), func(tx storage.ReadTx) error {
		gs, err := tx.Groups().List()
		for _, g := range gs {
			out[g.Name] = g.ID
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestUpdateUserRefusals(t *testing.T) {
	t.Parallel()
	f := newUsersFixture(t)
	ctx := t.Context()
	role := func(r users.Role) *users.Role { return &r }
	tests := []struct {
		name string
		as   string
		p    chat.UpdateUserParams
		code chat.Code
		msg  string
	}{
		{"non-admin", "moderator", chat.UpdateUserParams{UserID: f.ids["target"], FullName: ptr("New Name")}, chat.CodeBadRequest, "Insufficient permission"},
		{"unknown user", "admin", chat.UpdateUserParams{UserID: 9999, FullName: ptr("New Name")}, chat.CodeBadRequest, "No such user"},
		{"invalid role", "owner", chat.UpdateUserParams{UserID: f.ids["target"], Role: role(250)}, chat.CodeBadRequest, "Invalid role"},
		{"admin makes an owner", "admin", chat.UpdateUserParams{UserID: f.ids["target"], Role: role(users.RoleOwner)}, chat.CodeUnauthorizedPrincipal, "Must be an organization owner"},
		{"admin demotes an owner", "admin", chat.UpdateUserParams{UserID: f.ids["owner"], Role: role(users.RoleMember)}, chat.CodeUnauthorizedPrincipal, "Must be an organization owner"},
		{"only owner keeps the role", "owner", chat.UpdateUserParams{UserID: f.ids["owner"], Role: role(users.RoleAdministrator)}, chat.CodeBadRequest, "The owner permission cannot be removed from the only organization owner."},
		{"guest made administrator", "admin", chat.UpdateUserParams{UserID: f.ids["guest"], Role: role(users.RoleAdministrator)}, chat.CodeBadRequest, "Guests cannot be organization administrators"},
		{"bad name", "admin", chat.UpdateUserParams{UserID: f.ids["target"], FullName: ptr("a@b")}, chat.CodeBadRequest, "Invalid characters in name!"},
		{"long name", "admin", chat.UpdateUserParams{UserID: f.ids["target"], FullName: ptr(string(make([]byte, 101)) + "x")}, chat.CodeBadRequest, ""},
		{"email without permission", "owner", chat.UpdateUserParams{UserID: f.ids["target"], NewEmail: ptr("t2@example.com")}, chat.CodeBadRequest, "User not authorized to change user emails"},
		{"unknown profile field", "admin", chat.UpdateUserParams{UserID: f.ids["target"], ProfileData: []chat.ProfileDataUpdate{{ID: 77, Value: json.RawMessage(`"x"`)}}}, chat.CodeBadRequest, "Field id 77 not found."},
		{"name ok but later part bad", "admin", chat.UpdateUserParams{UserID: f.ids["target"], FullName: ptr("Fine Name"), Role: role(users.RoleOwner)}, chat.CodeUnauthorizedPrincipal, "Must be an organization owner"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := f.snapshot(t)
			_, err := f.svc.UpdateUser(ctx, f.actor(tt.as), tt.p)
			wantError(t, err, tt.code, http.StatusBadRequest, tt.msg)
			if after := f.snapshot(t); after != before {
				t.Errorf("refused update changed the store")
			}
		})
	}
}

func TestUpdateUserEmail(t *testing.T) {
	t.Parallel()
	f := newUsersFixture(t)
	ctx := t.Context()
	f.setUser(t, "owner", func(u *users.User) { u.CanChangeUserEmails = true })
	q := f.register(t, "admin", "realm_user")
	if _, err := f.svc.UpdateUser(ctx, f.actor("owner"), chat.UpdateUserParams{UserID: f.ids["target"], NewEmail: ptr("tara@example.com")}); err != nil {
		t.Fatal(err)
	}
	if got := f.mustUser(t, "target").Email; got != "tara@example.com" {
		t.Errorf("email = %q", got)
	}
	want := []map[string]any{{"type": "realm_user", "op": "update", "person": map[string]any{"user_id": idf(f.ids["target"]), "delivery_email": "tara@example.com"}}}
	if diff := cmp.Diff(want, eventsNoID(t, f.poll(t, "admin", q, -1, true))); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	before := f.snapshot(t)
	_, err := f.svc.UpdateUser(ctx, f.actor("owner"), chat.UpdateUserParams{UserID: f.ids["target"], NewEmail: ptr("ADMIN@example.com")})
	wantError(t, err, chat.CodeBadRequest, http.StatusBadRequest, "Email 'ADMIN@example.com' already in use")
	if f.snapshot(t) != before {
		t.Error("refused email change changed the store")
	}
}

func TestDeactivateAndReactivateUser(t *testing.T) {
	t.Parallel()
	f := newUsersFixture(t)
	ctx := t.Context()
	q := f.register(t, "member", "realm_user", "user_group")
	_, err := f.svc.DeactivateUser(ctx, f.actor("admin"), chat.DeactivateUserParams{UserID: f.ids["target"],
		Actions: &chat.DeactivateUserActions{DeleteProfile: true, DeleteDirectMessages: true}, DeactivationNotificationComment: ptr("bye")})
	if err != nil {
		t.Fatal(err)
	}
	target, bot := f.mustUser(t, "target"), f.mustUser(t, "targetbot")
	if target.IsActive || bot.IsActive || target.FullName != users.DeletedUserName || bot.FullName != users.DeletedUserName {
		t.Fatalf("after deactivation: target %+v, bot %+v", target, bot)
	}
	var got []string
	for _, e := range eventsNoID(t, f.poll(t, "member", q, -1, true)) {
		p := e["person"].(map[string]any)
		key := ""
		for k := range p {
			if k != "user_id" && (key == "" || k < key) {
				key = k
			}
		}
		who := "target"
		if p["user_id"] == idf(bot.ID) {
			who = "bot"
		}
		got = append(got, who+":"+key)
	}
	want := []string{"bot:full_name", "bot:avatar_source", "bot:is_deleted", "bot:is_active", "target:full_name", "target:avatar_source", "target:is_deleted", "target:is_active"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("event order (-want +got):\n%s", diff)
	}
	// Deactivated users are never group members.
	groups := f.groupIDs(t)
	res, err := f.svc.GetIsUserGroupMember(ctx, f.actor("member"), chat.GetIsUserGroupMemberParams{GroupID: groups[users.GroupMembers], UserID: target.ID, DirectMemberOnly: true})
	if err != nil || res.IsUserGroupMember {
		t.Errorf("deactivated user is a member: %v, %v", res.IsUserGroupMember, err)
	}
	// Reactivation.
	if _, err := f.svc.ReactivateUser(ctx, f.actor("admin"), chat.ReactivateUserParams{UserID: target.ID}); err != nil {
		t.Fatal(err)
	}
	evs := eventsNoID(t, f.poll(t, "member", q, 7, true))
	wantEv := []map[string]any{
		{"type": "realm_user", "op": "update", "person": map[string]any{"user_id": idf(target.ID), "is_deleted": false}},
		{"type": "realm_user", "op": "update", "person": map[string]any{"user_id": idf(target.ID), "is_active": true}},
		{"type": "user_group", "op": "add_members", "group_id": float64(groups[users.GroupFullMembers]), "user_ids": []any{idf(target.ID)}},
		{"type": "user_group", "op": "add_members", "group_id": float64(groups[users.GroupMembers]), "user_ids": []any{idf(target.ID)}},
	}
	if diff := cmp.Diff(wantEv, evs); diff != "" {
		t.Errorf("reactivation events (-want +got):\n%s", diff)
	}
	if !f.mustUser(t, "target").IsActive || f.mustUser(t, "targetbot").IsActive {
		t.Error("reactivation should restore the user only")
	}
	// The bot's owner may reactivate it.
	if _, err := f.svc.ReactivateUser(ctx, f.actor("target"), chat.ReactivateUserParams{UserID: bot.ID}); err != nil {
		t.Errorf("owner reactivating own bot: %v", err)
	}
}

func TestDeactivateUserRefusals(t *testing.T) {
	t.Parallel()
	f := newUsersFixture(t)
	ctx := t.Context()
	tests := []struct {
		name string
		as   string
		p    chat.DeactivateUserParams
		code chat.Code
		msg  string
	}{
		{"non-admin", "moderator", chat.DeactivateUserParams{UserID: f.ids["target"]}, chat.CodeBadRequest, "Insufficient permission"},
		{"unknown", "admin", chat.DeactivateUserParams{UserID: 9999}, chat.CodeBadRequest, "No such user"},
		{"bot", "admin", chat.DeactivateUserParams{UserID: f.ids["bot"]}, chat.CodeBadRequest, "No such user"},
		{"already deactivated", "admin", chat.DeactivateUserParams{UserID: f.ids["deactivated"]}, chat.CodeBadRequest, "User is deactivated"},
		{"owner by admin", "admin", chat.DeactivateUserParams{UserID: f.ids["owner"]}, chat.CodeUnauthorizedPrincipal, "Must be an organization owner"},
		{"only owner", "owner", chat.DeactivateUserParams{UserID: f.ids["owner"]}, chat.CodeBadRequest, "Cannot deactivate the only organization owner"},
		{"long comment", "admin", chat.DeactivateUserParams{UserID: f.ids["target"], DeactivationNotificationComment: ptr(string(make([]rune, 2001)))}, chat.CodeBadRequest, "deactivation_notification_comment is too long (limit: 2000 characters)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := f.snapshot(t)
			_, err := f.svc.DeactivateUser(ctx, f.actor(tt.as), tt.p)
			wantError(t, err, tt.code, http.StatusBadRequest, tt.msg)
			if f.snapshot(t) != before {
				t.Error("refused deactivation changed the store")
			}
		})
	}
	before := f.snapshot(t)
	_, err := f.svc.ReactivateUser(ctx, f.actor("admin"), chat.ReactivateUserParams{UserID: f.ids["member"]})
	wantError(t, err, chat.CodeBadRequest, http.StatusBadRequest, "User is already active")
	if f.snapshot(t) != before {
		t.Error("refused reactivation changed the store")
	}
}

func TestCreateUserAndBot(t *testing.T) {
	t.Parallel()
	f := newUsersFixture(t)
	ctx := t.Context()
	p := chat.CreateUserParams{Email: "fresh@example.com", Password: "a long password", FullName: "Fresh Person"}
	before := f.snapshot(t)
	_, err := f.svc.CreateUser(ctx, f.actor("admin"), p)
	wantError(t, err, chat.CodeBadRequest, http.StatusBadRequest, "User not authorized to create users")
	_, err = f.svc.CreateUser(ctx, f.actor("member"), p)
	wantError(t, err, chat.CodeUnauthorizedPrincipal, http.StatusBadRequest, "Must be an organization administrator")
	if f.snapshot(t) != before {
		t.Error("refused creation changed the store")
	}
	f.setUser(t, "admin", func(u *users.User) { u.CanCreateUsers = true })
	for _, bad := range []struct {
		p   chat.CreateUserParams
		msg string
	}{
		{chat.CreateUserParams{Email: "x@example.com", Password: "short", FullName: "Fresh Person"}, "The password is too weak."},
		{chat.CreateUserParams{Email: "not an email", Password: "a long password", FullName: "Fresh Person"}, "Bad name or username"},
		{chat.CreateUserParams{Email: "x@example.com", Password: "a long password", FullName: " "}, "Name must not be empty!"},
		{chat.CreateUserParams{Email: "ADMIN@example.com", Password: "a long password", FullName: "Fresh Person"}, "Email 'ADMIN@example.com' already in use"},
	} {
		before := f.snapshot(t)
		_, err := f.svc.CreateUser(ctx, f.actor("admin"), bad.p)
		wantError(t, err, chat.CodeBadRequest, http.StatusBadRequest, bad.msg)
		if f.snapshot(t) != before {
			t.Errorf("refused creation %+v changed the store", bad.p)
		}
	}
	res, err := f.svc.CreateUser(ctx, f.actor("admin"), p)
	if err != nil {
		t.Fatal(err)
	}
	key, err := f.svc.FetchAPIKey(ctx, chat.FetchAPIKeyParams{Username: "fresh@example.com", Password: "a long password"})
	if err != nil || key.UserID != res.UserID {
		t.Errorf("new user cannot log in: %+v, %v", key, err)
	}

	bot, err := f.svc.CreateBot(ctx, f.actor("member"), chat.CreateBotParams{FullName: "Helper Bot", ShortName: "helper"})
	if err != nil {
		t.Fatal(err)
	}
	actor, err := f.svc.AuthenticateAPIKey(ctx, "helper-bot@chat.example.com", bot.APIKey)
	if err != nil || actor.UserID != bot.UserID {
		t.Errorf("bot cannot authenticate: %v, %v", actor, err)
	}
	got, err := f.svc.GetUser(ctx, f.actor("member"), chat.GetUserParams{UserID: bot.UserID})
	if err != nil || got.User.BotOwnerID == nil || got.User.BotOwnerID.ID != f.ids["member"] || got.User.Email != "helper-bot@chat.example.com" {
		t.Errorf("bot record = %+v, %v", got.User, err)
	}
	for _, tt := range []struct {
		as  string
		p   chat.CreateBotParams
		msg string
	}{
		{"guest", chat.CreateBotParams{FullName: "Other Bot", ShortName: "other"}, "Not allowed for guest users"},
		{"bot", chat.CreateBotParams{FullName: "Other Bot", ShortName: "other"}, "This endpoint does not accept bot requests."},
		{"member", chat.CreateBotParams{FullName: "Other Bot", ShortName: "helper"}, "Username already in use"},
		{"member", chat.CreateBotParams{FullName: "helper bot", ShortName: "other"}, "Name is already in use!"},
		{"member", chat.CreateBotParams{FullName: "Other Bot", ShortName: "other", BotType: 9}, "Invalid bot_type"},
		{"member", chat.CreateBotParams{FullName: "Other Bot", ShortName: " "}, "Bad name or username"},
	} {
		before := f.snapshot(t)
		_, err := f.svc.CreateBot(ctx, f.actor(tt.as), tt.p)
		wantError(t, err, chat.CodeBadRequest, http.StatusBadRequest, tt.msg)
		if f.snapshot(t) != before {
			t.Errorf("refused bot creation changed the store")
		}
	}
}
