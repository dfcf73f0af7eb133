package users

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// GroupID identifies a user group (system or named).
type GroupID int64

// The names of the system groups, created with every organization.
const (
	GroupNobody         = "role:nobody"
	GroupOwners         = "role:owners"
	GroupAdministrators = "role:administrators"
	GroupModerators     = "role:moderators"
	GroupFullMembers    = "role:fullmembers"
	GroupMembers        = "role:members"
	GroupEveryone       = "role:everyone"
	GroupInternet       = "role:internet"
)

// SystemGroup describes one system group: its name, display text and the roles it holds.
type SystemGroup struct {
	Name        string
	Description string
	// Subgroup is the name of the next stricter system group it contains ("" for none).
	Subgroup string
	// Role is the role whose users are the group's direct members (0: none).
	Role Role
}

// SystemGroups lists the system groups in creation order. Each role group directly holds the
// users of exactly its role and contains the next stricter group as a subgroup, so membership
// follows the role hierarchy. role:fullmembers directly holds the members past the
// organization's waiting period (every member when the period is zero days); the chat package
// maintains that.
func SystemGroups() []SystemGroup {
	return []SystemGroup{
		{Name: GroupNobody, Description: "Nobody"},
		{Name: GroupOwners, Description: "Owners of this organization", Role: RoleOwner},
		{Name: GroupAdministrators, Description: "Administrators of this organization, including owners", Subgroup: GroupOwners, Role: RoleAdministrator},
		{Name: GroupModerators, Description: "Moderators of this organization, including administrators", Subgroup: GroupAdministrators, Role: RoleModerator},
		{Name: GroupFullMembers, Description: "Members of this organization, not including new accounts and guests", Subgroup: GroupModerators},
		{Name: GroupMembers, Description: "Members of this organization, not including guests", Subgroup: GroupFullMembers, Role: RoleMember},
		{Name: GroupEveryone, Description: "Everyone in this organization, including guests", Subgroup: GroupMembers, Role: RoleGuest},
		{Name: GroupInternet, Description: "Everyone on the internet", Subgroup: GroupEveryone},
	}
}

// SystemGroupForRole is the name of the system group whose direct members have role r.
func SystemGroupForRole(r Role) string {
	for _, g := range SystemGroups() {
		if g.Role == r {
			return g.Name
		}
	}
	return ""
}

// Group is a user group: a system group or a named group created by users.
type Group struct {
	ID            GroupID
	Name          string
	Description   string
	IsSystemGroup bool
	Members       []ID      // direct members, ascending
	Subgroups     []GroupID // direct subgroups, ascending
	CreatorID     ID        // 0 when none
	DateCreated   int64     // UNIX seconds; 0 when unknown
	Deactivated   bool

	// Permission settings of the group. The zero value (an empty anonymous group) means
	// nobody; system groups keep it.
	CanAddMembersGroup    GroupSetting
	CanJoinGroup          GroupSetting
	CanLeaveGroup         GroupSetting
	CanManageGroup        GroupSetting
	CanMentionGroup       GroupSetting
	CanRemoveMembersGroup GroupSetting
}

// GroupPermission describes one permission setting of user groups.
type GroupPermission struct {
	Name string
	// AllowEveryone says whether the setting may be role:everyone.
	AllowEveryone bool
	// Field selects the setting in a group.
	Field func(*Group) *GroupSetting
}

// GroupPermissions lists the permission settings of user groups, in the order of the API.
func GroupPermissions() []GroupPermission {
	return []GroupPermission{
		{"can_add_members_group", false, func(g *Group) *GroupSetting { return &g.CanAddMembersGroup }},
		{"can_join_group", false, func(g *Group) *GroupSetting { return &g.CanJoinGroup }},
		{"can_leave_group", true, func(g *Group) *GroupSetting { return &g.CanLeaveGroup }},
		{"can_manage_group", false, func(g *Group) *GroupSetting { return &g.CanManageGroup }},
		{"can_mention_group", true, func(g *Group) *GroupSetting { return &g.CanMentionGroup }},
		{"can_remove_members_group", false, func(g *Group) *GroupSetting { return &g.CanRemoveMembersGroup }},
	}
}

