package httpapi

import (
	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/users"
)

// idList decodes an optional JSON list of ids; nil when absent or null.
func idList[T ~int64](p *params, name string) ([]T, error) {
	l, err := jsonParam[[]T](p, name, false)
	if err != nil || l == nil {
		return nil, err
	}
	return *l, nil
}

// getUserGroups serves GET /user_groups.
func (h *Handler) getUserGroups(r *request) (any, error) {
	inc, err := r.params.boolOr("include_deactivated_groups", false)
	if err != nil {
		return nil, err
	}
	return h.svc.GetUserGroups(r.ctx, r.actor, chat.GetUserGroupsParams{IncludeDeactivatedGroups: inc})
}

// groupPermissions decodes the can_*_group parameters of group creation.
func groupPermissions(p *params) (chat.GroupPermissionParams, error) {
	var gp chat.GroupPermissionParams
	for _, f := range []struct {
		name string
		dst  **users.GroupSetting
	}{
		{"can_add_members_group", &gp.CanAddMembersGroup}, {"can_join_group", &gp.CanJoinGroup},
		{"can_leave_group", &gp.CanLeaveGroup}, {"can_manage_group", &gp.CanManageGroup},
		{"can_mention_group", &gp.CanMentionGroup}, {"can_remove_members_group", &gp.CanRemoveMembersGroup},
	} {
		v, err := jsonParam[users.GroupSetting](p, f.name, false)
		if err != nil {
			return gp, err
		}
		*f.dst = v
	}
	return gp, nil
}

// createUserGroup serves POST /user_groups/create.
func (h *Handler) createUserGroup(r *request) (any, error) {
	var (
		cp  chat.CreateUserGroupParams
		err error
	)
	if cp.Name, err = r.params.requiredStr("name"); err != nil {
		return nil, err
	}
	if cp.Members, err = requiredJSON[[]users.ID](r.params, "members", false); err != nil {
		return nil, err
	}
	if cp.Description, err = r.params.requiredStr("description"); err != nil {
		return nil, err
	}
	if cp.Subgroups, err = idList[users.GroupID](r.params, "subgroups"); err != nil {
		return nil, err
	}
	if cp.GroupPermissionParams, err = groupPermissions(r.params); err != nil {
		return nil, err
	}
	return h.svc.CreateUserGroup(r.ctx, r.actor, cp)
}

// updateUserGroup serves PATCH /user_groups/{user_group_id}.
func (h *Handler) updateUserGroup(r *request) (any, error) {
	up := chat.UpdateUserGroupParams{GroupID: pathID[users.GroupID](r, "user_group_id")}
	up.Name = r.params.optStr("name")
	up.Description = r.params.optStr("description")
	var err error
	if up.Settings, err = groupSettingChanges(r.params, []string{"can_add_members_group", "can_join_group", "can_leave_group",
		"can_manage_group", "can_mention_group", "can_remove_members_group"}); err != nil {
		return nil, err
	}
	return h.svc.UpdateUserGroup(r.ctx, r.actor, up)
}

// updateUserGroupMembers serves POST /user_groups/{user_group_id}/members.
func (h *Handler) updateUserGroupMembers(r *request) (any, error) {
	up := chat.UpdateUserGroupMembersParams{GroupID: pathID[users.GroupID](r, "user_group_id")}
	var err error
	if up.Add, err = idList[users.ID](r.params, "add"); err != nil {
		return nil, err
	}
	if up.Delete, err = idList[users.ID](r.params, "delete"); err != nil {
		return nil, err
	}
	if up.AddSubgroups, err = idList[users.GroupID](r.params, "add_subgroups"); err != nil {
		return nil, err
	}
	if up.DeleteSubgroups, err = idList[users.GroupID](r.params, "delete_subgroups"); err != nil {
		return nil, err
	}
	return h.svc.UpdateUserGroupMembers(r.ctx, r.actor, up)
}

// updateUserGroupSubgroups serves POST /user_groups/{user_group_id}/subgroups.
func (h *Handler) updateUserGroupSubgroups(r *request) (any, error) {
	up := chat.UpdateUserGroupSubgroupsParams{GroupID: pathID[users.GroupID](r, "user_group_id")}
	var err error
	if up.Add, err = idList[users.GroupID](r.params, "add"); err != nil {
		return nil, err
	}
	if up.Delete, err = idList[users.GroupID](r.params, "delete"); err != nil {
		return nil, err
	}
	return h.svc.UpdateUserGroupSubgroups(r.ctx, r.actor, up)
}

// deactivateUserGroup serves POST /user_groups/{user_group_id}/deactivate.
func (h *Handler) deactivateUserGroup(r *request) (any, error) {
	return h.svc.DeactivateUserGroup(r.ctx, r.actor, chat.DeactivateUserGroupParams{GroupID: pathID[users.GroupID](r, "user_group_id")})
}

// getUserGroupMembers serves GET /user_groups/{user_group_id}/members.
func (h *Handler) getUserGroupMembers(r *request) (any, error) {
	direct, err := r.params.boolOr("direct_member_only", false)
	if err != nil {
		return nil, err
	}
	return h.svc.GetUserGroupMembers(r.ctx, r.actor, chat.GetUserGroupMembersParams{GroupID: pathID[users.GroupID](r, "user_group_id"), DirectMemberOnly: direct})
}

// getUserGroupSubgroups serves GET /user_groups/{user_group_id}/subgroups.
func (h *Handler) getUserGroupSubgroups(r *request) (any, error) {
	direct, err := r.params.boolOr("direct_subgroup_only", false)
	if err != nil {
		return nil, err
	}
	return h.svc.GetUserGroupSubgroups(r.ctx, r.actor, chat.GetUserGroupSubgroupsParams{GroupID: pathID[users.GroupID](r, "user_group_id"), DirectSubgroupOnly: direct})
}

// getIsUserGroupMember serves GET /user_groups/{user_group_id}/members/{user_id}.
func (h *Handler) getIsUserGroupMember(r *request) (any, error) {
	direct, err := r.params.boolOr("direct_member_only", false)
	if err != nil {
		return nil, err
	}
	return h.svc.GetIsUserGroupMember(r.ctx, r.actor, chat.GetIsUserGroupMemberParams{
		GroupID: pathID[users.GroupID](r, "user_group_id"), UserID: pathID[users.ID](r, "user_id"), DirectMemberOnly: direct,
	})
}
