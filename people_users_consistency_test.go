package chat_test

import (
	"encoding/json"
	"testing"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/users"
)

// usersConsistencyCases are the consistency cases of the users area (users, bots, groups,
// settings, profile data).
func usersConsistencyCases() []consistencyCase {
	role := func(r users.Role) *users.Role { return &r }
	must := func(t *testing.T, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	// extra provisions a member that no viewer is, with a bot of its own.
	extra := func(t *testing.T, f *fixture) {
		f.ids["extra"] = mustProvision(t, f, chat.ProvisionUserParams{Email: "extra@example.com", FullName: "Extra Person"}).UserID
		f.ids["extrabot"] = mustProvision(t, f, chat.ProvisionUserParams{Email: "extrabot@example.com", FullName: "Extra Bot",
			BotType: users.BotGeneric, BotOwnerID: f.ids["extra"]}).UserID
	}
	group := func(t *testing.T, f *fixture) {
		extra(t, f)
		res, err := f.svc.CreateUserGroup(t.Context(), f.actor("owner"), chat.CreateUserGroupParams{Name: "team", Description: "The team",
			Members: []users.ID{f.ids["member"], f.ids["extra"]}})
		must(t, err)
		f.ids["group"] = users.ID(res.GroupID)
		res, err = f.svc.CreateUserGroup(t.Context(), f.actor("owner"), chat.CreateUserGroupParams{Name: "sub", Description: "",
			Members: []users.ID{f.ids["guest"]}})
		must(t, err)
		f.ids["subgroup"] = users.ID(res.GroupID)
	}
	return []consistencyCase{
		{method: "UpdateUser", name: "name and role", run: func(t *testing.T, f *fixture) {
			must(t, errOf(f.svc.UpdateUser(t.Context(), f.actor("owner"), chat.UpdateUserParams{UserID: f.ids["member"], FullName: ptr("Mia Renamed"), Role: role(users.RoleModerator)})))
		}},
		{method: "UpdateUser", name: "admin demoted", run: func(t *testing.T, f *fixture) {
			must(t, errOf(f.svc.UpdateUser(t.Context(), f.actor("owner"), chat.UpdateUserParams{UserID: f.ids["admin"], Role: role(users.RoleMember)})))
		}},
		{method: "UpdateUser", name: "email", setup: func(t *testing.T, f *fixture) {
			extra(t, f)
			f.setUser(t, "owner", func(u *users.User) { u.CanChangeUserEmails = true })
		}, run: func(t *testing.T, f *fixture) {
			must(t, errOf(f.svc.UpdateUser(t.Context(), f.actor("owner"), chat.UpdateUserParams{UserID: f.ids["extra"], NewEmail: ptr("extra2@example.com")})))
		}},
		{method: "DeactivateUser", name: "with a bot and delete_profile", setup: extra, run: func(t *testing.T, f *fixture) {
			must(t, errOf(f.svc.DeactivateUser(t.Context(), f.actor("admin"), chat.DeactivateUserParams{UserID: f.ids["extra"],
				Actions: &chat.DeactivateUserActions{DeleteProfile: true}})))
		}},
		{method: "ReactivateUser", name: "deleted with delete_profile", setup: func(t *testing.T, f *fixture) {
			extra(t, f)
			must(t, errOf(f.svc.DeactivateUser(t.Context(), f.actor("admin"), chat.DeactivateUserParams{UserID: f.ids["extra"],
				Actions: &chat.DeactivateUserActions{DeleteProfile: true}})))
		}, run: func(t *testing.T, f *fixture) {
			must(t, errOf(f.svc.ReactivateUser(t.Context(), f.actor("admin"), chat.ReactivateUserParams{UserID: f.ids["extra"]})))
		}},
		{method: "ReactivateUser", name: "group member", setup: func(t *testing.T, f *fixture) {
			group(t, f)
			must(t, errOf(f.svc.DeactivateUser(t.Context(), f.actor("admin"), chat.DeactivateUserParams{UserID: f.ids["extra"]})))
		}, run: func(t *testing.T, f *fixture) {
			must(t, errOf(f.svc.ReactivateUser(t.Context(), f.actor("admin"), chat.ReactivateUserParams{UserID: f.ids["extra"]})))
		}},
		{method: "CreateUser", name: "member", setup: func(t *testing.T, f *fixture) {
			f.setUser(t, "admin", func(u *users.User) { u.CanCreateUsers = true })
		}, run: func(t *testing.T, f *fixture) {
			_, err := f.svc.CreateUser(t.Context(), f.actor("admin"), chat.CreateUserParams{Email: "c@example.com", Password: "long enough", FullName: "Created User"})
			must(t, err)
		}},
		{method: "CreateBot", name: "generic", run: func(t *testing.T, f *fixture) {
			_, err := f.svc.CreateBot(t.Context(), f.actor("member"), chat.CreateBotParams{FullName: "Member Bot", ShortName: "mb"})
			must(t, err)
		}},
		{method: "CreateUserGroup", name: "with subgroup and settings", setup: group, run: func(t *testing.T, f *fixture) {
			_, err := f.svc.CreateUserGroup(t.Context(), f.actor("member"), chat.CreateUserGroupParams{Name: "new", Description: "d",
				Members: []users.ID{f.ids["admin"]}, Subgroups: []users.GroupID{users.GroupID(f.ids["subgroup"])},
				GroupPermissionParams: chat.GroupPermissionParams{CanJoinGroup: &users.GroupSetting{Members: []users.ID{f.ids["guest"]}}}})
			must(t, err)
		}},
		{method: "UpdateUserGroupMembers", name: "add, remove, subgroups", setup: group, run: func(t *testing.T, f *fixture) {
			must(t, errOf(f.svc.UpdateUserGroupMembers(t.Context(), f.actor("owner"), chat.UpdateUserGroupMembersParams{GroupID: users.GroupID(f.ids["group"]),
				Add: []users.ID{f.ids["admin"]}, Delete: []users.ID{f.ids["member"]}, AddSubgroups: []users.GroupID{users.GroupID(f.ids["subgroup"])}})))
		}},
		{method: "UpdateUserGroupSubgroups", name: "add then remove", setup: group, run: func(t *testing.T, f *fixture) {
			g, sub := users.GroupID(f.ids["group"]), users.GroupID(f.ids["subgroup"])
			must(t, errOf(f.svc.UpdateUserGroupSubgroups(t.Context(), f.actor("owner"), chat.UpdateUserGroupSubgroupsParams{GroupID: g, Add: []users.GroupID{sub}})))
			must(t, errOf(f.svc.UpdateUserGroupSubgroups(t.Context(), f.actor("owner"), chat.UpdateUserGroupSubgroupsParams{GroupID: g, Delete: []users.GroupID{sub}})))
		}},
		{method: "UpdateUserGroup", name: "rename and settings", setup: group, run: func(t *testing.T, f *fixture) {
			must(t, errOf(f.svc.UpdateUserGroup(t.Context(), f.actor("owner"), chat.UpdateUserGroupParams{GroupID: users.GroupID(f.ids["group"]),
				Name: ptr("renamed"), Description: ptr("new description"),
				Settings: map[string]chat.GroupSettingChange{"can_manage_group": {New: &users.GroupSetting{Members: []users.ID{f.ids["member"]}}}}})))
		}},
		{method: "DeactivateUserGroup", name: "unused group", setup: group, run: func(t *testing.T, f *fixture) {
			must(t, errOf(f.svc.DeactivateUserGroup(t.Context(), f.actor("owner"), chat.DeactivateUserGroupParams{GroupID: users.GroupID(f.ids["group"])})))
		}},
		{method: "DeactivateUser", name: "guest", run: func(t *testing.T, f *fixture) {
			must(t, errOf(f.svc.DeactivateUser(t.Context(), f.actor("admin"), chat.DeactivateUserParams{UserID: f.ids["guest"]})))
		}},
		{method: "UpdateSettings", name: "own display settings, name, time zone, visibility", run: func(t *testing.T, f *fixture) {
			must(t, errOf(f.svc.UpdateSettings(t.Context(), f.actor("member"), chat.UpdateSettingsParams{
				FullName: ptr("Mia Settings"), Timezone: ptr("Asia/Tokyo"),
				Values: map[string]any{"default_language": "de", "color_scheme": int64(2), "enter_sends": true,
					"email_address_visibility": int64(1), "enable_drafts_synchronization": false},
			})))
		}},
		{method: "UpdateSettings", name: "administrator for a group", run: func(t *testing.T, f *fixture) {
			skip := false
			members := f.groupIDs(t)[users.GroupMembers]
			must(t, errOf(f.svc.UpdateSettings(t.Context(), f.actor("admin"), chat.UpdateSettingsParams{
				Values:      map[string]any{"emojiset": "text", "web_home_view": "recent"},
				TargetUsers: &chat.TargetUsers{UserIDs: []users.ID{f.ids["guest"]}, GroupIDs: []users.GroupID{members}, SkipIfAlreadyEdited: &skip},
			})))
		}},
		// The user whose email changes is no viewer: its own avatar_url key (a Gravatar of the
		// email) is the client's to recompute under client_gravatar.
		{method: "ConfirmEmailChange", name: "hidden email", setup: func(t *testing.T, f *fixture) {
			extra(t, f)
			must(t, errOf(f.svc.UpdateSettings(t.Context(), f.actor("extra"), chat.UpdateSettingsParams{Email: ptr("extra2@example.com")})))
		}, run: func(t *testing.T, f *fixture) {
			key, _ := f.emailKeys.Load(f.ids["extra"])
			_, err := f.svc.ConfirmEmailChange(t.Context(), chat.ConfirmEmailChangeParams{Key: key.(string)})
			must(t, err)
		}},
		{method: "CreateCustomProfileField", name: "select", run: func(t *testing.T, f *fixture) {
			_, err := f.svc.CreateCustomProfileField(t.Context(), f.actor("admin"), chat.CreateCustomProfileFieldParams{Name: "Team",
				FieldType: users.ProfileSelect, FieldData: `{"a":{"text":"A","order":"1"}}`})
			must(t, err)
		}},
		{method: "UpdateProfileData", name: "set and clear", setup: func(t *testing.T, f *fixture) {
			f.ids["field"] = users.ID(mustField(t, f, "Bio", users.ProfileLongText))
			must(t, errOf(f.svc.UpdateProfileData(t.Context(), f.actor("member"), chat.UpdateProfileDataParams{Data: []chat.ProfileDataUpdate{{ID: int64(f.ids["field"]), Value: json.RawMessage(`"old"`)}}})))
		}, run: func(t *testing.T, f *fixture) {
			phone := mustField(t, f, "Phone", users.ProfileShortText)
			must(t, errOf(f.svc.UpdateProfileData(t.Context(), f.actor("member"), chat.UpdateProfileDataParams{Data: []chat.ProfileDataUpdate{
				{ID: int64(f.ids["field"]), Value: json.RawMessage(`"new **bio**"`)}, {ID: int64(phone), Value: json.RawMessage(`"123"`)}}})))
		}},
		{method: "RemoveProfileData", name: "one field", setup: func(t *testing.T, f *fixture) {
			f.ids["field"] = users.ID(mustField(t, f, "Bio", users.ProfileLongText))
			must(t, errOf(f.svc.UpdateProfileData(t.Context(), f.actor("guest"), chat.UpdateProfileDataParams{Data: []chat.ProfileDataUpdate{{ID: int64(f.ids["field"]), Value: json.RawMessage(`"bio"`)}}})))
		}, run: func(t *testing.T, f *fixture) {
			must(t, errOf(f.svc.RemoveProfileData(t.Context(), f.actor("guest"), chat.RemoveProfileDataParams{Data: []int64{int64(f.ids["field"])}})))
		}},
		{method: "RegenerateAPIKey", name: "own key", run: func(t *testing.T, f *fixture) {
			_, err := f.svc.RegenerateAPIKey(t.Context(), f.actor("member"))
			must(t, err)
		}},
	}
}

// mustField creates a custom profile field as the owner.
func mustField(t *testing.T, f *fixture, name string, typ users.ProfileFieldType) users.ProfileFieldID {
	t.Helper()
	res, err := f.svc.CreateCustomProfileField(t.Context(), f.actor("owner"), chat.CreateCustomProfileFieldParams{Name: name, FieldType: typ})
	if err != nil {
		t.Fatal(err)
	}
	return res.ID
}
