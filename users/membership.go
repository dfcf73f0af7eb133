package users

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
)

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
	return newMembership(groups, isActive, true)
}

// NewSortedMembershipFunc is NewMembershipFunc over groups whose direct members the caller
// knows to be ascending (as a store reads them, storage.GroupReader), which are then not
// checked: the check reads every member of a group.
func NewSortedMembershipFunc(groups []Group, isActive func(ID) bool) *Membership {
	return newMembership(groups, isActive, false)
}

// newMembership indexes groups by id (a sorted copy when they are not ascending); check says
// whether each group's members are to be checked sorted when it is first looked up.
func newMembership(groups []Group, isActive func(ID) bool, check bool) *Membership {
	m := &Membership{groups: groups, isActive: isActive}
	if check {
		m.checked = make([]bool, len(groups))
	}
	for k := 1; k < len(groups); k++ {
		if groups[k-1].ID >= groups[k].ID {
			m.groups, m.owned = slices.SortedStableFunc(slices.Values(groups), byGroupID), true
			break
		}
	}
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
