package chat_test

import (
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/users"
)

// mustGroup creates a group as name and returns its id.
func (f *fixture) mustGroup(t *testing.T, as string, p chat.CreateUserGroupParams) users.GroupID {
	t.Helper()
	res, err := f.svc.CreateUserGroup(t.Context(), f.actor(as), p)
	if err != nil {
		t.Fatalf("CreateUserGroup(%s): %v", p.Name, err)
	}
	return res.GroupID
}

func TestCreateUserGroup(t *testing.T) {
	t.Parallel()
	f := newUsersFixture(t)
	ctx := t.Context()
	q := f.register(t, "guest", "user_group")
	id := f.mustGroup(t, "member", chat.CreateUserGroupParams{Name: " backend ", Description: "Backend team",
		Members: []users.ID{f.ids["target"], f.ids["member"]}})
	groups, err := f.svc.GetUserGroups(ctx, f.actor("admin"), chat.GetUserGroupsParams{})
	if err != nil {
		t.Fatal(err)
	}
	var got *chat.UserGroupRecord
	for i := range groups.UserGroups {
		if groups.UserGroups[i].ID == id {
			got = &groups.UserGroups[i]
		}
	}
	sys := f.groupIDs(t)
	date := f.clock.Now().Unix()
	want := &chat.UserGroupRecord{
		ID: id, Name: "backend", Description: "Backend team",
		Members: []users.ID{f.ids["member"], f.ids["target"]}, DirectSubgroupIDs: []users.GroupID{},
		CreatorID: ptr(f.ids["member"]), DateCreated: &date,
		CanAddMembersGroup:    users.GroupSetting{Members: []users.ID{f.ids["member"]}, Subgroups: []users.GroupID{}},
		CanJoinGroup:          users.Named(sys[users.GroupNobody]),
		CanLeaveGroup:         users.Named(sys[users.GroupEveryone]),
		CanManageGroup:        users.GroupSetting{Members: []users.ID{f.ids["member"]}, Subgroups: []users.GroupID{}},
		CanMentionGroup:       users.Named(sys[users.GroupEveryone]),
		CanRemoveMembersGroup: users.Named(sys[users.GroupNobody]),
	}
	if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("group (-want +got):\n%s", diff)
	}
	evs := eventsNoID(t, f.poll(t, "guest", q, -1, true))
	if len(evs) != 1 || evs[0]["op"] != "add" || evs[0]["group"].(map[string]any)["name"] != "backend" {
		t.Errorf("events = %v", evs)
	}
	// System groups render with null creator and date and role:nobody settings.
	for _, g := range groups.UserGroups {
		if g.IsSystemGroup && (g.CreatorID != nil || g.DateCreated != nil || !cmp.Equal(g.CanManageGroup, users.Named(sys[users.GroupNobody]))) {
			t.Errorf("system group %s = %+v", g.Name, g)
		}
	}
}

func TestCreateUserGroupRefusals(t *testing.T) {
	t.Parallel()
	f := newUsersFixture(t)
	ctx := t.Context()
	f.mustGroup(t, "member", chat.CreateUserGroupParams{Name: "taken"})
	sys := f.groupIDs(t)
	everyone := users.Named(sys[users.GroupEveryone])
	internet := users.Named(sys[users.GroupInternet])
	tests := []struct {
		name string
		p    chat.CreateUserGroupParams
		msg  string
	}{
		{"empty name", chat.CreateUserGroupParams{Name: "  "}, "User group name can't be empty!"},
		{"long name", chat.CreateUserGroupParams{Name: string(make([]rune, 101))}, ""},
		{"reserved prefix", chat.CreateUserGroupParams{Name: "role:x"}, "User group name cannot start with 'role:'."},
		{"duplicate", chat.CreateUserGroupParams{Name: "taken"}, "User group 'taken' already exists."},
		{"unknown member", chat.CreateUserGroupParams{Name: "g", Members: []users.ID{999}}, "Invalid user ID: 999"},
		{"deactivated member", chat.CreateUserGroupParams{Name: "g", Members: []users.ID{f.ids["deactivated"]}}, "Invalid user ID: " + itoa(int64(f.ids["deactivated"]))},
		{"unknown subgroup", chat.CreateUserGroupParams{Name: "g", Subgroups: []users.GroupID{999}}, "Invalid user group ID: 999"},
		{"everyone may not manage", chat.CreateUserGroupParams{Name: "g", GroupPermissionParams: chat.GroupPermissionParams{CanManageGroup: &everyone}}, "'can_manage_group' setting cannot be set to 'role:everyone' group."},
		{"internet may not mention", chat.CreateUserGroupParams{Name: "g", GroupPermissionParams: chat.GroupPermissionParams{CanMentionGroup: &internet}}, "'can_mention_group' setting cannot be set to 'role:internet' group."},
		{"setting with unknown user", chat.CreateUserGroupParams{Name: "g", GroupPermissionParams: chat.GroupPermissionParams{CanJoinGroup: &users.GroupSetting{Members: []users.ID{999}}}}, "Invalid user ID: 999"},
		{"long description", chat.CreateUserGroupParams{Name: "g", Description: string(make([]rune, 1025))}, "description is too long (limit: 1024 characters)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := f.snapshot(t)
			_, err := f.svc.CreateUserGroup(ctx, f.actor("member"), tt.p)
			wantError(t, err, chat.CodeBadRequest, http.StatusBadRequest, tt.msg)
			if f.snapshot(t) != before {
				t.Error("refused creation changed the store")
			}
		})
	}
}

