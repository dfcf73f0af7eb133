package chat_test

import (
	"context"
	"net/http"
	"testing"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/users"
)

// matrixActors are the kinds of caller every endpoint of the users area is tried with.
var matrixActors = []string{"owner", "admin", "moderator", "member", "guest", "bot", "deactivated"}

// outcome is the expected result of one call: ok, or an error code and message.
type outcome struct {
	code chat.Code
	msg  string
}

var (
	ok           = outcome{}
	deactivated  = outcome{chat.CodeUnauthorized, "Account is deactivated"}
	insufficient = outcome{chat.CodeBadRequest, "Insufficient permission"}
	mustBeAdmin  = outcome{chat.CodeUnauthorizedPrincipal, "Must be an organization administrator"}
	notForGuests = outcome{chat.CodeBadRequest, "Not allowed for guest users"}
	noBots       = outcome{chat.CodeBadRequest, "This endpoint does not accept bot requests."}
	everyoneOK   = map[string]outcome{"owner": ok, "admin": ok, "moderator": ok, "member": ok, "guest": ok, "bot": ok, "deactivated": deactivated}
	adminsOnly   = map[string]outcome{"owner": ok, "admin": ok, "moderator": insufficient, "member": insufficient, "guest": insufficient, "bot": insufficient, "deactivated": deactivated}
	membersAndUp = map[string]outcome{"owner": ok, "admin": ok, "moderator": ok, "member": ok, "guest": notForGuests, "bot": noBots, "deactivated": deactivated}
	humansOnly   = map[string]outcome{"owner": ok, "admin": ok, "moderator": ok, "member": ok, "guest": ok, "bot": noBots, "deactivated": deactivated}
	// nonGuests: bots too (require_non_guest_user; listing and creating groups since level 496).
	nonGuests     = map[string]outcome{"owner": ok, "admin": ok, "moderator": ok, "member": ok, "guest": notForGuests, "bot": ok, "deactivated": deactivated}
	adminGateOnly = map[string]outcome{"owner": ok, "admin": ok, "moderator": mustBeAdmin, "member": mustBeAdmin, "guest": mustBeAdmin, "bot": mustBeAdmin, "deactivated": deactivated}
)

// matrixRow is one endpoint of the role matrix. setup may prepare the fixture (as the owner
// would); call performs the operation as the named actor, under the test's context.
type matrixRow struct {
	name  string
	want  map[string]outcome
	setup func(t *testing.T, f *fixture)
	call  func(ctx context.Context, f *fixture, as string) error
}

