package people

import (
	"context"
	"slices"

	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

func errInvalidGroup() *engine.Error { return engine.BadRequest("Invalid user group") }

// loadGroup reads a group named by an operation ("Invalid user group" when unknown).
func loadGroup(r storage.GroupReader, id users.GroupID) (users.Group, error) {
	g, err := r.Get(id)
	return g, engine.NotFound(err, errInvalidGroup)
}

// groupNonGuests is the gate of listing and creating groups: signed in, not a guest. Bots
// pass it since feature level 496 (Zulip's require_non_guest_user on GET /user_groups and
// POST /user_groups/create); the other group operations keep engine.Members.
func groupNonGuests(tx storage.ReadTx, actor engine.Actor) (users.User, error) {
	u, err := engine.SignedIn(tx, actor)
	if err == nil && u.Role == users.RoleGuest {
		return users.User{}, engine.BadRequest(engine.MsgNotForGuests)
	}
	return u, err
}

// membership indexes every group and the active state of every user.
func membership(tx storage.ReadTx) (*users.Membership, error) {
	return membershipOf(tx.Users(), tx.Groups())
}

func membershipOf(ur storage.UserReader, gr storage.GroupReader) (*users.Membership, error) {
	all, err := ur.List()
	if err != nil {
		return nil, err
	}
	groups, err := gr.List()
	if err != nil {
		return nil, err
	}
	active := make(map[users.ID]bool, len(all))
	for _, u := range all {
		active[u.ID] = u.IsActive
	}
	return users.NewMembership(groups, active), nil
}

// GetIsUserGroupMemberParams are the parameters of GET /user_groups/{id}/members/{user_id}.
type GetIsUserGroupMemberParams struct {
	GroupID users.GroupID
	UserID  users.ID
	// DirectMemberOnly ignores membership through subgroups.
	DirectMemberOnly bool
}

// GetIsUserGroupMemberResult answers the membership test.
type GetIsUserGroupMemberResult struct {
	IsUserGroupMember bool `json:"is_user_group_member"`
}

// GetIsUserGroupMember tests whether a user is in a group, directly or through subgroups.
// Deactivated users are never members. Guests and bots may not ask.
func (s *Service) GetIsUserGroupMember(ctx context.Context, actor engine.Actor, p GetIsUserGroupMemberParams) (GetIsUserGroupMemberResult, error) {
	var res GetIsUserGroupMemberResult
	err := s.eng.Read(ctx, actor, engine.Members, func(o *engine.ReadOp) error {
		tx := o.Tx
		if _, err := loadGroup(tx.Groups(), p.GroupID); err != nil {
			return err
		}
		if _, err := engine.TargetUser(tx.Users(), p.UserID); err != nil {
			return err
		}
		m, err := membership(tx)
		if err != nil {
			return err
		}
		res.IsUserGroupMember = m.IsMember(p.GroupID, p.UserID, p.DirectMemberOnly)
		return nil
	})
	return res, err
}

// UserGroupRecord is a user group as the API shows it (GET /user_groups, register's
// realm_user_groups, user_group add events).
type UserGroupRecord struct {
	ID                    users.GroupID      `json:"id"`
	Name                  string             `json:"name"`
	Description           string             `json:"description"`
	Members               []users.ID         `json:"members"`
	DirectSubgroupIDs     []users.GroupID    `json:"direct_subgroup_ids"`
	IsSystemGroup         bool               `json:"is_system_group"`
	CreatorID             *users.ID          `json:"creator_id"`
	DateCreated           *int64             `json:"date_created"`
	Deactivated           bool               `json:"deactivated"`
	CanAddMembersGroup    users.GroupSetting `json:"can_add_members_group"`
	CanJoinGroup          users.GroupSetting `json:"can_join_group"`
	CanLeaveGroup         users.GroupSetting `json:"can_leave_group"`
	CanManageGroup        users.GroupSetting `json:"can_manage_group"`
	CanMentionGroup       users.GroupSetting `json:"can_mention_group"`
	CanRemoveMembersGroup users.GroupSetting `json:"can_remove_members_group"`
}

// groupView renders groups; it knows the groups, the active users and the id of role:nobody.
type groupView struct {
	m        *users.Membership
	groups   []users.Group // ascending by id
	nobody   users.GroupID
	isActive func(users.ID) bool
}

func newGroupView(ur storage.UserReader, gr storage.GroupReader) (*groupView, error) {
	all, err := ur.List()
	if err != nil {
		return nil, err
	}
	groups, err := gr.List()
	if err != nil {
		return nil, err
	}
	active := make(map[users.ID]bool, len(all))
	for _, u := range all {
		active[u.ID] = u.IsActive
	}
	isActive := func(id users.ID) bool { return active[id] }
	return groupViewOf(groups, users.NewMembershipFunc(groups, isActive), isActive), nil
}

// groupViewOf is the group view over groups already read (register reads them with the world).
func groupViewOf(groups []users.Group, m *users.Membership, isActive func(users.ID) bool) *groupView {
	v := &groupView{m: m, groups: groups, isActive: isActive}
	for _, g := range groups {
		if g.Name == users.GroupNobody && g.IsSystemGroup {
			v.nobody = g.ID
		}
	}
	return v
}

// setting renders a permission value: nobody as the role:nobody group, deactivated users
// left out of direct_members.
func (v *groupView) setting(s users.GroupSetting) users.GroupSetting {
	if s.IsNobody() && v.nobody != 0 {
		return users.Named(v.nobody)
	}
	if s.IsNamed() {
		return s
	}
	out := users.GroupSetting{Members: []users.ID{}, Subgroups: slices.Clone(s.Subgroups)}
	for _, u := range s.Members {
		if v.isActive(u) {
			out.Members = append(out.Members, u)
		}
	}
	return out
}

func (v *groupView) record(g users.Group) UserGroupRecord {
	rec := UserGroupRecord{
		ID:                    g.ID,
		Name:                  g.Name,
		Description:           g.Description,
		Members:               v.m.Members(g.ID, true),
		DirectSubgroupIDs:     slices.Clone(g.Subgroups),
		IsSystemGroup:         g.IsSystemGroup,
		Deactivated:           g.Deactivated,
		CanAddMembersGroup:    v.setting(g.CanAddMembersGroup),
		CanJoinGroup:          v.setting(g.CanJoinGroup),
		CanLeaveGroup:         v.setting(g.CanLeaveGroup),
		CanManageGroup:        v.setting(g.CanManageGroup),
		CanMentionGroup:       v.setting(g.CanMentionGroup),
		CanRemoveMembersGroup: v.setting(g.CanRemoveMembersGroup),
	}
	if rec.DirectSubgroupIDs == nil {
		rec.DirectSubgroupIDs = []users.GroupID{}
	}
	if !g.IsSystemGroup {
		if g.CreatorID != 0 {
			id := g.CreatorID
			rec.CreatorID = &id
		}
		date := g.DateCreated
		rec.DateCreated = &date
	}
	return rec
}

// userGroupRecords lists the groups (deactivated ones only when asked), ascending by id.
func (v *groupView) userGroupRecords(includeDeactivated bool) []UserGroupRecord {
	out := make([]UserGroupRecord, 0, len(v.groups))
	for _, g := range v.groups {
		if g.Deactivated && !includeDeactivated {
			continue
		}
		out = append(out, v.record(g))
	}
	return out
}

// UserGroupsState is register's "realm_user_groups" section.
type UserGroupsState struct {
	RealmUserGroups []UserGroupRecord `json:"realm_user_groups"`
}

// GetUserGroupsParams are the parameters of GET /user_groups.
type GetUserGroupsParams struct {
	IncludeDeactivatedGroups bool
}

// GetUserGroupsResult lists the groups.
type GetUserGroupsResult struct {
	UserGroups []UserGroupRecord `json:"user_groups"`
}

// GetUserGroups lists the organization's user groups, system groups included.
func (s *Service) GetUserGroups(ctx context.Context, actor engine.Actor, p GetUserGroupsParams) (GetUserGroupsResult, error) {
	var res GetUserGroupsResult
	err := s.eng.Read(ctx, actor, groupNonGuests, func(o *engine.ReadOp) error {
		tx := o.Tx
		v, err := newGroupView(tx.Users(), tx.Groups())
		if err != nil {
			return err
		}
		res.UserGroups = v.userGroupRecords(p.IncludeDeactivatedGroups)
		return nil
	})
	return res, err
}

// GetUserGroupMembersParams are the parameters of GET /user_groups/{id}/members.
type GetUserGroupMembersParams struct {
	GroupID          users.GroupID
	DirectMemberOnly bool
}

// GetUserGroupMembersResult lists active member ids, ascending.
type GetUserGroupMembersResult struct {
	Members []users.ID `json:"members"`
}

// GetUserGroupMembers lists a group's active members, through subgroups unless
// DirectMemberOnly.
func (s *Service) GetUserGroupMembers(ctx context.Context, actor engine.Actor, p GetUserGroupMembersParams) (GetUserGroupMembersResult, error) {
	var res GetUserGroupMembersResult
	err := s.readGroupMembership(ctx, actor, p.GroupID, func(m *users.Membership) {
		res.Members = m.Members(p.GroupID, p.DirectMemberOnly)
	})
	return res, err
}

// GetUserGroupSubgroupsParams are the parameters of GET /user_groups/{id}/subgroups.
type GetUserGroupSubgroupsParams struct {
	GroupID            users.GroupID
	DirectSubgroupOnly bool
}

// GetUserGroupSubgroupsResult lists subgroup ids, ascending.
type GetUserGroupSubgroupsResult struct {
	Subgroups []users.GroupID `json:"subgroups"`
}

// GetUserGroupSubgroups lists a group's subgroups, transitively unless DirectSubgroupOnly.
func (s *Service) GetUserGroupSubgroups(ctx context.Context, actor engine.Actor, p GetUserGroupSubgroupsParams) (GetUserGroupSubgroupsResult, error) {
	res := GetUserGroupSubgroupsResult{Subgroups: []users.GroupID{}}
	err := s.readGroupMembership(ctx, actor, p.GroupID, func(m *users.Membership) {
		if l := m.Subgroups(p.GroupID, p.DirectSubgroupOnly); l != nil {
			res.Subgroups = l
		}
	})
	return res, err
}

// readGroupMembership is a read of group id's membership for a member (GET
// /user_groups/{id}/...): the group must exist; answer reads the membership resolution.
func (s *Service) readGroupMembership(ctx context.Context, actor engine.Actor, id users.GroupID, answer func(*users.Membership)) error {
	return s.eng.Read(ctx, actor, engine.Members, func(o *engine.ReadOp) error {
		if _, err := loadGroup(o.Tx.Groups(), id); err != nil {
			return err
		}
		m, err := membership(o.Tx)
		if err != nil {
			return err
		}
		answer(m)
		return nil
	})
}
