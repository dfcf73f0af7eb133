package users_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/teamchat/chat/users"
)

// chain is 1 ⊃ 2 ⊃ 3 with members 10 (in 1), 20 (in 2), 30 and 31 (in 3; 31 deactivated).
func chain() *users.Membership {
	return users.NewMembership([]users.Group{
		{ID: 1, Members: []users.ID{10}, Subgroups: []users.GroupID{2}},
		{ID: 2, Members: []users.ID{20}, Subgroups: []users.GroupID{3}},
		{ID: 3, Members: []users.ID{30, 31}},
		{ID: 4},
	}, map[users.ID]bool{10: true, 20: true, 30: true, 31: false})
}

func TestMembership(t *testing.T) {
	t.Parallel()
	m := chain()
	tests := []struct {
		group  users.GroupID
		user   users.ID
		direct bool
		want   bool
	}{
		{1, 30, false, true},
		{1, 30, true, false},
		{3, 30, true, true},
		{3, 31, true, false}, // deactivated users are never members
		{2, 10, false, false},
		{99, 10, false, false},
	}
	for _, tt := range tests {
		if got := m.IsMember(tt.group, tt.user, tt.direct); got != tt.want {
			t.Errorf("IsMember(%d, %d, %v) = %v, want %v", tt.group, tt.user, tt.direct, got, tt.want)
		}
	}
	if diff := cmp.Diff([]users.ID{10, 20, 30}, m.Members(1, false)); diff != "" {
		t.Errorf("Members(1) (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]users.ID{10}, m.Members(1, true)); diff != "" {
		t.Errorf("Members(1, direct) (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]users.ID{30}, m.Members(3, true)); diff != "" {
		t.Errorf("Members(3, direct): the deactivated member stays out (-want +got):\n%s", diff)
	}
	if got := m.Members(99, true); got == nil || len(got) != 0 {
		t.Errorf("Members(99, direct) = %#v, want an empty list", got)
	}
	// Direct members come out sorted and once, whatever order the group holds them in.
	unsorted := users.NewMembershipFunc([]users.Group{{ID: 5, Members: []users.ID{30, 10, 20, 10}}},
		func(id users.ID) bool { return id != 20 })
	if diff := cmp.Diff([]users.ID{10, 30}, unsorted.Members(5, true)); diff != "" {
		t.Errorf("Members(5, direct) (-want +got):\n%s", diff)
	}
	// Groups out of id order, members out of order: looked up and tested all the same, and the
	// caller's list is left as it was.
	given := []users.Group{{ID: 9, Members: []users.ID{40, 10}, Subgroups: []users.GroupID{7}}, {ID: 7, Members: []users.ID{50, 20, 30}}}
	before := fmt.Sprint(given)
	shuffled := users.NewMembershipFunc(given, func(users.ID) bool { return true })
	for _, tt := range []struct {
		group  users.GroupID
		user   users.ID
		direct bool
		want   bool
	}{{9, 10, true, true}, {9, 40, true, true}, {9, 30, true, false}, {9, 30, false, true}, {7, 50, true, true}, {7, 40, false, false}, {8, 10, false, false}} {
		if got := shuffled.IsMember(tt.group, tt.user, tt.direct); got != tt.want {
			t.Errorf("IsMember(%d, %d, direct %v) over unsorted groups = %v, want %v", tt.group, tt.user, tt.direct, got, tt.want)
		}
	}
	trusted := users.NewSortedMembershipFunc([]users.Group{{ID: 7, Members: []users.ID{20, 30, 50}}, {ID: 9, Members: []users.ID{10, 40}, Subgroups: []users.GroupID{7}}},
		func(users.ID) bool { return true })
	if !trusted.IsMember(9, 30, false) || !trusted.IsMember(7, 50, true) || trusted.IsMember(7, 10, false) {
		t.Error("NewSortedMembershipFunc over sorted groups answers wrongly")
	}
	if after := fmt.Sprint(given); after != before {
		t.Errorf("NewMembershipFunc changed the caller's groups: %s, was %s", after, before)
	}
	if diff := cmp.Diff([]users.GroupID{2, 3}, m.Subgroups(1, false)); diff != "" {
		t.Errorf("Subgroups(1) (-want +got):\n%s", diff)
	}
	for _, tt := range []struct {
		group, sub users.GroupID
		want       bool
	}{{3, 1, true}, {2, 2, true}, {3, 2, true}, {1, 4, false}, {4, 1, false}} {
		if got := m.WouldCycle(tt.group, tt.sub); got != tt.want {
			t.Errorf("WouldCycle(%d, %d) = %v, want %v", tt.group, tt.sub, got, tt.want)
		}
	}
	if !m.Allows(users.GroupSetting{Subgroups: []users.GroupID{2}}, 30) || m.Allows(users.GroupSetting{Members: []users.ID{31}}, 31) {
		t.Error("Allows over an anonymous setting is wrong")
	}
}

func TestCheckGroupName(t *testing.T) {
	t.Parallel()
	long := ""
	for range 101 {
		long += "x"
	}
	for _, tt := range []struct{ in, want, err string }{
		{" team ", "team", ""},
		{"", "", "User group name can't be empty!"},
		{long, "", "User group name cannot exceed 100 characters."},
		{"@all", "", "User group name cannot start with '@'."},
		{"channel:x", "", "User group name cannot start with 'channel:'."},
	} {
		got, err := users.CheckGroupName(tt.in)
		if got != tt.want || (err == nil) != (tt.err == "") || err != nil && err.Error() != tt.err {
			t.Errorf("CheckGroupName(%q) = %q, %v; want %q, %q", tt.in, got, err, tt.want, tt.err)
		}
	}
}

func TestGroupSettingJSON(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		in   string
		want users.GroupSetting
		out  string
	}{
		{`7`, users.Named(7), `7`},
		{`{"direct_members":[3,1,3],"direct_subgroups":[]}`, users.GroupSetting{Members: []users.ID{1, 3}, Subgroups: []users.GroupID{}}, `{"direct_members":[1,3],"direct_subgroups":[]}`},
	} {
		var s users.GroupSetting
		if err := json.Unmarshal([]byte(tt.in), &s); err != nil {
			t.Fatalf("%s: %v", tt.in, err)
		}
		if diff := cmp.Diff(tt.want, s); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.in, diff)
		}
		out, _ := json.Marshal(s)
		if string(out) != tt.out {
			t.Errorf("marshal %s = %s, want %s", tt.in, out, tt.out)
		}
	}
	for _, bad := range []string{`0`, `-1`, `"7"`, `{"direct_members":[1]}`, `{"direct_members":[],"direct_subgroups":[],"x":1}`, `[1]`} {
		var s users.GroupSetting
		if err := json.Unmarshal([]byte(bad), &s); err == nil {
			t.Errorf("Unmarshal(%s) accepted", bad)
		}
	}
}

