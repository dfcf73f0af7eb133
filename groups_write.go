package chat

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"unicode/utf8"

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
func (s *Service) CreateUserGroup(ctx context.Context, actor Actor, p CreateUserGroupParams) (CreateUserGroupResult, error) {
	name, err := users.CheckGroupName(p.Name)
	if err != nil {
		return CreateUserGroupResult{}, badRequest("%s", err.Error())
	}
	if utf8.RuneCountInString(p.Description) > users.MaxGroupDescriptionLength {
		return CreateUserGroupResult{}, badRequest("description is too long (limit: %d characters)", users.MaxGroupDescriptionLength)
	}
	if len(p.Members) > MaxUserIDsPerRequest || len(p.Subgroups) > MaxUserIDsPerRequest {
		return CreateUserGroupResult{}, badRequest("members is too long (limit: %d items)", MaxUserIDsPerRequest)
	}
	var res CreateUserGroupResult
	now := s.now()
	err = s.mutate(ctx, actor, members, func(o *writeOp) error {
		tx, ev, me := o.tx, o.ev, o.me
		realm, err := tx.Realm().Get()
		if err != nil {
			return err
		}
		v, err := newGroupView(tx.Users(), tx.Groups())
		if err != nil {
			return err
		}
		if !v.m.Allows(realm.CanCreateGroups, me.ID) {
			return badRequest(msgInsufficientPerm)
		}
		if _, err := tx.Groups().GetByName(name); err == nil {
			return badRequest("User group '%s' already exists.", name)
		} else if !errors.Is(err, storage.ErrNotFound) {
			return err
		}
		if err := checkActiveUsers(v, p.Members); err != nil {
			return err
		}
		everyone, err := tx.Groups().GetByName(users.GroupEveryone)
		if err != nil {
			return err
		}
		creator := users.GroupSetting{Members: []users.ID{me.ID}}
		g := users.Group{
			Name: name, Description: p.Description, Members: p.Members, Subgroups: p.Subgroups,
			CreatorID: me.ID, DateCreated: now.Unix(),
			CanAddMembersGroup: creator, CanManageGroup: creator,
			CanLeaveGroup: users.Named(everyone.ID), CanMentionGroup: users.Named(everyone.ID),
		}
		for _, sub := range p.Subgroups {
			if sg, err := tx.Groups().Get(sub); err != nil || sg.Deactivated {
				if err != nil && !errors.Is(err, storage.ErrNotFound) {
					return err
				}
				return badRequest("Invalid user group ID: %d", sub)
			}
		}
		given := p.byName()
		for _, perm := range users.GroupPermissions() {
			val := given[perm.Name]
			if val == nil {
				continue
			}
			if err := checkGroupSetting(tx.Groups(), v, perm, *val); err != nil {
				return err
			}
			*perm.Field(&g) = *val
		}
		id, err := tx.Groups().Create(g)
		if errors.Is(err, storage.ErrConflict) {
			return badRequest("User group '%s' already exists.", name)
		}
		if err != nil {
			return err
		}
		stored, err := tx.Groups().Get(id)
		if err != nil {
			return err
		}
		if v, err = newGroupView(tx.Users(), tx.Groups()); err != nil {
			return err
		}
		recipients, err := activeUserIDs(tx.Users())
		if err != nil {
			return err
		}
		ev.add("user_group", UserGroupAddEvent{Type: "user_group", Op: "add", Group: v.record(stored)}, recipients)
		res.GroupID = id
		return nil
	})
	if err != nil {
		return CreateUserGroupResult{}, err
	}
	return res, nil
}

// checkActiveUsers refuses unknown and deactivated users ("Invalid user ID").
func checkActiveUsers(v *groupView, ids []users.ID) error {
	for _, id := range ids {
		if !v.isActive(id) {
			return badRequest("Invalid user ID: %d", id)
		}
	}
	return nil
}

