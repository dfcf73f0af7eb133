package chat

import "context"

// User groups, invitations and custom profile fields of the people area (package people).

// GetIsUserGroupMember tests whether a user is in a group, directly or through subgroups.
// Deactivated users are never members. Guests and bots may not ask.
func (s *Service) GetIsUserGroupMember(ctx context.Context, actor Actor, p GetIsUserGroupMemberParams) (GetIsUserGroupMemberResult, error) {
	return s.people.GetIsUserGroupMember(ctx, actor, p)
}

// GetUserGroups lists the organization's user groups, system groups included.
func (s *Service) GetUserGroups(ctx context.Context, actor Actor, p GetUserGroupsParams) (GetUserGroupsResult, error) {
	return s.people.GetUserGroups(ctx, actor, p)
}

// GetUserGroupMembers lists a group's active members, through subgroups unless
// DirectMemberOnly.
func (s *Service) GetUserGroupMembers(ctx context.Context, actor Actor, p GetUserGroupMembersParams) (GetUserGroupMembersResult, error) {
	return s.people.GetUserGroupMembers(ctx, actor, p)
}

// GetUserGroupSubgroups lists a group's subgroups, transitively unless DirectSubgroupOnly.
func (s *Service) GetUserGroupSubgroups(ctx context.Context, actor Actor, p GetUserGroupSubgroupsParams) (GetUserGroupSubgroupsResult, error) {
	return s.people.GetUserGroupSubgroups(ctx, actor, p)
}

// CreateUserGroup creates a named group. The actor must be in the organization's
// can_create_groups. Settings not given take Zulip's defaults (the creator manages and adds
// members, everyone may leave and mention, nobody joins or removes). Everyone gets
// user_group add.
func (s *Service) CreateUserGroup(ctx context.Context, actor Actor, p CreateUserGroupParams) (CreateUserGroupResult, error) {
	return s.people.CreateUserGroup(ctx, actor, p)
}

// UpdateUserGroupMembers adds and removes direct members (and subgroups) of a named group.
// Joining needs can_join_group, leaving can_leave_group; changing others needs
// can_add_members_group or can_remove_members_group, or the right to manage the group.
func (s *Service) UpdateUserGroupMembers(ctx context.Context, actor Actor, p UpdateUserGroupMembersParams) (UpdateUserGroupMembersResult, error) {
	return s.people.UpdateUserGroupMembers(ctx, actor, p)
}

// UpdateUserGroupSubgroups adds and removes direct subgroups; a change that would make a
// group reach itself is refused.
func (s *Service) UpdateUserGroupSubgroups(ctx context.Context, actor Actor, p UpdateUserGroupSubgroupsParams) (UpdateUserGroupSubgroupsResult, error) {
	return s.people.UpdateUserGroupSubgroups(ctx, actor, p)
}

// UpdateUserGroup renames a group, changes its description or its permission settings. It
// needs the right to manage the group. Everyone gets user_group update with the changed data.
func (s *Service) UpdateUserGroup(ctx context.Context, actor Actor, p UpdateUserGroupParams) (UpdateUserGroupResult, error) {
	return s.people.UpdateUserGroup(ctx, actor, p)
}

// DeactivateUserGroup deactivates a named group (it needs the right to manage it). A group
// still used as a subgroup of an active group is refused. Everyone gets user_group update
// with deactivated true.
func (s *Service) DeactivateUserGroup(ctx context.Context, actor Actor, p DeactivateUserGroupParams) (DeactivateUserGroupResult, error) {
	return s.people.DeactivateUserGroup(ctx, actor, p)
}

// CreateInviteLink creates a reusable invitation link. The requester must be a member or
// above in the create_multiuse_invite_group (Options.CreateMultiuseInviteGroup); invite_as is
// no more privileged than the requester; the requester must have content access to each
// channel (a private channel needs a subscription, even for an administrator), and each is
// either a default channel or one the requester may add subscribers to; none may be given
// by a requester who may not subscribe others; each group needs the right to add members.
// Administrators and the requester receive invites_changed.
func (s *Service) CreateInviteLink(ctx context.Context, actor Actor, p CreateInviteLinkParams) (CreateInviteLinkResult, error) {
	return s.people.CreateInviteLink(ctx, actor, p)
}

// GetInvites lists the invitations that are neither revoked nor expired.
func (s *Service) GetInvites(ctx context.Context, actor Actor, p GetInvitesParams) (GetInvitesResult, error) {
	return s.people.GetInvites(ctx, actor, p)
}

// RevokeInviteLink revokes a reusable link: administrators any, others their own.
func (s *Service) RevokeInviteLink(ctx context.Context, actor Actor, p RevokeInviteLinkParams) (RevokeInviteLinkResult, error) {
	return s.people.RevokeInviteLink(ctx, actor, p)
}

