package chat_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/users"
)

// Since feature level 303 Zulip lists no deactivated user in a group setting's
// direct_members: not in register (realm settings, realm_user_groups, subscriptions), not in
// GET /user_groups, not in a channel's settings.
func TestGroupSettingsLeaveOutDeactivatedUsers(t *testing.T) {
	t.Parallel()
	onEveryBackend(t, func(t *testing.T, f *fixture) {
		ctx := t.Context()
		member, admin := f.ids["member"], f.ids["admin"]
		both := users.GroupSetting{Members: []users.ID{admin, member}, Subgroups: []users.GroupID{}}
		g := f.mustGroup(t, "admin", chat.CreateUserGroupParams{Name: "crew", Description: "crew", Members: []users.ID{admin},
			GroupPermissionParams: chat.GroupPermissionParams{CanManageGroup: &both}})
		if _, err := f.svc.UpdateRealm(ctx, f.actor("owner"), chat.UpdateRealmParams{GroupSettings: map[string]chat.GroupSettingChange{"can_create_groups": {New: &both}}}); err != nil {
			t.Fatalf("UpdateRealm: %v", err)
		}
		f.mustSubscribe(t, "admin", chat.SubscribeParams{Subscriptions: subs("a"), NewChannelSettings: chat.NewChannelSettings{GroupSettings: map[string]users.GroupSetting{"can_send_message_group": both}}})
		a := f.mustChannel(t, "a")
		if _, err := f.svc.DeactivateUser(ctx, f.actor("admin"), chat.DeactivateUserParams{UserID: member}); err != nil {
			t.Fatalf("DeactivateUser: %v", err)
		}
		want := map[string]any{"direct_members": []any{float64(admin)}, "direct_subgroups": []any{}}
		check := func(where string, got any) {
			t.Helper()
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s (-want +got):\n%s", where, diff)
			}
		}
		reg, err := f.svc.RegisterQueue(ctx, f.actor("admin"), chat.RegisterQueueParams{FetchEventTypes: []string{"realm", "realm_user_groups", "subscription"}})
		if err != nil {
			t.Fatal(err)
		}
		state := jsonObject(t, reg)
		check("register realm_can_create_groups", state["realm_can_create_groups"])
		for _, rec := range state["realm_user_groups"].([]any) {
			if rec := rec.(map[string]any); rec["id"] == float64(g) {
				check("register realm_user_groups can_manage_group", rec["can_manage_group"])
			}
		}
		for _, sub := range state["subscriptions"].([]any) {
			if sub := sub.(map[string]any); sub["stream_id"] == float64(a.ID) {
				check("register subscriptions can_send_message_group", sub["can_send_message_group"])
			}
		}
		groups, err := f.svc.GetUserGroups(ctx, f.actor("admin"), chat.GetUserGroupsParams{})
		if err != nil {
			t.Fatal(err)
		}
		for _, rec := range groups.UserGroups {
			if rec.ID == g {
				check("GET /user_groups can_manage_group", jsonObject(t, rec)["can_manage_group"])
			}
		}
		st, err := f.svc.GetStreamByID(ctx, f.actor("admin"), chat.GetStreamByIDParams{StreamID: a.ID})
		if err != nil {
			t.Fatal(err)
		}
		check("GET /streams/{id} can_send_message_group", jsonObject(t, st.Stream)["can_send_message_group"])
	})
}