func TestUserGroupMembership(t *testing.T) {
	t.Parallel()
	f := newUsersFixture(t)
	ctx := t.Context()
	sys := f.groupIDs(t)
	inner := f.mustGroup(t, "owner", chat.CreateUserGroupParams{Name: "inner", Members: []users.ID{f.ids["target"]},
		GroupPermissionParams: chat.GroupPermissionParams{CanJoinGroup: ptr(users.Named(sys[users.GroupMembers]))}})
	outer := f.mustGroup(t, "owner", chat.CreateUserGroupParams{Name: "outer", Members: []users.ID{f.ids["member"]}, Subgroups: []users.GroupID{inner}})
	q := f.register(t, "admin", "user_group")

	isMember := func(g users.GroupID, u string, direct bool) bool {
		t.Helper()
		res, err := f.svc.GetIsUserGroupMember(ctx, f.actor("member"), chat.GetIsUserGroupMemberParams{GroupID: g, UserID: f.ids[u], DirectMemberOnly: direct})
		if err != nil {
			t.Fatal(err)
		}
		return res.IsUserGroupMember
	}
	if !isMember(outer, "target", false) || isMember(outer, "target", true) || !isMember(outer, "member", true) {
		t.Error("membership through subgroups is wrong")
	}
	members, err := f.svc.GetUserGroupMembers(ctx, f.actor("member"), chat.GetUserGroupMembersParams{GroupID: outer})
	if err != nil || !cmp.Equal(members.Members, []users.ID{f.ids["member"], f.ids["target"]}) {
		t.Errorf("members of outer = %v, %v", members.Members, err)
	}
	subs, err := f.svc.GetUserGroupSubgroups(ctx, f.actor("member"), chat.GetUserGroupSubgroupsParams{GroupID: sys[users.GroupAdministrators]})
	if err != nil || !cmp.Equal(subs.Subgroups, []users.GroupID{sys[users.GroupOwners]}) {
		t.Errorf("subgroups of administrators = %v, %v", subs.Subgroups, err)
	}
	subs, err = f.svc.GetUserGroupSubgroups(ctx, f.actor("member"), chat.GetUserGroupSubgroupsParams{GroupID: sys[users.GroupMembers]})
	if err != nil || len(subs.Subgroups) != 4 {
		t.Errorf("transitive subgroups of members = %v, %v", subs.Subgroups, err)
	}
	// Cycles are impossible, directly or through a chain.
	for _, tt := range []struct {
		g, sub users.GroupID
	}{{inner, outer}, {inner, inner}} {
		before := f.snapshot(t)
		_, err := f.svc.UpdateUserGroupSubgroups(ctx, f.actor("owner"), chat.UpdateUserGroupSubgroupsParams{GroupID: tt.g, Add: []users.GroupID{tt.sub}})
		wantError(t, err, chat.CodeBadRequest, http.StatusBadRequest, "")
		if f.snapshot(t) != before {
			t.Error("refused cycle changed the store")
		}
	}
	// The moderator joins inner (can_join_group is role:members), a member may not add others.
	if _, err := f.svc.UpdateUserGroupMembers(ctx, f.actor("moderator"), chat.UpdateUserGroupMembersParams{GroupID: inner, Add: []users.ID{f.ids["moderator"]}}); err != nil {
		t.Fatalf("join: %v", err)
	}
	before := f.snapshot(t)
	_, err = f.svc.UpdateUserGroupMembers(ctx, f.actor("member"), chat.UpdateUserGroupMembersParams{GroupID: inner, Add: []users.ID{f.ids["admin"]}})
	wantError(t, err, chat.CodeBadRequest, http.StatusBadRequest, "Insufficient permission")
	// The moderator leaves (can_leave_group is everyone).
	if _, err := f.svc.UpdateUserGroupMembers(ctx, f.actor("moderator"), chat.UpdateUserGroupMembersParams{GroupID: inner, Delete: []users.ID{f.ids["moderator"]}}); err != nil {
		t.Fatalf("leave: %v", err)
	}
	for _, tt := range []struct {
		name string
		as   string
		p    chat.UpdateUserGroupMembersParams
		msg  string
	}{
		{"already a member", "owner", chat.UpdateUserGroupMembersParams{GroupID: inner, Add: []users.ID{f.ids["target"]}}, "User " + itoa(int64(f.ids["target"])) + " is already a member of this group"},
		{"not a member", "owner", chat.UpdateUserGroupMembersParams{GroupID: inner, Delete: []users.ID{f.ids["admin"]}}, "There is no member '" + itoa(int64(f.ids["admin"])) + "' in this user group"},
		{"unknown user", "owner", chat.UpdateUserGroupMembersParams{GroupID: inner, Add: []users.ID{999}}, "Invalid user ID: 999"},
		{"system group", "owner", chat.UpdateUserGroupMembersParams{GroupID: sys[users.GroupMembers], Add: []users.ID{f.ids["guest"]}}, "Insufficient permission"},
		{"unknown group", "owner", chat.UpdateUserGroupMembersParams{GroupID: 999, Add: []users.ID{f.ids["guest"]}}, "Invalid user group"},
		{"other removes a member", "member", chat.UpdateUserGroupMembersParams{GroupID: inner, Delete: []users.ID{f.ids["target"]}}, "Insufficient permission"},
		{"nothing", "owner", chat.UpdateUserGroupMembersParams{GroupID: inner}, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			before := f.snapshot(t)
			_, err := f.svc.UpdateUserGroupMembers(ctx, f.actor(tt.as), tt.p)
			wantError(t, err, chat.CodeBadRequest, http.StatusBadRequest, tt.msg)
			if f.snapshot(t) != before {
				t.Error("refused change changed the store")
			}
		})
	}
	_ = before
	want := []map[string]any{
		{"type": "user_group", "op": "add_members", "group_id": float64(inner), "user_ids": []any{idf(f.ids["moderator"])}},
		{"type": "user_group", "op": "remove_members", "group_id": float64(inner), "user_ids": []any{idf(f.ids["moderator"])}},
	}
	if diff := cmp.Diff(want, eventsNoID(t, f.poll(t, "admin", q, -1, true))); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	// Deactivated users are never members.
	f.setUser(t, "target", func(u *users.User) { u.IsActive = false })
	if isMember(inner, "target", true) || isMember(outer, "target", false) {
		t.Error("a deactivated user is a member")
	}
}

