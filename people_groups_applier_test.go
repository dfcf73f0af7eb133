package chat_test

import (
	"slices"
	"testing"
)

// applyUserGroup applies a user_group event to register's realm_user_groups.
func applyUserGroup(t *testing.T, state, ev map[string]any) {
	t.Helper()
	if _, ok := state["realm_user_groups"]; !ok {
		return
	}
	groups := list(state, "realm_user_groups")
	if ev["op"] == "add" {
		state["realm_user_groups"] = insertByID(groups, clone(ev["group"].(map[string]any)), "id")
		return
	}
	i := findByID(groups, "id", num(ev["group_id"]))
	if i < 0 {
		t.Fatalf("user_group event for unknown group: %v", ev)
	}
	g := groups[i].(map[string]any)
	switch ev["op"] {
	case "update":
		for k, v := range ev["data"].(map[string]any) {
			g[k] = v
		}
	case "add_members":
		g["members"] = sortedUnion(g["members"], ev["user_ids"])
	case "remove_members":
		g["members"] = without(g["members"], ev["user_ids"])
	case "add_subgroups":
		g["direct_subgroup_ids"] = sortedUnion(g["direct_subgroup_ids"], ev["direct_subgroup_ids"])
	case "remove_subgroups":
		g["direct_subgroup_ids"] = without(g["direct_subgroup_ids"], ev["direct_subgroup_ids"])
	case "remove":
		state["realm_user_groups"] = slices.Delete(groups, i, i+1)
	default:
		t.Fatalf("unknown user_group op in %v", ev)
	}
}

// applyRealmUserToGroups drops a deactivated user from every group, as clients do (the
// server sends no user_group events for deactivation).
func applyRealmUserToGroups(state, ev map[string]any) {
	person, _ := ev["person"].(map[string]any)
	if ev["op"] != "update" || person["is_active"] != false {
		return
	}
	gone := []any{person["user_id"]}
	for _, o := range list(state, "realm_user_groups") {
		g := o.(map[string]any)
		g["members"] = without(g["members"], gone)
		for k, v := range g {
			if s, ok := v.(map[string]any); ok && s["direct_members"] != nil {
				s["direct_members"] = without(s["direct_members"], gone)
				g[k] = s
			}
		}
	}
}

// sortedUnion merges two JSON number lists, sorted, without duplicates.
func sortedUnion(a, b any) []any {
	var out []float64
	for _, l := range []any{a, b} {
		items, _ := l.([]any)
		for _, x := range items {
			out = append(out, num(x))
		}
	}
	slices.Sort(out)
	out = slices.Compact(out)
	res := make([]any, len(out))
	for i, x := range out {
		res[i] = x
	}
	return res
}

// without removes the numbers of drop from l.
func without(l, drop any) []any {
	items, _ := l.([]any)
	d, _ := drop.([]any)
	out := []any{}
	for _, x := range items {
		if !slices.ContainsFunc(d, func(y any) bool { return num(y) == num(x) }) {
			out = append(out, x)
		}
	}
	return out
}

// applyUserSettings applies user_settings update to register's user_settings.
func applyUserSettings(t *testing.T, state, ev map[string]any) {
	t.Helper()
	if ev["op"] != "update" {
		t.Fatalf("unknown user_settings op in %v", ev)
	}
	if s, ok := state["user_settings"].(map[string]any); ok {
		s[ev["property"].(string)] = ev["value"]
	}
}