// Clone returns a copy of g sharing no memory with it.
func (g Group) Clone() Group {
	g.Members = slices.Clone(g.Members)
	g.Subgroups = slices.Clone(g.Subgroups)
	for _, p := range GroupPermissions() {
		s := p.Field(&g)
		s.Members = slices.Clone(s.Members)
		s.Subgroups = slices.Clone(s.Subgroups)
	}
	return g
}

// MaxGroupNameLength bounds group names.
const MaxGroupNameLength = 100

// MaxGroupDescriptionLength bounds group descriptions.
const MaxGroupDescriptionLength = 1024

// reservedGroupPrefixes may not start the name of a user-created group.
var reservedGroupPrefixes = []string{"@", "role:", "user:", "stream:", "channel:"}

// CheckGroupName validates the name of a user-created group and returns it trimmed.
func CheckGroupName(name string) (string, error) {
	name = strings.TrimSpace(name)
	switch {
	case name == "":
		return "", errors.New("User group name can't be empty!")
	case utf8.RuneCountInString(name) > MaxGroupNameLength:
		return "", fmt.Errorf("User group name cannot exceed %d characters.", MaxGroupNameLength)
	}
	for _, p := range reservedGroupPrefixes {
		if strings.HasPrefix(name, p) {
			return "", fmt.Errorf("User group name cannot start with '%s'.", p)
		}
	}
	return name, nil
}

// IsNobody reports whether the setting is an empty anonymous group (nobody).
func (s GroupSetting) IsNobody() bool {
	return !s.IsNamed() && len(s.Members) == 0 && len(s.Subgroups) == 0
}

// GroupSetting is the value of a can_*_group permission: either a named group (Group != 0) or an
// anonymous group of direct members and subgroups.
type GroupSetting struct {
	Group     GroupID
	Members   []ID
	Subgroups []GroupID
}

// Named returns the setting that points at one group.
func Named(id GroupID) GroupSetting { return GroupSetting{Group: id} }

// IsNamed reports whether the setting is a single group id.
func (s GroupSetting) IsNamed() bool { return s.Group != 0 }

// ActiveOnly returns s without the direct members for which active is false: since feature
// level 303 Zulip lists no deactivated user in direct_members. A named setting, or one whose
// members are all active, comes back unchanged; otherwise the members are a new slice.
func (s GroupSetting) ActiveOnly(active func(ID) bool) GroupSetting {
	for i, id := range s.Members {
		if active(id) {
			continue
		}
		out := GroupSetting{Members: slices.Clone(s.Members[:i]), Subgroups: s.Subgroups}
		for _, id := range s.Members[i+1:] {
			if active(id) {
				out.Members = append(out.Members, id)
			}
		}
		return out
	}
	return s
}

// MarshalJSON writes an integer for a named group, else
// {"direct_members":[...],"direct_subgroups":[...]}.
func (s GroupSetting) MarshalJSON() ([]byte, error) {
	return s.AppendJSON(make([]byte, 0, 48+8*(len(s.Members)+len(s.Subgroups)))), nil
}

// AppendJSON appends what MarshalJSON writes. (Written by hand: every channel record carries
// eleven of these, and reflection was a visible share of encoding GET
// /users/me/subscriptions.)
func (s GroupSetting) AppendJSON(b []byte) []byte {
	if s.IsNamed() {
		return strconv.AppendInt(b, int64(s.Group), 10)
	}
	b = append(b, `{"direct_members":[`...)
	for i, m := range s.Members {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(m), 10)
	}
	b = append(b, `],"direct_subgroups":[`...)
	for i, g := range s.Subgroups {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(g), 10)
	}
	return append(b, "]}"...)
}

// ErrGroupSettingFormat is returned for a value that is neither an integer nor the object form.
var ErrGroupSettingFormat = errors.New("group setting must be a group id or an object with direct_members and direct_subgroups")