func TestUpdateAndDeactivateUserGroup(t *testing.T) {
	t.Parallel()
	f := newUsersFixture(t)
	ctx := t.Context()
	sys := f.groupIDs(t)
	inner := f.mustGroup(t, "member", chat.CreateUserGroupParams{Name: "inner"})
	outer := f.mustGroup(t, "member", chat.CreateUserGroupParams{Name: "outer", Subgroups: []users.GroupID{inner}})
	q := f.register(t, "guest", "user_group")
	_, err := f.svc.UpdateUserGroup(ctx, f.actor("member"), chat.UpdateUserGroupParams{GroupID: inner, Name: ptr("renamed"),
		Settings: map[string]chat.GroupSettingChange{"can_mention_group": {New: ptr(users.Named(sys[users.GroupMembers])), Old: ptr(users.Named(sys[users.GroupEveryone]))}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name string
		as   string
		p    chat.UpdateUserGroupParams
		msg  string
	}{
		{"not a manager", "moderator", chat.UpdateUserGroupParams{GroupID: inner, Name: ptr("x")}, "Insufficient permission"},
		{"old mismatch", "member", chat.UpdateUserGroupParams{GroupID: inner, Settings: map[string]chat.GroupSettingChange{"can_mention_group": {New: ptr(users.Named(sys[users.GroupMembers])), Old: ptr(users.Named(sys[users.GroupEveryone]))}}}, "'old' value does not match the expected value."},
		{"taken name", "member", chat.UpdateUserGroupParams{GroupID: inner, Name: ptr("outer")}, "User group 'outer' already exists."},
		{"unknown setting", "member", chat.UpdateUserGroupParams{GroupID: inner, Settings: map[string]chat.GroupSettingChange{"can_fly_group": {New: ptr(users.Named(1))}}}, "Invalid setting can_fly_group"},
		{"system group", "owner", chat.UpdateUserGroupParams{GroupID: sys[users.GroupMembers], Name: ptr("x")}, "Insufficient permission"},
	} {
		before := f.snapshot(t)
		_, err := f.svc.UpdateUserGroup(ctx, f.actor(tt.as), tt.p)
		wantError(t, err, chat.CodeBadRequest, http.StatusBadRequest, tt.msg)
		if f.snapshot(t) != before {
			t.Errorf("%s: refused update changed the store", tt.name)
		}
	}
	before := f.snapshot(t)
	_, err = f.svc.DeactivateUserGroup(ctx, f.actor("member"), chat.DeactivateUserGroupParams{GroupID: inner})
	wantError(t, err, "CANNOT_DEACTIVATE_GROUP_IN_USE", http.StatusBadRequest, "Cannot deactivate user group in use.")
	if f.snapshot(t) != before {
		t.Error("refused deactivation changed the store")
	}
	if _, err := f.svc.DeactivateUserGroup(ctx, f.actor("admin"), chat.DeactivateUserGroupParams{GroupID: outer}); err != nil {
		t.Fatal(err)
	}
	want := []map[string]any{
		{"type": "user_group", "op": "update", "group_id": float64(inner), "data": map[string]any{"name": "renamed", "can_mention_group": float64(sys[users.GroupMembers])}},
		{"type": "user_group", "op": "update", "group_id": float64(outer), "data": map[string]any{"deactivated": true}},
	}
	if diff := cmp.Diff(want, eventsNoID(t, f.poll(t, "guest", q, -1, true))); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	list, err := f.svc.GetUserGroups(ctx, f.actor("member"), chat.GetUserGroupsParams{})
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range list.UserGroups {
		if g.ID == outer {
			t.Error("deactivated group listed without include_deactivated_groups")
		}
	}
	_, err = f.svc.UpdateUserGroupMembers(ctx, f.actor("member"), chat.UpdateUserGroupMembersParams{GroupID: outer, Add: []users.ID{f.ids["admin"]}})
	wantError(t, err, chat.CodeBadRequest, http.StatusBadRequest, "You can't add members to a deactivated user group.")
}

// TestBotsListAndCreateGroups pins feature level 496: a bot may list the user groups and
// create one (Zulip's require_non_guest_user), while the other group operations still refuse
// bots and guests are refused both.
func TestBotsListAndCreateGroups(t *testing.T) {
	t.Parallel()
	f := newUsersFixture(t)
	ctx := t.Context()
	bot := mustCreateBot(t, f, "member", chat.CreateBotParams{FullName: "Group Bot", ShortName: "groups", BotType: users.BotGeneric})
	as := chat.Actor{UserID: bot}
	if _, err := f.svc.GetUserGroups(ctx, as, chat.GetUserGroupsParams{}); err != nil {
		t.Fatalf("GetUserGroups as a bot: %v", err)
	}
	res, err := f.svc.CreateUserGroup(ctx, as, chat.CreateUserGroupParams{Name: "made by a bot", Members: []users.ID{bot}})
	if err != nil {
		t.Fatalf("CreateUserGroup as a bot: %v", err)
	}
	_, err = f.svc.UpdateUserGroup(ctx, as, chat.UpdateUserGroupParams{GroupID: res.GroupID, Description: ptr("changed")})
	wantError(t, err, chat.CodeBadRequest, http.StatusBadRequest, "This endpoint does not accept bot requests.")
	_, err = f.svc.GetUserGroups(ctx, f.actor("guest"), chat.GetUserGroupsParams{})
	wantError(t, err, chat.CodeBadRequest, http.StatusBadRequest, "Not allowed for guest users")
	_, err = f.svc.CreateUserGroup(ctx, f.actor("guest"), chat.CreateUserGroupParams{Name: "by a guest"})
	wantError(t, err, chat.CodeBadRequest, http.StatusBadRequest, "Not allowed for guest users")
}