// usersMatrix lists the endpoints of the users area. Other files of the area append rows.
var usersMatrix = []matrixRow{
	{"GetUsers", everyoneOK, nil, func(ctx context.Context, f *fixture, as string) error {
		_, err := f.svc.GetUsers(ctx, f.actor(as), chat.GetUsersParams{})
		return err
	}},
	{"GetUser", everyoneOK, nil, func(ctx context.Context, f *fixture, as string) error {
		_, err := f.svc.GetUser(ctx, f.actor(as), chat.GetUserParams{UserID: f.ids["target"]})
		return err
	}},
	{"GetUserByEmail", everyoneOK, nil, func(ctx context.Context, f *fixture, as string) error {
		_, err := f.svc.GetUserByEmail(ctx, f.actor(as), chat.GetUserByEmailParams{Email: "bot@example.com"})
		return err
	}},
	{"GetOwnUser", everyoneOK, nil, func(ctx context.Context, f *fixture, as string) error {
		_, err := f.svc.GetOwnUser(ctx, f.actor(as), chat.UserQueryOptions{})
		return err
	}},
	{"UpdateUser", adminsOnly, nil, func(ctx context.Context, f *fixture, as string) error {
		return errOf(f.svc.UpdateUser(ctx, f.actor(as), chat.UpdateUserParams{UserID: f.ids["target"], FullName: ptr("Renamed Target")}))
	}},
	{"DeactivateUser", adminsOnly, nil, func(ctx context.Context, f *fixture, as string) error {
		return errOf(f.svc.DeactivateUser(ctx, f.actor(as), chat.DeactivateUserParams{UserID: f.ids["target"]}))
	}},
	{"ReactivateUser", adminsOnly, func(t *testing.T, f *fixture) {
		f.setUser(t, "target", func(u *users.User) { u.IsActive = false })
	}, func(ctx context.Context, f *fixture, as string) error {
		return errOf(f.svc.ReactivateUser(ctx, f.actor(as), chat.ReactivateUserParams{UserID: f.ids["target"]}))
	}},
	{"CreateUser", adminGateOnly, func(t *testing.T, f *fixture) {
		for _, name := range matrixActors {
			f.setUser(t, name, func(u *users.User) { u.CanCreateUsers = true })
		}
	}, func(ctx context.Context, f *fixture, as string) error {
		_, err := f.svc.CreateUser(ctx, f.actor(as), chat.CreateUserParams{Email: "new@example.com", Password: "long enough", FullName: "New One"})
		return err
	}},
	{"CreateBot", membersAndUp, nil, func(ctx context.Context, f *fixture, as string) error {
		_, err := f.svc.CreateBot(ctx, f.actor(as), chat.CreateBotParams{FullName: "Matrix Bot", ShortName: "matrix"})
		return err
	}},
	{"UpdateSettings", humansOnly, nil, func(ctx context.Context, f *fixture, as string) error {
		return errOf(f.svc.UpdateSettings(ctx, f.actor(as), chat.UpdateSettingsParams{Values: map[string]any{"enter_sends": true}}))
	}},
	{"UpdateSettings for others", map[string]outcome{"owner": ok, "admin": ok, "moderator": mustBeAdmin, "member": mustBeAdmin, "guest": mustBeAdmin, "bot": noBots, "deactivated": deactivated}, nil, func(ctx context.Context, f *fixture, as string) error {
		return errOf(f.svc.UpdateSettings(ctx, f.actor(as), chat.UpdateSettingsParams{Values: map[string]any{"enter_sends": true},
			TargetUsers: &chat.TargetUsers{UserIDs: []users.ID{f.ids["member"]}, SkipIfAlreadyEdited: ptr(false)}}))
	}},
	{"GetCustomProfileFields", everyoneOK, nil, func(ctx context.Context, f *fixture, as string) error {
		_, err := f.svc.GetCustomProfileFields(ctx, f.actor(as))
		return err
	}},
	{"CreateCustomProfileField", adminGateOnly, nil, func(ctx context.Context, f *fixture, as string) error {
		_, err := f.svc.CreateCustomProfileField(ctx, f.actor(as), chat.CreateCustomProfileFieldParams{Name: "Phone"})
		return err
	}},
	{"UpdateProfileData", humansOnly, func(t *testing.T, f *fixture) {
		f.ids["phone"] = users.ID(mustField(t, f, "Phone", users.ProfileShortText))
	},
		func(ctx context.Context, f *fixture, as string) error {
			return errOf(f.svc.UpdateProfileData(ctx, f.actor(as), chat.UpdateProfileDataParams{Data: []chat.ProfileDataUpdate{{ID: int64(f.ids["phone"]), Value: []byte(`"123"`)}}}))
		}},
	{"GetUserGroups", nonGuests, nil, func(ctx context.Context, f *fixture, as string) error {
		_, err := f.svc.GetUserGroups(ctx, f.actor(as), chat.GetUserGroupsParams{})
		return err
	}},
	{"CreateUserGroup", nonGuests, nil, func(ctx context.Context, f *fixture, as string) error {
		_, err := f.svc.CreateUserGroup(ctx, f.actor(as), chat.CreateUserGroupParams{Name: "matrix", Members: []users.ID{f.ids["member"]}})
		return err
	}},
	{"UpdateUserGroupMembers", membersAndUp, matrixGroup, func(ctx context.Context, f *fixture, as string) error {
		return errOf(f.svc.UpdateUserGroupMembers(ctx, f.actor(as), chat.UpdateUserGroupMembersParams{GroupID: users.GroupID(f.ids["mgroup"]), Add: []users.ID{f.ids["target"]}}))
	}},
	{"UpdateUserGroupSubgroups", membersAndUp, matrixGroup, func(ctx context.Context, f *fixture, as string) error {
		return errOf(f.svc.UpdateUserGroupSubgroups(ctx, f.actor(as), chat.UpdateUserGroupSubgroupsParams{GroupID: users.GroupID(f.ids["mgroup"]), Add: []users.GroupID{1}}))
	}},
	{"UpdateUserGroup", membersAndUp, matrixGroup, func(ctx context.Context, f *fixture, as string) error {
		return errOf(f.svc.UpdateUserGroup(ctx, f.actor(as), chat.UpdateUserGroupParams{GroupID: users.GroupID(f.ids["mgroup"]), Description: ptr("changed")}))
	}},
	{"DeactivateUserGroup", map[string]outcome{"owner": ok, "admin": ok, "moderator": insufficient, "member": insufficient, "guest": notForGuests, "bot": noBots, "deactivated": deactivated},
		func(t *testing.T, f *fixture) {
			f.ids["ogroup"] = users.ID(f.mustGroup(t, "owner", chat.CreateUserGroupParams{Name: "owned"}))
		}, func(ctx context.Context, f *fixture, as string) error {
			return errOf(f.svc.DeactivateUserGroup(ctx, f.actor(as), chat.DeactivateUserGroupParams{GroupID: users.GroupID(f.ids["ogroup"])}))
		}},
	{"GetUserGroupMembers", membersAndUp, nil, func(ctx context.Context, f *fixture, as string) error {
		_, err := f.svc.GetUserGroupMembers(ctx, f.actor(as), chat.GetUserGroupMembersParams{GroupID: 1})
		return err
	}},
	{"GetIsUserGroupMember", membersAndUp, nil, func(ctx context.Context, f *fixture, as string) error {
		_, err := f.svc.GetIsUserGroupMember(ctx, f.actor(as), chat.GetIsUserGroupMemberParams{GroupID: 1, UserID: f.ids["member"]})
		return err
	}},
}