// checkGroupSetting validates a permission value: its groups and users exist and are active,
// and role:internet (and, where forbidden, role:everyone) is not used.
func checkGroupSetting(gr storage.GroupReader, v *groupView, perm users.GroupPermission, val users.GroupSetting) error {
	if err := v.m.CheckSetting(val, v.isActive); err != nil {
		return badRequest("%s", err.Error())
	}
	if val.IsNamed() {
		g, err := gr.Get(val.Group)
		if err != nil {
			return err
		}
		if g.Deactivated {
			return badRequest("Invalid user group ID: %d", g.ID)
		}
		if g.IsSystemGroup && (g.Name == users.GroupInternet || g.Name == users.GroupEveryone && !perm.AllowEveryone) {
			return badRequest("'%s' setting cannot be set to '%s' group.", perm.Name, g.Name)
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
		return users.Group{}, badRequest(msgInsufficientPerm)
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

// UpdateUserGroupMembers adds and removes direct members (and subgroups) of a named group.
// Joining needs can_join_group, leaving can_leave_group; changing others needs
// can_add_members_group or can_remove_members_group, or the right to manage the group.
func (s *Service) UpdateUserGroupMembers(ctx context.Context, actor Actor, p UpdateUserGroupMembersParams) error {
	if len(p.Add)+len(p.Delete)+len(p.AddSubgroups)+len(p.DeleteSubgroups) > MaxUserIDsPerRequest {
		return badRequest("Too many changes (limit: %d)", MaxUserIDsPerRequest)
	}
	if len(p.Add)+len(p.Delete)+len(p.AddSubgroups)+len(p.DeleteSubgroups) == 0 {
		return badRequest("Nothing to do. Specify at least one of \"add\", \"delete\", \"add_subgroups\" or \"delete_subgroups\".")
	}
	return s.update(ctx, func(tx storage.Tx, ev *events) error {
		me, g, v, manage, err := loadGroupEdit(tx, actor, p.GroupID)
		if err != nil {
			return err
		}
		if len(p.Add) > 0 {
			if g.Deactivated {
				return badRequest("You can't add members to a deactivated user group.")
			}
			if err := checkActiveUsers(v, p.Add); err != nil {
				return err
			}
			for _, u := range p.Add {
				allowed := manage || v.m.Allows(g.CanAddMembersGroup, me.ID) || u == me.ID && v.m.Allows(g.CanJoinGroup, me.ID)
				if !allowed {
					return badRequest(msgInsufficientPerm)
				}
				if slices.Contains(g.Members, u) {
					return badRequest("User %d is already a member of this group", u)
				}
			}
		}
		for _, u := range p.Delete {
			allowed := manage || v.m.Allows(g.CanRemoveMembersGroup, me.ID) || u == me.ID && v.m.Allows(g.CanLeaveGroup, me.ID)
			if !allowed {
				return badRequest(msgInsufficientPerm)
			}
			if !slices.Contains(g.Members, u) || !v.isActive(u) {
				return badRequest("There is no member '%d' in this user group", u)
			}
		}
		if err := s.changeSubgroups(tx, ev, v, g, manage || v.m.Allows(g.CanAddMembersGroup, me.ID),
			manage || v.m.Allows(g.CanRemoveMembersGroup, me.ID), p.AddSubgroups, p.DeleteSubgroups); err != nil {
			return err
		}
		recipients, err := activeUserIDs(tx.Users())
		if err != nil {
			return err
		}
		if len(p.Add) > 0 {
			if err := tx.Groups().AddMembers(g.ID, p.Add); err != nil {
				return err
			}
			ev.add("user_group", UserGroupMembersEvent{Type: "user_group", Op: "add_members", GroupID: g.ID, UserIDs: sortedIDs(p.Add)}, recipients)
		}
		if len(p.Delete) > 0 {
			if err := tx.Groups().RemoveMembers(g.ID, p.Delete); err != nil {
				return err
			}
			ev.add("user_group", UserGroupMembersEvent{Type: "user_group", Op: "remove_members", GroupID: g.ID, UserIDs: sortedIDs(p.Delete)}, recipients)
		}
		return nil
	})
}

func sortedIDs[T ~int64](ids []T) []T {
	out := slices.Clone(ids)
	slices.Sort(out)
	return slices.Compact(out)
}

// changeSubgroups validates and applies subgroup changes of g; cycles are refused.
func (s *Service) changeSubgroups(tx storage.Tx, ev *events, v *groupView, g users.Group, mayAdd, mayRemove bool, add, del []users.GroupID) error {
	if len(add) == 0 && len(del) == 0 {
		return nil
	}
	if len(add) > 0 && !mayAdd || len(del) > 0 && !mayRemove {
		return badRequest(msgInsufficientPerm)
	}
	for _, id := range add {
		sub, err := tx.Groups().Get(id)
		if errors.Is(err, storage.ErrNotFound) || err == nil && sub.Deactivated {
			return badRequest("Invalid user group ID: %d", id)
		} else if err != nil {
			return err
		}
		if slices.Contains(g.Subgroups, id) {
			return badRequest("User group %d is already a subgroup of this group.", id)
		}
		if v.m.WouldCycle(g.ID, id) {
			return badRequest("User group %d is a supergroup of this group; adding it as a subgroup would create a cycle.", id)
		}
	}
	for _, id := range del {
		if !slices.Contains(g.Subgroups, id) {
			return badRequest("User group %d is not a subgroup of this group.", id)
		}
	}
	g.Subgroups = slices.DeleteFunc(append(g.Subgroups, add...), func(id users.GroupID) bool { return slices.Contains(del, id) })
	if err := tx.Groups().Update(g); err != nil {
		return err
	}
	recipients, err := activeUserIDs(tx.Users())
	if err != nil {
		return err
	}
	if len(add) > 0 {
		ev.add("user_group", UserGroupSubgroupsEvent{Type: "user_group", Op: "add_subgroups", GroupID: g.ID, DirectSubgroupIDs: sortedIDs(add)}, recipients)
	}
	if len(del) > 0 {
		ev.add("user_group", UserGroupSubgroupsEvent{Type: "user_group", Op: "remove_subgroups", GroupID: g.ID, DirectSubgroupIDs: sortedIDs(del)}, recipients)
	}
	return nil
}

// UpdateUserGroupSubgroupsParams are the parameters of POST /user_groups/{id}/subgroups.
type UpdateUserGroupSubgroupsParams struct {
	GroupID users.GroupID
	Add     []users.GroupID
	Delete  []users.GroupID
}

// UpdateUserGroupSubgroups adds and removes direct subgroups; a change that would make a
// group reach itself is refused.
func (s *Service) UpdateUserGroupSubgroups(ctx context.Context, actor Actor, p UpdateUserGroupSubgroupsParams) error {
	if len(p.Add)+len(p.Delete) == 0 {
		return badRequest("Nothing to do. Specify at least one of \"add\" or \"delete\".")
	}
	if len(p.Add)+len(p.Delete) > MaxUserIDsPerRequest {
		return badRequest("Too many changes (limit: %d)", MaxUserIDsPerRequest)
	}
	return s.update(ctx, func(tx storage.Tx, ev *events) error {
		me, g, v, manage, err := loadGroupEdit(tx, actor, p.GroupID)
		if err != nil {
			return err
		}
		return s.changeSubgroups(tx, ev, v, g, manage || v.m.Allows(g.CanAddMembersGroup, me.ID),
			manage || v.m.Allows(g.CanRemoveMembersGroup, me.ID), p.Add, p.Delete)
	})
}

// GroupSettingChange is a permission change of PATCH /user_groups/{id}: the new value and,
// optionally, the value the client believes current.
type GroupSettingChange struct {
	New *users.GroupSetting `json:"new"`
	Old *users.GroupSetting `json:"old,omitempty"`
}

// UpdateUserGroupParams are the parameters of PATCH /user_groups/{id}.
type UpdateUserGroupParams struct {
	GroupID     users.GroupID
	Name        *string
	Description *string
	// Settings maps permission names (can_manage_group, ...) to changes.
	Settings map[string]GroupSettingChange
}

// UpdateUserGroup renames a group, changes its description or its permission settings. It
// needs the right to manage the group. Everyone gets user_group update with the changed data.
func (s *Service) UpdateUserGroup(ctx context.Context, actor Actor, p UpdateUserGroupParams) error {
	if p.Name == nil && p.Description == nil && len(p.Settings) == 0 {
		return badRequest("No new data supplied")
	}
	perms := map[string]users.GroupPermission{}
	for _, perm := range users.GroupPermissions() {
		perms[perm.Name] = perm
	}
	for name, c := range p.Settings {
		if _, ok := perms[name]; !ok {
			return badRequest("Invalid setting %s", name)
		}
		if c.New == nil {
			return MissingArgument(name + "[\"new\"]")
		}
	}
	return s.mutate(ctx, actor, members, func(o *writeOp) error {
		tx, ev, me := o.tx, o.ev, o.me
		g, err := groupForUpdate(tx.Groups(), p.GroupID)
		if err != nil {
			return err
		}
		realm, err := tx.Realm().Get()
		if err != nil {
			return err
		}
		v, err := newGroupView(tx.Users(), tx.Groups())
		if err != nil {
			return err
		}
		if !canManage(v, realm, g, me.ID) {
			return badRequest(msgInsufficientPerm)
		}
		data := map[string]any{}
		if p.Name != nil {
			name, err := users.CheckGroupName(*p.Name)
			if err != nil {
				return badRequest("%s", err.Error())
			}
			if name != g.Name {
				if _, err := tx.Groups().GetByName(name); err == nil {
					return badRequest("User group '%s' already exists.", name)
				}
				g.Name = name
				data["name"] = name
			}
		}
		if p.Description != nil && *p.Description != g.Description {
			if utf8.RuneCountInString(*p.Description) > users.MaxGroupDescriptionLength {
				return badRequest("description is too long (limit: %d characters)", users.MaxGroupDescriptionLength)
			}
			g.Description = *p.Description
			data["description"] = g.Description
		}
		names := make([]string, 0, len(p.Settings))
		for name := range p.Settings {
			names = append(names, name)
		}
		slices.Sort(names)
		for _, name := range names {
			c, perm := p.Settings[name], perms[name]
			field := perm.Field(&g)
			if c.Old != nil && !sameSetting(v.setting(*c.Old), v.setting(*field)) {
				return badRequest("'old' value does not match the expected value.")
			}
			if err := checkGroupSetting(tx.Groups(), v, perm, *c.New); err != nil {
				return err
			}
			if sameSetting(v.setting(*c.New), v.setting(*field)) {
				continue
			}
			*field = *c.New
			data[name] = v.setting(*c.New)
		}
		if len(data) == 0 {
			return nil
		}
		if err := tx.Groups().Update(g); errors.Is(err, storage.ErrConflict) {
			return badRequest("User group '%s' already exists.", g.Name)
		} else if err != nil {
			return err
		}
		recipients, err := activeUserIDs(tx.Users())
		if err != nil {
			return err
		}
		ev.add("user_group", UserGroupUpdateEvent{Type: "user_group", Op: "update", GroupID: g.ID, Data: data}, recipients)
		return nil
	})
}

func sameSetting(a, b users.GroupSetting) bool {
	return fmt.Sprint(a) == fmt.Sprint(b)
}

// DeactivateUserGroupParams are the parameters of POST /user_groups/{id}/deactivate.
type DeactivateUserGroupParams struct {
	GroupID users.GroupID
}

// DeactivateUserGroup deactivates a named group (it needs the right to manage it). A group
// still used as a subgroup of an active group is refused. Everyone gets user_group update
// with deactivated true.
func (s *Service) DeactivateUserGroup(ctx context.Context, actor Actor, p DeactivateUserGroupParams) error {
	return s.mutate(ctx, actor, members, func(o *writeOp) error {
		tx, ev, me := o.tx, o.ev, o.me
		g, err := groupForUpdate(tx.Groups(), p.GroupID)
		if err != nil {
			return err
		}
		if g.Deactivated {
			return badRequest("User group is already deactivated.")
		}
		realm, err := tx.Realm().Get()
		if err != nil {
			return err
		}
		v, err := newGroupView(tx.Users(), tx.Groups())
		if err != nil {
			return err
		}
		if !canManage(v, realm, g, me.ID) {
			return badRequest(msgInsufficientPerm)
		}
		all, err := tx.Groups().List()
		if err != nil {
			return err
		}
		var supergroups []users.GroupID
		for _, o := range all {
			if !o.Deactivated && slices.Contains(o.Subgroups, g.ID) {
				supergroups = append(supergroups, o.ID)
			}
		}
		if len(supergroups) > 0 {
			return Errorf("CANNOT_DEACTIVATE_GROUP_IN_USE", "Cannot deactivate user group in use.").
				With("objections", []map[string]any{{"type": "user_group", "group_ids": supergroups}})
		}
		g.Deactivated = true
		if err := tx.Groups().Update(g); err != nil {
			return err
		}
		recipients, err := activeUserIDs(tx.Users())
		if err != nil {
			return err
		}
		ev.add("user_group", UserGroupUpdateEvent{Type: "user_group", Op: "update", GroupID: g.ID, Data: map[string]any{"deactivated": true}}, recipients)
		return nil
	})
}

// loadGroupEdit loads what a membership change of a group needs: the acting member, the group,
// the membership view and whether the actor may manage the group.
func loadGroupEdit(tx storage.Tx, actor Actor, id users.GroupID) (users.User, users.Group, *groupView, bool, error) {
	me, err := memberActor(tx.Users(), actor)
	if err != nil {
		return users.User{}, users.Group{}, nil, false, err
	}
	g, err := groupForUpdate(tx.Groups(), id)
	if err != nil {
		return users.User{}, users.Group{}, nil, false, err
	}
	realm, err := tx.Realm().Get()
	if err != nil {
		return users.User{}, users.Group{}, nil, false, err
	}
	v, err := newGroupView(tx.Users(), tx.Groups())
	if err != nil {
		return users.User{}, users.Group{}, nil, false, err
	}
	return me, g, v, canManage(v, realm, g, me.ID), nil
}