// EditInviteLink changes the role, channels, groups and welcome text of a reusable link:
// administrators any, others their own, under the rules of a new link.
func (s *Service) EditInviteLink(ctx context.Context, actor Actor, p EditInviteLinkParams) (EditInviteLinkResult, error) {
	return s.people.EditInviteLink(ctx, actor, p)
}

// RedeemInviteLink creates a user through a reusable invitation link (a trusted, server-side
// step of the sign-up flow): the user gets the invitation's role, joins its channels (and
// the default channels when it says so) and groups, and everyone learns of it through the
// usual events. An unknown, expired or revoked link is refused with ErrInviteLinkInvalid,
// ErrInviteLinkExpired or ErrInviteLinkRevoked. The link stays usable for further users.
func (s *Service) RedeemInviteLink(ctx context.Context, p RedeemInviteLinkParams) (RedeemInviteLinkResult, error) {
	return s.people.RedeemInviteLink(ctx, p)
}

// SendInvites invites people by email (POST /invites): each address gets an invitation whose
// link ({realm_url}/join/{key}/) creates their account, delivered through Options.Mailer. The
// requester must be a member or above in the organization's can_invite_users_group; the
// role, channel and group rules are those of reusable links. Addresses that are not valid
// refuse the whole request; addresses that already have an account are skipped (Zulip's
// INVITATION_FAILED error lists them, with sent_invitations true when others were invited).
// Administrators and the requester receive invites_changed.
func (s *Service) SendInvites(ctx context.Context, actor Actor, p SendInvitesParams) (SendInvitesResult, error) {
	return s.people.SendInvites(ctx, actor, p)
}

// RevokeEmailInvite revokes an email invitation: its link stops working. Administrators may
// revoke any, others their own; administrators and the inviter get invites_changed.
func (s *Service) RevokeEmailInvite(ctx context.Context, actor Actor, p EmailInviteParams) (RevokeEmailInviteResult, error) {
	return s.people.RevokeEmailInvite(ctx, actor, p)
}

// ResendEmailInvite sends an email invitation again with a new link (the old one stops
// working), valid as long after now as the invitation originally was.
func (s *Service) ResendEmailInvite(ctx context.Context, actor Actor, p EmailInviteParams) (ResendEmailInviteResult, error) {
	return s.people.ResendEmailInvite(ctx, actor, p)
}

// UpdateProfileData sets the actor's own custom profile values (human users only). Fields
// not editable by users are refused unless the actor is an administrator.
func (s *Service) UpdateProfileData(ctx context.Context, actor Actor, p UpdateProfileDataParams) (UpdateProfileDataResult, error) {
	return s.people.UpdateProfileData(ctx, actor, p)
}

// RemoveProfileData clears some of the actor's own custom profile values.
func (s *Service) RemoveProfileData(ctx context.Context, actor Actor, p RemoveProfileDataParams) (RemoveProfileDataResult, error) {
	return s.people.RemoveProfileData(ctx, actor, p)
}

// GetCustomProfileFields lists the custom profile fields, in display order.
func (s *Service) GetCustomProfileFields(ctx context.Context, actor Actor) (GetCustomProfileFieldsResult, error) {
	return s.people.GetCustomProfileFields(ctx, actor)
}

// CreateCustomProfileField adds a field at the end of the list (administrators). Everyone
// gets custom_profile_fields with the new list.
func (s *Service) CreateCustomProfileField(ctx context.Context, actor Actor, p CreateCustomProfileFieldParams) (CreateCustomProfileFieldResult, error) {
	return s.people.CreateCustomProfileField(ctx, actor, p)
}

// UpdateCustomProfileField changes a custom profile field (administrators). The name and hint
// of Zulip's default external account fields are fixed; at most two fields are shown in the
// profile summary. Everyone gets custom_profile_fields with the new list.
func (s *Service) UpdateCustomProfileField(ctx context.Context, actor Actor, p UpdateCustomProfileFieldParams) (UpdateCustomProfileFieldResult, error) {
	return s.people.UpdateCustomProfileField(ctx, actor, p)
}

// RemoveCustomProfileField deletes a custom profile field and every user's value of it
// (administrators). Everyone gets custom_profile_fields; clients drop the values themselves.
func (s *Service) RemoveCustomProfileField(ctx context.Context, actor Actor, p RemoveCustomProfileFieldParams) (RemoveCustomProfileFieldResult, error) {
	return s.people.RemoveCustomProfileField(ctx, actor, p)
}

// ReorderCustomProfileFields puts the fields in the given order (administrators); the list must
// name every field. Everyone gets custom_profile_fields.
func (s *Service) ReorderCustomProfileFields(ctx context.Context, actor Actor, p ReorderCustomProfileFieldsParams) (ReorderCustomProfileFieldsResult, error) {
	return s.people.ReorderCustomProfileFields(ctx, actor, p)
}