func TestUsersRoleMatrix(t *testing.T) {
	t.Parallel()
	for _, row := range usersMatrix {
		t.Run(row.name, func(t *testing.T) {
			t.Parallel()
			for _, as := range matrixActors {
				t.Run(as, func(t *testing.T) {
					f := newUsersFixture(t)
					if row.setup != nil {
						row.setup(t, f)
					}
					want, listed := row.want[as]
					if !listed {
						t.Fatalf("no expected outcome for %s", as)
					}
					before := f.snapshot(t)
					err := row.call(t.Context(), f, as)
					if want == ok {
						if err != nil {
							t.Fatalf("%s as %s: %v, want success", row.name, as, err)
						}
						return
					}
					status := http.StatusBadRequest
					if want.code == chat.CodeUnauthorized {
						status = http.StatusUnauthorized
					}
					wantError(t, err, want.code, status, want.msg)
					if f.snapshot(t) != before {
						t.Errorf("refused %s as %s changed the store", row.name, as)
					}
				})
			}
		})
	}
}

// matrixGroup creates a group that every member may add to and manage.
func matrixGroup(t *testing.T, f *fixture) {
	members := users.Named(f.groupIDs(t)[users.GroupMembers])
	f.ids["mgroup"] = users.ID(f.mustGroup(t, "owner", chat.CreateUserGroupParams{Name: "open",
		GroupPermissionParams: chat.GroupPermissionParams{CanAddMembersGroup: &members, CanManageGroup: &members}}))
}
