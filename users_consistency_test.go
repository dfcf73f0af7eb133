package chat_test

import (
	"context"
	"slices"
	"testing"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/users"
)

// usersConsistencyCases are the consistency cases of the users area.
func usersConsistencyCases() []consistencyCase {
	ctx := context.Background()
	return []consistencyCase{
		{method: "CreateUser", name: "by an administrator", setup: func(t *testing.T, f *fixture) {
			f.setUser(t, "admin", func(u *users.User) { u.CanCreateUsers = true })
		}, run: func(t *testing.T, f *fixture) {
			mustDo(t, "CreateUser", errOf(f.svc.CreateUser(ctx, f.actor("admin"), chat.CreateUserParams{Email: "c@example.com", Password: "a long password", FullName: "Created"})))
		}},
		{method: "CreateBot", name: "by a member", run: func(t *testing.T, f *fixture) {
			mustDo(t, "CreateBot", errOf(f.svc.CreateBot(ctx, f.actor("member"), chat.CreateBotParams{FullName: "Helper", ShortName: "helper"})))
		}},
		{method: "UpdateUser", name: "full name", run: func(t *testing.T, f *fixture) {
			mustDo(t, "UpdateUser", f.svc.UpdateUser(ctx, f.actor("admin"), chat.UpdateUserParams{UserID: f.ids["member"], FullName: ptr("Mia Renamed")}))
		}},
		{method: "UpdateUser", name: "role", run: func(t *testing.T, f *fixture) {
			mustDo(t, "UpdateUser", f.svc.UpdateUser(ctx, f.actor("owner"), chat.UpdateUserParams{UserID: f.ids["member"], Role: ptr(users.RoleModerator)}))
		}},
		{method: "DeactivateUser", name: "guest", run: func(t *testing.T, f *fixture) {
			mustDo(t, "DeactivateUser", f.svc.DeactivateUser(ctx, f.actor("admin"), chat.DeactivateUserParams{UserID: f.ids["guest"]}))
		}},
		{method: "ReactivateUser", name: "guest",
			setup: func(t *testing.T, f *fixture) {
				mustDo(t, "DeactivateUser", f.svc.DeactivateUser(ctx, f.actor("admin"), chat.DeactivateUserParams{UserID: f.ids["guest"]}))
			},
			run: func(t *testing.T, f *fixture) {
				mustDo(t, "ReactivateUser", f.svc.ReactivateUser(ctx, f.actor("admin"), chat.ReactivateUserParams{UserID: f.ids["guest"]}))
			}},
		{method: "RegenerateAPIKey", name: "own key", run: func(t *testing.T, f *fixture) {
			mustDo(t, "RegenerateAPIKey", errOf(f.svc.RegenerateAPIKey(ctx, f.actor("member"))))
		}},
	}
}

// errOf drops an operation's result, keeping its error.
func errOf[T any](_ T, err error) error { return err }

// mustDo fails the test when an operation fails.
func mustDo(t *testing.T, what string, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

func applyUserGroup(t *testing.T, state, ev map[string]any) {
	if _, ok := state["realm_user_groups"]; !ok {
		return
	}
	l := list(state, "realm_user_groups")
	switch ev["op"] {
	case "add":
		state["realm_user_groups"] = insertByID(l, ev["group"].(map[string]any), "id")
		return
	case "remove":
		state["realm_user_groups"] = removeByID(l, "id", num(ev["group_id"]))
		return
	}
	i := findByID(l, "id", num(ev["group_id"]))
	if i < 0 {
		t.Fatalf("user_group event for unknown group: %v", ev)
	}
	g := clone(l[i].(map[string]any))
	l[i] = g
	switch ev["op"] {
	case "add_members":
		g["members"] = sortedUnion(g["members"], ev["user_ids"])
	case "remove_members":
		g["members"] = without(g["members"], ev["user_ids"])
	case "add_subgroups":
		g["direct_subgroup_ids"] = sortedUnion(g["direct_subgroup_ids"], ev["direct_subgroup_ids"])
	case "remove_subgroups":
		g["direct_subgroup_ids"] = without(g["direct_subgroup_ids"], ev["direct_subgroup_ids"])
	case "update":
		for k, v := range ev["data"].(map[string]any) {
			g[k] = v
		}
	default:
		t.Fatalf("unknown user_group op in %v", ev)
	}
}

// sortedUnion merges two JSON number lists, ascending and without duplicates.
func sortedUnion(a, b any) []any {
	var out []float64
	for _, l := range []any{a, b} {
		s, _ := l.([]any)
		for _, v := range s {
			out = append(out, num(v))
		}
	}
	slices.Sort(out)
	out = slices.Compact(out)
	res := make([]any, len(out))
	for i, v := range out {
		res[i] = v
	}
	return res
}

// without removes the numbers of b from a.
func without(a, b any) []any {
	drop := map[float64]bool{}
	bs, _ := b.([]any)
	for _, v := range bs {
		drop[num(v)] = true
	}
	as, _ := a.([]any)
	return slices.DeleteFunc(slices.Clone(as), func(v any) bool { return drop[num(v)] })
}
