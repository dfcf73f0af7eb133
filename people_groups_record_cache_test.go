package chat_test

import (
	"bytes"
	"testing"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// Register's realm_user_groups come from the Service's cache: after each kind of change to
// the groups or the users (through operations and directly in the store), with and without
// include_deactivated_groups, they equal those of a Service that starts cold on the same
// store, and a caller's change to the records it got does not reach the next registration.
func TestRegisterGroupRecordsCache(t *testing.T) {
	t.Parallel()
	onEveryBackend(t, func(t *testing.T, f *fixture) {
		ctx := t.Context()
		check := func(t *testing.T, step string) {
			t.Helper()
			cold := f.coldService(t)
			defer cold.Close()
			for _, deactivated := range []bool{false, true} {
				p := chat.RegisterQueueParams{FetchEventTypes: []string{"realm_user_groups"}}
				p.ClientCapabilities.IncludeDeactivatedGroups = deactivated
				var got [2]chat.RegisterQueueResult
				for i := range got { // the second one from the cache
					var err error
					if got[i], err = f.svc.RegisterQueue(ctx, f.actor("member"), p); err != nil {
						t.Fatal(err)
					}
				}
				want, err := cold.RegisterQueue(ctx, f.actor("member"), p)
				if err != nil {
					t.Fatal(err)
				}
				wantGroups := mustJSON(t, want.UserGroupsState)
				for i, res := range got {
					if groups := mustJSON(t, res.UserGroupsState); !bytes.Equal(groups, wantGroups) {
						t.Fatalf("%s (include deactivated %v), register %d: realm_user_groups\n%s\nwant (cold)\n%s", step, deactivated, i, groups, wantGroups)
					}
				}
				// A caller that changes its records changes nothing of the next registration's.
				for _, rec := range got[1].RealmUserGroups {
					for k := range rec.Members {
						rec.Members[k] = -1
					}
					for k := range rec.CanManageGroup.Members {
						rec.CanManageGroup.Members[k] = -1
					}
				}
				again, err := f.svc.RegisterQueue(ctx, f.actor("member"), p)
				if err != nil {
					t.Fatal(err)
				}
				if groups := mustJSON(t, again.UserGroupsState); !bytes.Equal(groups, wantGroups) {
					t.Fatalf("%s: after a caller changed its records: realm_user_groups\n%s\nwant\n%s", step, groups, wantGroups)
				}
			}
		}
		check(t, "start")
		created, err := f.svc.CreateUserGroup(ctx, f.actor("admin"), chat.CreateUserGroupParams{
			Name: "cached", Description: "kept records", Members: []users.ID{f.ids["member"], f.ids["guest"]},
		})
		if err != nil {
			t.Fatal(err)
		}
		g := created.GroupID
		check(t, "created")
		mustDo(t, "UpdateUserGroupMembers", errOf(f.svc.UpdateUserGroupMembers(ctx, f.actor("admin"), chat.UpdateUserGroupMembersParams{
			GroupID: g, Add: []users.ID{f.ids["owner"]}, Delete: []users.ID{f.ids["guest"]},
		})))
		check(t, "members")
		other, err := f.svc.CreateUserGroup(ctx, f.actor("admin"), chat.CreateUserGroupParams{Name: "other", Members: []users.ID{f.ids["admin"]}})
		if err != nil {
			t.Fatal(err)
		}
		mustDo(t, "UpdateUserGroupSubgroups", errOf(f.svc.UpdateUserGroupSubgroups(ctx, f.actor("admin"), chat.UpdateUserGroupSubgroupsParams{
			GroupID: g, Add: []users.GroupID{other.GroupID},
		})))
		check(t, "subgroups")
		manage := users.GroupSetting{Members: []users.ID{f.ids["member"]}}
		desc := "changed"
		mustDo(t, "UpdateUserGroup", errOf(f.svc.UpdateUserGroup(ctx, f.actor("admin"), chat.UpdateUserGroupParams{
			GroupID: g, Description: &desc, Settings: map[string]chat.GroupSettingChange{"can_manage_group": {New: &manage}},
		})))
		check(t, "settings")
		mustDo(t, "DeactivateUserGroup", errOf(f.svc.DeactivateUserGroup(ctx, f.actor("admin"), chat.DeactivateUserGroupParams{GroupID: g})))
		check(t, "group deactivated")
		mustDo(t, "DeactivateUser", errOf(f.svc.DeactivateUser(ctx, f.actor("owner"), chat.DeactivateUserParams{UserID: f.ids["admin"]})))
		check(t, "user deactivated")
		if err := f.store.Update(ctx, func(tx storage.Tx) error {
			return tx.Groups().AddMembers(g, []users.ID{f.ids["guest"]})
		}); err != nil {
			t.Fatal(err)
		}
		check(t, "written to the store")
	})
}
