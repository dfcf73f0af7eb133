package people

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"unicode/utf8"

	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/org"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// UpdateUserGroupParams are the parameters of PATCH /user_groups/{id}.
type UpdateUserGroupParams struct {
	GroupID     users.GroupID
	Name        *string
	Description *string
	// Settings maps permission names (can_manage_group, ...) to changes.
	Settings map[string]org.GroupSettingChange
}

// UpdateUserGroupResult is UpdateUserGroup's answer: nothing beyond success.
type UpdateUserGroupResult struct{}

// UpdateUserGroup renames a group, changes its description or its permission settings. It
// needs the right to manage the group. Everyone gets user_group update with the changed data.
func (s *Service) UpdateUserGroup(ctx context.Context, actor engine.Actor, p UpdateUserGroupParams) (UpdateUserGroupResult, error) {
	if p.Name == nil && p.Description == nil && len(p.Settings) == 0 {
		return UpdateUserGroupResult{}, engine.BadRequest("No new data supplied")
	}
	perms, err := groupSettingChanges(p.Settings)
	if err != nil {
		return UpdateUserGroupResult{}, err
	}
	return UpdateUserGroupResult{}, s.eng.Mutate(ctx, actor, engine.Members, func(o *engine.WriteOp) error {
		tx := o.Tx
		e, err := loadGroupEdit(o.ReadOp.Tx, o.Me, p.GroupID)
		if err != nil {
			return err
		}
		if !e.manage {
			return engine.BadRequest(engine.MsgInsufficientPerm)
		}
		data := map[string]any{}
		if err := e.rename(tx.Groups(), p.Name, data); err != nil {
			return err
		}
		if err := e.describe(p.Description, data); err != nil {
			return err
		}
		if err := e.changeSettings(tx.Groups(), p.Settings, perms, data); err != nil {
			return err
		}
		if len(data) == 0 {
			return nil
		}
		if err := tx.Groups().Update(e.g); errors.Is(err, storage.ErrConflict) {
			return engine.BadRequest("User group '%s' already exists.", e.g.Name)
		} else if err != nil {
			return err
		}
		recipients, err := engine.ActiveUserIDs(tx.Users())
		if err != nil {
			return err
		}
		o.Ev.Emit(UserGroupUpdateEvent{Type: "user_group", Op: "update", GroupID: e.g.ID, Data: data}, recipients)
		return nil
	})
}

// groupSettingChanges checks the names of the changed settings and that each gives its new
// value; it returns the permissions by name.
func groupSettingChanges(changes map[string]org.GroupSettingChange) (map[string]users.GroupPermission, error) {
	perms := map[string]users.GroupPermission{}
	for _, perm := range users.GroupPermissions() {
		perms[perm.Name] = perm
	}
	for name, c := range changes {
		if _, ok := perms[name]; !ok {
			return nil, engine.BadRequest("Invalid setting %s", name)
		}
		if c.New == nil {
			return nil, engine.MissingArgument(name + "[\"new\"]")
		}
	}
	return perms, nil
}

// rename gives the edited group a new name, if given and different, and records it in data.
func (e *groupEdit) rename(gr storage.GroupReader, newName *string, data map[string]any) error {
	if newName == nil {
		return nil
	}
	name, err := users.CheckGroupName(*newName)
	if err != nil {
		return engine.RuleError(err)
	}
	if name == e.g.Name {
		return nil
	}
	if _, err := gr.GetByName(name); err == nil {
		return engine.BadRequest("User group '%s' already exists.", name)
	}
	e.g.Name = name
	data["name"] = name
	return nil
}

// describe gives the edited group a new description, if given and different, and records it
// in data.
func (e *groupEdit) describe(desc *string, data map[string]any) error {
	if desc == nil || *desc == e.g.Description {
		return nil
	}
	if utf8.RuneCountInString(*desc) > users.MaxGroupDescriptionLength {
		return engine.BadRequest("description is too long (limit: %d characters)", users.MaxGroupDescriptionLength)
	}
	e.g.Description = *desc
	data["description"] = e.g.Description
	return nil
}

// changeSettings applies the permission changes to the edited group, in the order of their
// names, and records the changed ones in data. A change whose old value is not the current
// one is refused.
func (e *groupEdit) changeSettings(gr storage.GroupReader, changes map[string]org.GroupSettingChange, perms map[string]users.GroupPermission, data map[string]any) error {
	v := e.v
	names := make([]string, 0, len(changes))
	for name := range changes {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		c, perm := changes[name], perms[name]
		field := perm.Field(&e.g)
		if c.Old != nil && !sameSetting(v.setting(*c.Old), v.setting(*field)) {
			return engine.BadRequest("'old' value does not match the expected value.")
		}
		if err := checkGroupSetting(gr, v, perm, *c.New); err != nil {
			return err
		}
		if sameSetting(v.setting(*c.New), v.setting(*field)) {
			continue
		}
		*field = *c.New
		data[name] = v.setting(*c.New)
	}
	return nil
}

func sameSetting(a, b users.GroupSetting) bool {
	return fmt.Sprint(a) == fmt.Sprint(b)
}

// DeactivateUserGroupParams are the parameters of POST /user_groups/{id}/deactivate.
type DeactivateUserGroupParams struct {
	GroupID users.GroupID
}

// DeactivateUserGroupResult is DeactivateUserGroup's answer: nothing beyond success.
type DeactivateUserGroupResult struct{}

// DeactivateUserGroup deactivates a named group (it needs the right to manage it). A group
// still used as a subgroup of an active group is refused. Everyone gets user_group update
// with deactivated true.
func (s *Service) DeactivateUserGroup(ctx context.Context, actor engine.Actor, p DeactivateUserGroupParams) (DeactivateUserGroupResult, error) {
	return DeactivateUserGroupResult{}, s.eng.Mutate(ctx, actor, engine.Members, func(o *engine.WriteOp) error {
		tx, ev := o.Tx, o.Ev
		e, err := loadGroupEdit(o.ReadOp.Tx, o.Me, p.GroupID)
		if err != nil {
			return err
		}
		g := e.g
		if g.Deactivated {
			return engine.BadRequest("User group is already deactivated.")
		}
		if !e.manage {
			return engine.BadRequest(engine.MsgInsufficientPerm)
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
			return engine.Errorf("CANNOT_DEACTIVATE_GROUP_IN_USE", "Cannot deactivate user group in use.").
				With("objections", []map[string]any{{"type": "user_group", "group_ids": supergroups}})
		}
		g.Deactivated = true
		if err := tx.Groups().Update(g); err != nil {
			return err
		}
		recipients, err := engine.ActiveUserIDs(tx.Users())
		if err != nil {
			return err
		}
		ev.Emit(UserGroupUpdateEvent{Type: "user_group", Op: "update", GroupID: g.ID, Data: map[string]any{"deactivated": true}}, recipients)
		return nil
	})
}
