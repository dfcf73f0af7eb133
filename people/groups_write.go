package people

import (
	"context"
	"errors"
	"slices"
	"time"
	"unicode/utf8"

	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/realms"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// Events of user groups, sent to every active user.
type (
	// UserGroupAddEvent is user_group add.
	UserGroupAddEvent struct {
		Type  string          `json:"type"`
		Op    string          `json:"op"`
		Group UserGroupRecord `json:"group"`
	}
	// UserGroupUpdateEvent is user_group update: data holds the changed properties.
	UserGroupUpdateEvent struct {
		Type    string         `json:"type"`
		Op      string         `json:"op"`
		GroupID users.GroupID  `json:"group_id"`
		Data    map[string]any `json:"data"`
	}
	// UserGroupSubgroupsEvent is user_group add_subgroups or remove_subgroups.
	UserGroupSubgroupsEvent struct {
		Type              string          `json:"type"`
		Op                string          `json:"op"`
		GroupID           users.GroupID   `json:"group_id"`
		DirectSubgroupIDs []users.GroupID `json:"direct_subgroup_ids"`
	}
)

// GroupPermissionParams are the optional permission settings of a group, by setting.
type GroupPermissionParams struct {
	CanAddMembersGroup    *users.GroupSetting
	CanJoinGroup          *users.GroupSetting
	CanLeaveGroup         *users.GroupSetting
	CanManageGroup        *users.GroupSetting
	CanMentionGroup       *users.GroupSetting
	CanRemoveMembersGroup *users.GroupSetting
}

// byName maps setting names to the given values.
func (p GroupPermissionParams) byName() map[string]*users.GroupSetting {
	return map[string]*users.GroupSetting{
		"can_add_members_group": p.CanAddMembersGroup, "can_join_group": p.CanJoinGroup,
		"can_leave_group": p.CanLeaveGroup, "can_manage_group": p.CanManageGroup,
		"can_mention_group": p.CanMentionGroup, "can_remove_members_group": p.CanRemoveMembersGroup,
	}
}

// CreateUserGroupParams are the parameters of POST /user_groups/create.
type CreateUserGroupParams struct {
	Name        string
	Description string
	Members     []users.ID
	Subgroups   []users.GroupID
	GroupPermissionParams
}

// CreateUserGroupResult identifies the new group.
type CreateUserGroupResult struct {
	GroupID users.GroupID `json:"group_id"`
}

// CreateUserGroup creates a named group. The actor must be in the organization's
// can_create_groups. Settings not given take Zulip's defaults (the creator manages and adds
// members, everyone may leave and mention, nobody joins or removes). Everyone gets
// user_group add.
func (s *Service) CreateUserGroup(ctx context.Context, actor engine.Actor, p CreateUserGroupParams) (CreateUserGroupResult, error) {
	name, err := users.CheckGroupName(p.Name)
	if err != nil {
		return CreateUserGroupResult{}, engine.RuleError(err)
	}
	if utf8.RuneCountInString(p.Description) > users.MaxGroupDescriptionLength {
		return CreateUserGroupResult{}, engine.BadRequest("description is too long (limit: %d characters)", users.MaxGroupDescriptionLength)
	}
	if len(p.Members) > MaxUserIDsPerRequest || len(p.Subgroups) > MaxUserIDsPerRequest {
		return CreateUserGroupResult{}, engine.BadRequest("members is too long (limit: %d items)", MaxUserIDsPerRequest)
	}
	var res CreateUserGroupResult
	err = s.eng.Mutate(ctx, actor, groupNonGuests, func(o *engine.WriteOp) error {
		tx := o.Tx
		v, err := checkGroupCreation(o.ReadOp.Tx, o.Me, name)
		if err != nil {
			return err
		}
		g, err := newGroup(o.ReadOp.Tx, v, o.Me, o.Now, name, p)
		if err != nil {
			return err
		}
		id, err := tx.Groups().Create(g)
		if errors.Is(err, storage.ErrConflict) {
			return engine.BadRequest("User group '%s' already exists.", name)
		}
		if err != nil {
			return err
		}
		res.GroupID = id
		return announceNewGroup(o.ReadOp.Tx, o.Ev, id)
	})
	if err != nil {
		return CreateUserGroupResult{}, err
	}
	return res, nil
}

// checkGroupCreation refuses a creator outside the organization's can_create_groups and a
// name in use; it returns the membership view the new group's settings are checked with.
func checkGroupCreation(tx storage.ReadTx, me users.User, name string) (*groupView, error) {
	realm, err := tx.Realm().Get()
	if err != nil {
		return nil, err
	}
	v, err := newGroupView(tx.Users(), tx.Groups())
	if err != nil {
		return nil, err
	}
	if !v.m.Allows(realm.CanCreateGroups, me.ID) {
		return nil, engine.BadRequest(engine.MsgInsufficientPerm)
	}
	if _, err := tx.Groups().GetByName(name); err == nil {
		return nil, engine.BadRequest("User group '%s' already exists.", name)
	} else if !errors.Is(err, storage.ErrNotFound) {
		return nil, err
	}
	return v, nil
}

// newGroup is the group p describes, created by me: its members and subgroups checked, the
// permission settings given checked and set over Zulip's defaults.
func newGroup(tx storage.ReadTx, v *groupView, me users.User, now time.Time, name string, p CreateUserGroupParams) (users.Group, error) {
	if err := checkActiveUsers(v, p.Members); err != nil {
		return users.Group{}, err
	}
	everyone, err := tx.Groups().GetByName(users.GroupEveryone)
	if err != nil {
		return users.Group{}, err
	}
	creator := users.GroupSetting{Members: []users.ID{me.ID}}
	g := users.Group{
		Name: name, Description: p.Description, Members: p.Members, Subgroups: p.Subgroups,
		CreatorID: me.ID, DateCreated: now.Unix(),
		CanAddMembersGroup: creator, CanManageGroup: creator,
		CanLeaveGroup: users.Named(everyone.ID), CanMentionGroup: users.Named(everyone.ID),
	}
	if err := checkActiveGroups(tx.Groups(), p.Subgroups); err != nil {
		return users.Group{}, err
	}
	given := p.byName()
	for _, perm := range users.GroupPermissions() {
		val := given[perm.Name]
		if val == nil {
			continue
		}
		if err := checkGroupSetting(tx.Groups(), v, perm, *val); err != nil {
			return users.Group{}, err
		}
		*perm.Field(&g) = *val
	}
	return g, nil
}

// checkActiveGroups refuses unknown and deactivated groups ("Invalid user group ID").
func checkActiveGroups(gr storage.GroupReader, ids []users.GroupID) error {
	for _, id := range ids {
		if g, err := gr.Get(id); err != nil || g.Deactivated {
			if err != nil && !errors.Is(err, storage.ErrNotFound) {
				return err
			}
			return engine.BadRequest("Invalid user group ID: %d", id)
		}
	}
	return nil
}

// announceNewGroup sends user_group add for the new group id to every active user.
func announceNewGroup(tx storage.ReadTx, ev *engine.Events, id users.GroupID) error {
	stored, err := tx.Groups().Get(id)
	if err != nil {
		return err
	}
	v, err := newGroupView(tx.Users(), tx.Groups())
	if err != nil {
		return err
	}
	recipients, err := engine.ActiveUserIDs(tx.Users())
	if err != nil {
		return err
	}
	ev.Emit(UserGroupAddEvent{Type: "user_group", Op: "add", Group: v.record(stored)}, recipients)
	return nil
}

// checkActiveUsers refuses unknown and deactivated users ("Invalid user ID").
func checkActiveUsers(v *groupView, ids []users.ID) error {
	for _, id := range ids {
		if !v.isActive(id) {
			return engine.BadRequest("Invalid user ID: %d", id)
		}
	}
	return nil
}

// checkGroupSetting validates a permission value: its groups and users exist and are active,
// and role:internet (and, where forbidden, role:everyone) is not used.
func checkGroupSetting(gr storage.GroupReader, v *groupView, perm users.GroupPermission, val users.GroupSetting) error {
	if err := v.m.CheckSetting(val, v.isActive); err != nil {
		return engine.RuleError(err)
	}
	if val.IsNamed() {
		g, err := gr.Get(val.Group)
		if err != nil {
			return err
		}
		if g.Deactivated {
			return engine.BadRequest("Invalid user group ID: %d", g.ID)
		}
		if g.IsSystemGroup && (g.Name == users.GroupInternet || g.Name == users.GroupEveryone && !perm.AllowEveryone) {
			return engine.BadRequest("'%s' setting cannot be set to '%s' group.", perm.Name, g.Name)
		}
	}
	return nil
}

// groupForUpdate loads a group the actor wants to change: system groups cannot be changed.
func groupForUpdate(gr storage.GroupReader, id users.GroupID) (users.Group, error) {
	g, err := loadGroup(gr, id)
	if err != nil {
		return g, err
	}
	if g.IsSystemGroup {
		return users.Group{}, engine.BadRequest(engine.MsgInsufficientPerm)
	}
	return g, nil
}

// canManage reports whether u may manage g (its settings, subgroups and members).
func canManage(v *groupView, realm realms.Realm, g users.Group, u users.ID) bool {
	return v.m.Allows(realm.CanManageAllGroups, u) || v.m.Allows(g.CanManageGroup, u)
}

// UpdateUserGroupMembersParams are the parameters of POST /user_groups/{id}/members.
type UpdateUserGroupMembersParams struct {
	GroupID         users.GroupID
	Add             []users.ID
	Delete          []users.ID
	AddSubgroups    []users.GroupID
	DeleteSubgroups []users.GroupID
}

// UpdateUserGroupMembersResult is UpdateUserGroupMembers's answer: nothing beyond success.
type UpdateUserGroupMembersResult struct{}

// UpdateUserGroupMembers adds and removes direct members (and subgroups) of a named group.
// Joining needs can_join_group, leaving can_leave_group; changing others needs
// can_add_members_group or can_remove_members_group, or the right to manage the group.
func (s *Service) UpdateUserGroupMembers(ctx context.Context, actor engine.Actor, p UpdateUserGroupMembersParams) (UpdateUserGroupMembersResult, error) {
	if len(p.Add)+len(p.Delete)+len(p.AddSubgroups)+len(p.DeleteSubgroups) > MaxUserIDsPerRequest {
		return UpdateUserGroupMembersResult{}, engine.BadRequest("Too many changes (limit: %d)", MaxUserIDsPerRequest)
	}
	if len(p.Add)+len(p.Delete)+len(p.AddSubgroups)+len(p.DeleteSubgroups) == 0 {
		return UpdateUserGroupMembersResult{}, engine.BadRequest("Nothing to do. Specify at least one of \"add\", \"delete\", \"add_subgroups\" or \"delete_subgroups\".")
	}
	return UpdateUserGroupMembersResult{}, s.eng.Mutate(ctx, actor, engine.Members, func(o *engine.WriteOp) error {
		tx, ev, me := o.Tx, o.Ev, o.Me
		e, err := loadGroupEdit(o.ReadOp.Tx, me, p.GroupID)
		if err != nil {
			return err
		}
		if err := e.checkAddMembers(me, p.Add); err != nil {
			return err
		}
		if err := e.checkRemoveMembers(me, p.Delete); err != nil {
			return err
		}
		if err := s.changeSubgroups(tx, ev, e, me, p.AddSubgroups, p.DeleteSubgroups); err != nil {
			return err
		}
		recipients, err := engine.ActiveUserIDs(tx.Users())
		if err != nil {
			return err
		}
		g := e.g
		if len(p.Add) > 0 {
			if err := tx.Groups().AddMembers(g.ID, p.Add); err != nil {
				return err
			}
			ev.Emit(UserGroupMembersEvent{Type: "user_group", Op: "add_members", GroupID: g.ID, UserIDs: sortedIDs(p.Add)}, recipients)
		}
		if len(p.Delete) > 0 {
			if err := tx.Groups().RemoveMembers(g.ID, p.Delete); err != nil {
				return err
			}
			ev.Emit(UserGroupMembersEvent{Type: "user_group", Op: "remove_members", GroupID: g.ID, UserIDs: sortedIDs(p.Delete)}, recipients)
		}
		return nil
	})
}

// checkAddMembers refuses adding ids to the group unless each is an active user, not yet a
// member, whom me may add (by managing the group, by can_add_members_group, or, themselves,
// by can_join_group).
func (e groupEdit) checkAddMembers(me users.User, ids []users.ID) error {
	if len(ids) == 0 {
		return nil
	}
	g, v := e.g, e.v
	if g.Deactivated {
		return engine.BadRequest("You can't add members to a deactivated user group.")
	}
	if err := checkActiveUsers(v, ids); err != nil {
		return err
	}
	for _, u := range ids {
		if !e.mayAdd(me) && !(u == me.ID && v.m.Allows(g.CanJoinGroup, me.ID)) {
			return engine.BadRequest(engine.MsgInsufficientPerm)
		}
		if slices.Contains(g.Members, u) {
			return engine.BadRequest("User %d is already a member of this group", u)
		}
	}
	return nil
}

// checkRemoveMembers refuses removing ids from the group unless each is an active member whom
// me may remove (by managing the group, by can_remove_members_group, or, themselves, by
// can_leave_group).
func (e groupEdit) checkRemoveMembers(me users.User, ids []users.ID) error {
	g, v := e.g, e.v
	for _, u := range ids {
		if !e.mayRemove(me) && !(u == me.ID && v.m.Allows(g.CanLeaveGroup, me.ID)) {
			return engine.BadRequest(engine.MsgInsufficientPerm)
		}
		if !slices.Contains(g.Members, u) || !v.isActive(u) {
			return engine.BadRequest("There is no member '%d' in this user group", u)
		}
	}
	return nil
}

func sortedIDs[T ~int64](ids []T) []T {
	out := slices.Clone(ids)
	slices.Sort(out)
	return slices.Compact(out)
}

// changeSubgroups validates and applies subgroup changes of the edited group; cycles are
// refused.
func (s *Service) changeSubgroups(tx storage.Tx, ev *engine.Events, e groupEdit, me users.User, add, del []users.GroupID) error {
	if len(add) == 0 && len(del) == 0 {
		return nil
	}
	g, v := e.g, e.v
	if len(add) > 0 && !e.mayAdd(me) || len(del) > 0 && !e.mayRemove(me) {
		return engine.BadRequest(engine.MsgInsufficientPerm)
	}
	for _, id := range add {
		sub, err := tx.Groups().Get(id)
		if errors.Is(err, storage.ErrNotFound) || err == nil && sub.Deactivated {
			return engine.BadRequest("Invalid user group ID: %d", id)
		} else if err != nil {
			return err
		}
		if slices.Contains(g.Subgroups, id) {
			return engine.BadRequest("User group %d is already a subgroup of this group.", id)
		}
		if v.m.WouldCycle(g.ID, id) {
			return engine.BadRequest("User group %d is a supergroup of this group; adding it as a subgroup would create a cycle.", id)
		}
	}
	for _, id := range del {
		if !slices.Contains(g.Subgroups, id) {
			return engine.BadRequest("User group %d is not a subgroup of this group.", id)
		}
	}
	g.Subgroups = slices.DeleteFunc(append(g.Subgroups, add...), func(id users.GroupID) bool { return slices.Contains(del, id) })
	if err := tx.Groups().Update(g); err != nil {
		return err
	}
	recipients, err := engine.ActiveUserIDs(tx.Users())
	if err != nil {
		return err
	}
	if len(add) > 0 {
		ev.Emit(UserGroupSubgroupsEvent{Type: "user_group", Op: "add_subgroups", GroupID: g.ID, DirectSubgroupIDs: sortedIDs(add)}, recipients)
	}
	if len(del) > 0 {
		ev.Emit(UserGroupSubgroupsEvent{Type: "user_group", Op: "remove_subgroups", GroupID: g.ID, DirectSubgroupIDs: sortedIDs(del)}, recipients)
	}
	return nil
}

// UpdateUserGroupSubgroupsParams are the parameters of POST /user_groups/{id}/subgroups.
type UpdateUserGroupSubgroupsParams struct {
	GroupID users.GroupID
	Add     []users.GroupID
	Delete  []users.GroupID
}

// UpdateUserGroupSubgroupsResult is UpdateUserGroupSubgroups's answer: nothing beyond success.
type UpdateUserGroupSubgroupsResult struct{}

// UpdateUserGroupSubgroups adds and removes direct subgroups; a change that would make a
// group reach itself is refused.
func (s *Service) UpdateUserGroupSubgroups(ctx context.Context, actor engine.Actor, p UpdateUserGroupSubgroupsParams) (UpdateUserGroupSubgroupsResult, error) {
	if len(p.Add)+len(p.Delete) == 0 {
		return UpdateUserGroupSubgroupsResult{}, engine.BadRequest("Nothing to do. Specify at least one of \"add\" or \"delete\".")
	}
	if len(p.Add)+len(p.Delete) > MaxUserIDsPerRequest {
		return UpdateUserGroupSubgroupsResult{}, engine.BadRequest("Too many changes (limit: %d)", MaxUserIDsPerRequest)
	}
	return UpdateUserGroupSubgroupsResult{}, s.eng.Mutate(ctx, actor, engine.Members, func(o *engine.WriteOp) error {
		e, err := loadGroupEdit(o.ReadOp.Tx, o.Me, p.GroupID)
		if err != nil {
			return err
		}
		return s.changeSubgroups(o.Tx, o.Ev, e, o.Me, p.Add, p.Delete)
	})
}

// groupEdit is what a change of a group needs: the group, the membership view and whether the
// actor may manage the group.
type groupEdit struct {
	g      users.Group
	v      *groupView
	manage bool
}

// mayAdd and mayRemove report whether me may add or remove members and subgroups of others.
func (e groupEdit) mayAdd(me users.User) bool {
	return e.manage || e.v.m.Allows(e.g.CanAddMembersGroup, me.ID)
}

func (e groupEdit) mayRemove(me users.User) bool {
	return e.manage || e.v.m.Allows(e.g.CanRemoveMembersGroup, me.ID)
}

// loadGroupEdit loads the group id that me wants to change (system groups cannot be changed),
// the membership view and whether me may manage the group.
func loadGroupEdit(tx storage.ReadTx, me users.User, id users.GroupID) (groupEdit, error) {
	g, err := groupForUpdate(tx.Groups(), id)
	if err != nil {
		return groupEdit{}, err
	}
	realm, err := tx.Realm().Get()
	if err != nil {
		return groupEdit{}, err
	}
	v, err := newGroupView(tx.Users(), tx.Groups())
	if err != nil {
		return groupEdit{}, err
	}
	return groupEdit{g: g, v: v, manage: canManage(v, realm, g, me.ID)}, nil
}