func TestGroupClone(t *testing.T) {
	t.Parallel()
	g := users.Group{Members: []users.ID{1}, CanManageGroup: users.GroupSetting{Members: []users.ID{2}}}
	c := g.Clone()
	c.Members[0], c.CanManageGroup.Members[0] = 9, 9
	if g.Members[0] != 1 || g.CanManageGroup.Members[0] != 2 {
		t.Error("Clone shares memory")
	}
}

func TestGroupSettingActiveOnly(t *testing.T) {
	t.Parallel()
	active := func(id users.ID) bool { return id != 3 }
	tests := []struct {
		name     string
		in, want users.GroupSetting
	}{
		{"named", users.Named(7), users.Named(7)},
		{"all active", users.GroupSetting{Members: []users.ID{1, 2}, Subgroups: []users.GroupID{9}}, users.GroupSetting{Members: []users.ID{1, 2}, Subgroups: []users.GroupID{9}}},
		{"one deactivated", users.GroupSetting{Members: []users.ID{1, 3, 4}, Subgroups: []users.GroupID{9}}, users.GroupSetting{Members: []users.ID{1, 4}, Subgroups: []users.GroupID{9}}},
		{"only deactivated", users.GroupSetting{Members: []users.ID{3}, Subgroups: []users.GroupID{}}, users.GroupSetting{Members: []users.ID{}, Subgroups: []users.GroupID{}}},
	}
	for _, tt := range tests {
		in := users.GroupSetting{Group: tt.in.Group, Members: slices.Clone(tt.in.Members), Subgroups: slices.Clone(tt.in.Subgroups)}
		if diff := cmp.Diff(tt.want, tt.in.ActiveOnly(active)); diff != "" {
			t.Errorf("%s: ActiveOnly(%v) (-want +got):\n%s", tt.name, tt.in, diff)
		}
		if !cmp.Equal(in, tt.in) {
			t.Errorf("%s: ActiveOnly changed its input", tt.name)
		}
	}
}

// TestSameGroupSetting: two settings are the same when they name the same group, or list the
// same members and subgroups in any order, with repeats, nil and empty alike.
func TestSameGroupSetting(t *testing.T) {
	t.Parallel()
	named := func(g users.GroupID) users.GroupSetting { return users.GroupSetting{Group: g} }
	anon := func(m []users.ID, g []users.GroupID) users.GroupSetting {
		return users.GroupSetting{Members: m, Subgroups: g}
	}
	for _, tc := range []struct {
		name string
		a, b users.GroupSetting
		want bool
	}{
		{"same named group", named(3), named(3), true},
		{"other named group", named(3), named(4), false},
		{"named and anonymous", named(3), anon([]users.ID{1}, nil), false},
		{"members in another order, with a repeat", anon([]users.ID{2, 1}, []users.GroupID{5}), anon([]users.ID{1, 2, 2}, []users.GroupID{5}), true},
		{"nil and empty", anon(nil, nil), anon([]users.ID{}, []users.GroupID{}), true},
		{"another member", anon([]users.ID{1}, nil), anon([]users.ID{2}, nil), false},
		{"another subgroup", anon(nil, []users.GroupID{5}), anon(nil, []users.GroupID{6}), false},
	} {
		if got := users.SameGroupSetting(tc.a, tc.b); got != tc.want {
			t.Errorf("%s: SameGroupSetting(%+v, %+v) = %v, want %v", tc.name, tc.a, tc.b, got, tc.want)
		}
		if got := users.SameGroupSetting(tc.b, tc.a); got != tc.want {
			t.Errorf("%s, swapped: SameGroupSetting = %v, want %v", tc.name, got, tc.want)
		}
	}
}
