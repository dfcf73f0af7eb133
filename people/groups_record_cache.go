package people

import (
	"slices"
	"sync"

	"github.com/teamchat/chat/internal/world"
	"github.com/teamchat/chat/users"
)

// Register's realm_user_groups section lists every group with its active direct members: the
// role groups of a large organization hold every user, and filtering them by activity is a
// lookup per member. A Service keeps the records it built last and reuses them while the
// world's groups and users are the same lists.
//
// Exactness. The kept records are a function of the groups list, the users list (who is
// active) and includeDeactivated. Both lists are the store's shared ones (GroupReader.ListShared,
// UserReader.ListShared), which nothing modifies: a store hands out a new list after a write,
// whichever process made it. The cache holds the lists it was built from, so their arrays
// are not reused, and it reuses its records only for the very same lists (same array, same
// length); any other list builds the records afresh. Each registration gets its own deep copy.

// groupRecordCache holds the realm_user_groups records of the last lists register rendered
// (by includeDeactivated).
type groupRecordCache struct {
	mu   sync.Mutex
	kept [2]*keptGroupRecords
}

type keptGroupRecords struct {
	groups []users.Group
	users  []users.User
	recs   []UserGroupRecord // never modified
}

// records returns the records of groups as seen with the users of all (both the world's shared
// lists), from the kept ones or built by build, as a copy the caller owns.
func (c *groupRecordCache) records(groups []users.Group, all []users.User, includeDeactivated bool, build func() []UserGroupRecord) []UserGroupRecord {
	variant := 0
	if includeDeactivated {
		variant = 1
	}
	c.mu.Lock()
	k := c.kept[variant]
	c.mu.Unlock()
	if k == nil || !sameArray(k.groups, groups) || !sameArray(k.users, all) {
		k = &keptGroupRecords{groups: groups, users: all, recs: build()}
		c.mu.Lock()
		c.kept[variant] = k
		c.mu.Unlock()
	}
	return cloneGroupRecords(k.recs)
}

// sameArray reports whether a and b are the same list: the same array and length (two
// non-empty lists), or both empty.
func sameArray[T any](a, b []T) bool {
	if len(a) != len(b) {
		return false
	}
	return len(a) == 0 || &a[0] == &b[0]
}

// cloneGroupRecords copies recs with every slice inside.
func cloneGroupRecords(recs []UserGroupRecord) []UserGroupRecord {
	out := slices.Clone(recs)
	for i := range out {
		r := &out[i]
		r.Members = slices.Clone(r.Members)
		r.DirectSubgroupIDs = slices.Clone(r.DirectSubgroupIDs)
		for _, s := range []*users.GroupSetting{&r.CanAddMembersGroup, &r.CanJoinGroup, &r.CanLeaveGroup,
			&r.CanManageGroup, &r.CanMentionGroup, &r.CanRemoveMembersGroup} {
			s.Members, s.Subgroups = slices.Clone(s.Members), slices.Clone(s.Subgroups)
		}
		if r.CreatorID != nil {
			id := *r.CreatorID
			r.CreatorID = &id
		}
		if r.DateCreated != nil {
			d := *r.DateCreated
			r.DateCreated = &d
		}
	}
	return out
}

// UserGroupsState is register's realm_user_groups: the groups' records (deactivated ones when
// include), from the cache while the world's users are read.
func (s *Service) UserGroupsState(w *world.World, include bool) *UserGroupsState {
	build := func() []UserGroupRecord {
		v := groupViewOf(w.AllGroups(), w.Membership(), func(id users.ID) bool { return w.User(id).IsActive })
		return v.userGroupRecords(include)
	}
	var recs []UserGroupRecord
	if all := w.AllUsers(); w.Failed() {
		recs = build()
	} else {
		recs = s.groupRecords.records(w.AllGroups(), all, include, build)
	}
	return &UserGroupsState{RealmUserGroups: recs}
}
