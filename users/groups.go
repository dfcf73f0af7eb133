package users

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
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