// UnmarshalJSON reads either form. Unknown keys in the object form are refused. The lists are
// sorted and deduplicated.
func (s *GroupSetting) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	if len(data) > 0 && data[0] != '{' {
		var id int64
		if err := json.Unmarshal(data, &id); err != nil || id <= 0 {
			return ErrGroupSettingFormat
		}
		*s = GroupSetting{Group: GroupID(id)}
		return nil
	}
	var obj struct {
		DirectMembers   *[]ID      `json:"direct_members"`
		DirectSubgroups *[]GroupID `json:"direct_subgroups"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&obj); err != nil || obj.DirectMembers == nil || obj.DirectSubgroups == nil {
		return ErrGroupSettingFormat
	}
	m := slices.Clone(*obj.DirectMembers)
	g := slices.Clone(*obj.DirectSubgroups)
	slices.Sort(m)
	slices.Sort(g)
	*s = GroupSetting{Members: slices.Compact(m), Subgroups: slices.Compact(g)}
	return nil
}

// Membership resolves transitive group membership over a fixed set of groups and users. Build
// one per transaction with NewMembership; it is not safe for concurrent mutation. A membership
// test is a binary search of a group's direct members (a send asks it for each recipient of a
// large role group), which are checked to be sorted, and sorted if not, the first time the group
// is looked up: a Membership is built for every transaction, and the system groups of a big
// organization each hold every user.
type Membership struct {
	groups   []Group // ascending by id; shared with the caller until a group needs sorting
	owned    bool    // groups is a copy of the caller's list
	checked  []bool  // whether groups[i].Members is known to be sorted (nil: all are)
	isActive func(ID) bool
}

// NewMembership indexes groups and the active state of users (deactivated users are never
// members).
func NewMembership(groups []Group, activeUsers map[ID]bool) *Membership {
	return NewMembershipFunc(groups, func(id ID) bool { return activeUsers[id] })
}

// NewMembershipFunc is NewMembership with the active state of users read through isActive
// (false for unknown users), for callers that read users as they need them. groups is read,
// never modified.
func NewMembershipFunc(groups []Group, isActive func(ID) bool) *Membership {
	m := &Membership{groups: groups, checked: make([]bool, len(groups)), isActive: isActive}
	for k := 1; k < len(groups); k++ {
		if groups[k-1].ID >= groups[k].ID {
			m.groups, m.owned = slices.SortedStableFunc(slices.Values(groups), byGroupID), true
			break
		}
	}
	return m
}

// NewSortedMembershipFunc is NewMembershipFunc over groups whose direct members the caller
// knows to be ascending (as a store reads them, storage.GroupReader), which are then not
// checked: the check reads every member of a group.
func NewSortedMembershipFunc(groups []Group, isActive func(ID) bool) *Membership {
	m := NewMembershipFunc(groups, isActive)
	m.checked = nil
	return m
}

func byGroupID(a, b Group) int { return cmp.Compare(a.ID, b.ID) }

// group looks up a group by id, its direct members sorted.
func (m *Membership) group(id GroupID) (Group, bool) {
	// sort.Search over indexes: a Group is too large to pass by value per step.
	l := m.groups
	i := sort.Search(len(l), func(k int) bool { return l[k].ID >= id })
	if i == len(l) || l[i].ID != id {
		return Group{}, false
	}
	if m.checked != nil && !m.checked[i] {
		if !slices.IsSorted(m.groups[i].Members) {
			if !m.owned {
				m.groups, m.owned = slices.Clone(m.groups), true
			}
			m.groups[i].Members = slices.Sorted(slices.Values(m.groups[i].Members))
		}
		m.checked[i] = true
	}
	return m.groups[i], true
}

// groupOrZero is group without the second result: the zero Group when there is none.
func (m *Membership) groupOrZero(id GroupID) Group {
	g, _ := m.group(id)
	return g
}

// IsMember reports whether user is in group, directly or (unless directOnly) through subgroups.
func (m *Membership) IsMember(group GroupID, user ID, directOnly bool) bool {
	if !m.isActive(user) {
		return false
	}
	g, ok := m.group(group)
	if !ok {
		return false
	}
	if hasMember(g.Members, user) {
		return true
	}
	if directOnly || len(g.Subgroups) == 0 {
		return false // no map for the groups seen on the way
	}
	seen := map[GroupID]bool{}
	return m.reach(group, user, seen)
}

func (m *Membership) reach(group GroupID, user ID, seen map[GroupID]bool) bool {
	if seen[group] {
		return false
	}
	seen[group] = true
	g, ok := m.group(group)
	if !ok {
		return false
	}
	if hasMember(g.Members, user) {
		return true
	}
	for _, sub := range g.Subgroups {
		if m.reach(sub, user, seen) {
			return true
		}
	}
	return false
}

// hasMember reports whether the sorted members hold user.
func hasMember(members []ID, user ID) bool {
	_, found := slices.BinarySearch(members, user)
	return found
}

// Allows reports whether user is covered by the setting value.
func (m *Membership) Allows(s GroupSetting, user ID) bool {
	if s.IsNamed() {
		return m.IsMember(s.Group, user, false)
	}
	if m.isActive(user) && slices.Contains(s.Members, user) {
		return true
	}
	for _, sub := range s.Subgroups {
		if m.IsMember(sub, user, false) {
			return true
		}
	}
	return false
}

// CheckSetting verifies that every group and user a setting names exists.
func (m *Membership) CheckSetting(s GroupSetting, userExists func(ID) bool) error {
	if s.IsNamed() {
		if _, ok := m.group(s.Group); !ok {
			return fmt.Errorf("Invalid user group ID: %d", s.Group)
		}
		return nil
	}
	for _, g := range s.Subgroups {
		if _, ok := m.group(g); !ok {
			return fmt.Errorf("Invalid user group ID: %d", g)
		}
	}
	for _, u := range s.Members {
		if !userExists(u) {
			return fmt.Errorf("Invalid user ID: %d", u)
		}
	}
	return nil
}

// Members lists the active members of group, ascending: the direct ones, or (unless
// directOnly) those of every group reachable through subgroups too.
func (m *Membership) Members(group GroupID, directOnly bool) []ID {
	if directOnly {
		// The direct members filtered in place of a set: system groups hold every user.
		g := m.groupOrZero(group)
		out := make([]ID, 0, len(g.Members))
		for _, u := range g.Members {
			if m.isActive(u) {
				out = append(out, u)
			}
		}
		if !slices.IsSorted(out) {
			slices.Sort(out)
		}
		return slices.Compact(out)
	}
	set := map[ID]bool{}
	var visit func(GroupID)
	seen := map[GroupID]bool{}
	visit = func(id GroupID) {
		if seen[id] {
			return
		}
		seen[id] = true
		g, ok := m.group(id)
		if !ok {
			return
		}
		for _, u := range g.Members {
			if m.isActive(u) {
				set[u] = true
			}
		}
		if !directOnly {
			for _, sub := range g.Subgroups {
				visit(sub)
			}
		}
	}
	visit(group)
	out := make([]ID, 0, len(set))
	for u := range set {
		out = append(out, u)
	}
	slices.Sort(out)
	return out
}

// Subgroups lists the subgroups of group, ascending: the direct ones, or (unless directOnly)
// every group reachable from it.
func (m *Membership) Subgroups(group GroupID, directOnly bool) []GroupID {
	g, ok := m.group(group)
	if !ok {
		return []GroupID{}
	}
	if directOnly {
		return slices.Clone(g.Subgroups)
	}
	seen := map[GroupID]bool{}
	var visit func(GroupID)
	visit = func(id GroupID) {
		for _, sub := range m.groupOrZero(id).Subgroups {
			if !seen[sub] {
				seen[sub] = true
				visit(sub)
			}
		}
	}
	visit(group)
	delete(seen, group)
	out := make([]GroupID, 0, len(seen))
	for id := range seen {
		out = append(out, id)
	}
	slices.Sort(out)
	return out
}

// WouldCycle reports whether making sub a subgroup of group would create a cycle: sub is
// group itself or already reaches group through its own subgroups.
func (m *Membership) WouldCycle(group, sub GroupID) bool {
	return sub == group || slices.Contains(m.Subgroups(sub, false), group)
}

// SameGroupSetting reports whether two group-setting values are the same setting, ignoring
// the order of their members and subgroups, repeats, and nil versus empty.
func SameGroupSetting(a, b GroupSetting) bool {
	if a.IsNamed() || b.IsNamed() {
		return a.Group == b.Group
	}
	norm := func(s GroupSetting) ([]ID, []GroupID) {
		m, g := slices.Clone(s.Members), slices.Clone(s.Subgroups)
		slices.Sort(m)
		slices.Sort(g)
		return slices.Compact(m), slices.Compact(g)
	}
	am, ag := norm(a)
	bm, bg := norm(b)
	return slices.Equal(am, bm) && slices.Equal(ag, bg)
}
