package chat

import (
	"context"

	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/people"
)

// Accounts, authentication and sessions, bots, user groups, invitations, settings, statuses,
// custom profile fields, muted users, alert words, push devices, onboarding steps and presence
// are the people area's operations (package people); the Service delegates to it.

// The types of the people area, defined in package people: these aliases keep embedders' code
// compiling.
type (
	AlertWordsEvent                  = people.AlertWordsEvent
	AlertWordsState                  = people.AlertWordsState
	AlertWordsParams                 = people.AlertWordsParams
	AlertWordsResult                 = people.AlertWordsResult
	GetAlertWordsParams              = people.GetAlertWordsParams
	RegisterClientDeviceResult       = people.RegisterClientDeviceResult
	RemoveClientDeviceParams         = people.RemoveClientDeviceParams
	PushTokenParams                  = people.PushTokenParams
	OnboardingStep                   = people.OnboardingStep
	OnboardingStepsEvent             = people.OnboardingStepsEvent
	OnboardingState                  = people.OnboardingState
	MarkOnboardingStepAsReadParams   = people.MarkOnboardingStepAsReadParams
	MarkOnboardingStepAsReadResult   = people.MarkOnboardingStepAsReadResult
	UpdatePresenceParams             = people.UpdatePresenceParams
	UpdatePresenceResult             = people.UpdatePresenceResult
	GetRealmPresenceParams           = people.GetRealmPresenceParams
	GetRealmPresenceResult           = people.GetRealmPresenceResult
	GetUserPresenceParams            = people.GetUserPresenceParams
	UserPresenceStatus               = people.UserPresenceStatus
	UserLegacyPresence               = people.UserLegacyPresence
	GetUserPresenceResult            = people.GetUserPresenceResult
	PresenceState                    = people.PresenceState
	ModernPresence                   = people.ModernPresence
	LegacyClientPresence             = people.LegacyClientPresence
	LegacyAggregatedPresence         = people.LegacyAggregatedPresence
	LegacyPresence                   = people.LegacyPresence
	PresenceChange                   = people.PresenceChange
	LegacyPresenceEvent              = people.LegacyPresenceEvent
	SimplifiedPresenceEvent          = people.SimplifiedPresenceEvent
	FetchAPIKeyParams                = people.FetchAPIKeyParams
	FetchAPIKeyResult                = people.FetchAPIKeyResult
	JWTFetchAPIKeyParams             = people.JWTFetchAPIKeyParams
	JWTFetchAPIKeyResult             = people.JWTFetchAPIKeyResult
	DevFetchAPIKeyParams             = people.DevFetchAPIKeyParams
	DevUser                          = people.DevUser
	DevListUsersResult               = people.DevListUsersResult
	RegenerateAPIKeyResult           = people.RegenerateAPIKeyResult
	PasswordHashing                  = people.PasswordHashing
	Session                          = people.Session
	GetIsUserGroupMemberParams       = people.GetIsUserGroupMemberParams
	GetIsUserGroupMemberResult       = people.GetIsUserGroupMemberResult
	UserGroupRecord                  = people.UserGroupRecord
	UserGroupsState                  = people.UserGroupsState
	GetUserGroupsParams              = people.GetUserGroupsParams
	GetUserGroupsResult              = people.GetUserGroupsResult
	GetUserGroupMembersParams        = people.GetUserGroupMembersParams
	GetUserGroupMembersResult        = people.GetUserGroupMembersResult
	GetUserGroupSubgroupsParams      = people.GetUserGroupSubgroupsParams
	GetUserGroupSubgroupsResult      = people.GetUserGroupSubgroupsResult
	UserGroupAddEvent                = people.UserGroupAddEvent
	UserGroupUpdateEvent             = people.UserGroupUpdateEvent
	UserGroupSubgroupsEvent          = people.UserGroupSubgroupsEvent
	GroupPermissionParams            = people.GroupPermissionParams
	CreateUserGroupParams            = people.CreateUserGroupParams
	CreateUserGroupResult            = people.CreateUserGroupResult
	UpdateUserGroupMembersParams     = people.UpdateUserGroupMembersParams
	UpdateUserGroupSubgroupsParams   = people.UpdateUserGroupSubgroupsParams
	UpdateUserGroupParams            = people.UpdateUserGroupParams
	DeactivateUserGroupParams        = people.DeactivateUserGroupParams
	InvitesChangedEvent              = people.InvitesChangedEvent
	InviteRecord                     = people.InviteRecord
	CreateInviteLinkParams           = people.CreateInviteLinkParams
	CreateInviteLinkResult           = people.CreateInviteLinkResult
	GetInvitesParams                 = people.GetInvitesParams
	GetInvitesResult                 = people.GetInvitesResult
	RevokeInviteLinkParams           = people.RevokeInviteLinkParams
	RevokeInviteLinkResult           = people.RevokeInviteLinkResult
	RedeemInviteLinkParams           = people.RedeemInviteLinkParams
	RedeemInviteLinkResult           = people.RedeemInviteLinkResult
	Mailer                           = people.Mailer
	SendInvitesParams                = people.SendInvitesParams
	EmailInviteParams                = people.EmailInviteParams
	ProfileDataUpdate                = people.ProfileDataUpdate
	UpdateProfileDataParams          = people.UpdateProfileDataParams
	RemoveProfileDataParams          = people.RemoveProfileDataParams
	CustomProfileFieldRecord         = people.CustomProfileFieldRecord
	CustomProfileFieldsEvent         = people.CustomProfileFieldsEvent
	ProfileFieldTypeRecord           = people.ProfileFieldTypeRecord
	CustomProfileFieldsState         = people.CustomProfileFieldsState
	GetCustomProfileFieldsResult     = people.GetCustomProfileFieldsResult
	CreateCustomProfileFieldParams   = people.CreateCustomProfileFieldParams
	CreateCustomProfileFieldResult   = people.CreateCustomProfileFieldResult
	UpdateCustomProfileFieldParams   = people.UpdateCustomProfileFieldParams
	RemoveCustomProfileFieldParams   = people.RemoveCustomProfileFieldParams
	ReorderCustomProfileFieldsParams = people.ReorderCustomProfileFieldsParams
	Hooks                            = people.Hooks
	ProvisionUserParams              = people.ProvisionUserParams
	ProvisionUserResult              = people.ProvisionUserResult
	UpdateUserParams                 = people.UpdateUserParams
	UpdateUserByEmailParams          = people.UpdateUserByEmailParams
	DeactivateUserActions            = people.DeactivateUserActions
	DeactivateUserParams             = people.DeactivateUserParams
	ReactivateUserParams             = people.ReactivateUserParams
	CreateUserParams                 = people.CreateUserParams
	CreateUserResult                 = people.CreateUserResult
	DeactivateOwnUserParams          = people.DeactivateOwnUserParams
	CreateBotParams                  = people.CreateBotParams
	CreateBotResult                  = people.CreateBotResult
	BotRecord                        = people.BotRecord
	BotServiceRecord                 = people.BotServiceRecord
	RealmBotEvent                    = people.RealmBotEvent
	RealmBotsState                   = people.RealmBotsState
	BotSummary                       = people.BotSummary
	GetBotsResult                    = people.GetBotsResult
	UpdateBotParams                  = people.UpdateBotParams
	UpdateBotResult                  = people.UpdateBotResult
	BotParams                        = people.BotParams
	UserGroupMembersEvent            = people.UserGroupMembersEvent
	RealmUserEvent                   = people.RealmUserEvent
	UserQueryOptions                 = people.UserQueryOptions
	GetUsersParams                   = people.GetUsersParams
	GetUsersResult                   = people.GetUsersResult
	GetUserParams                    = people.GetUserParams
	GetUserResult                    = people.GetUserResult
	GetUserByEmailParams             = people.GetUserByEmailParams
	GetOwnUserResult                 = people.GetOwnUserResult
	MutedUserRecord                  = people.MutedUserRecord
	MutedUsersEvent                  = people.MutedUsersEvent
	MutedUsersState                  = people.MutedUsersState
	MuteUserParams                   = people.MuteUserParams
	UserRecord                       = people.UserRecord
	ProfileData                      = people.ProfileData
	ProfileDataValue                 = people.ProfileDataValue
	BotOwner                         = people.BotOwner
	RealmUserState                   = people.RealmUserState
	TargetUsers                      = people.TargetUsers
	UpdateSettingsParams             = people.UpdateSettingsParams
	UserSettingsEvent                = people.UserSettingsEvent
	UserSettingsState                = people.UserSettingsState
	EmojisetChoice                   = people.EmojisetChoice
	ConfirmEmailChangeParams         = people.ConfirmEmailChangeParams
	ConfirmEmailChangeResult         = people.ConfirmEmailChangeResult
	UserStatus                       = people.UserStatus
	UserStatusEvent                  = people.UserStatusEvent
	UserStatusState                  = people.UserStatusState
	UpdateStatusParams               = people.UpdateStatusParams
	UpdateStatusForUserParams        = people.UpdateStatusForUserParams
	GetUserStatusParams              = people.GetUserStatusParams
	GetUserStatusResult              = people.GetUserStatusResult
)

// GetAlertWords lists the actor's alert words.
func (s *Service) GetAlertWords(ctx context.Context, actor Actor, p GetAlertWordsParams) (AlertWordsResult, error) {
	return s.people.GetAlertWords(ctx, actor, p)
}

// AddAlertWords adds words to the actor's alert words: each is trimmed, empty ones are
// ignored, and so are those already present, compared case-insensitively. A word longer than
// users.MaxAlertWordLength characters is refused. The user gets an alert_words event.
func (s *Service) AddAlertWords(ctx context.Context, actor Actor, p AlertWordsParams) (AlertWordsResult, error) {
	return s.people.AddAlertWords(ctx, actor, p)
}

// RemoveAlertWords removes words from the actor's alert words, compared case-insensitively;
// words the user does not have are ignored. The user gets an alert_words event.
func (s *Service) RemoveAlertWords(ctx context.Context, actor Actor, p AlertWordsParams) (AlertWordsResult, error) {
	return s.people.RemoveAlertWords(ctx, actor, p)
}

// RegisterClientDevice records a logged-in mobile device of the actor (humans only) and
// returns its id, the first step of push registration.
func (s *Service) RegisterClientDevice(ctx context.Context, actor Actor) (RegisterClientDeviceResult, error) {
	return s.people.RegisterClientDevice(ctx, actor)
}

// RemoveClientDevice removes one of the actor's devices (at logout).
func (s *Service) RemoveClientDevice(ctx context.Context, actor Actor, p RemoveClientDeviceParams) error {
	return s.people.RemoveClientDevice(ctx, actor, p)
}

// RegisterPushDevice is POST /mobile_push/register (E2EE push): without a push service, Zulip
// refuses it.
func (s *Service) RegisterPushDevice(ctx context.Context, actor Actor) error {
	return s.people.RegisterPushDevice(ctx, actor)
}

// AddApnsToken is POST /users/me/apns_device_token.
func (s *Service) AddApnsToken(ctx context.Context, actor Actor, p PushTokenParams) error {
	return s.people.AddApnsToken(ctx, actor, p)
}

// RemoveApnsToken is DELETE /users/me/apns_device_token.
func (s *Service) RemoveApnsToken(ctx context.Context, actor Actor, p PushTokenParams) error {
	return s.people.RemoveApnsToken(ctx, actor, p)
}

// AddFcmToken is POST /users/me/android_gcm_reg_id.
func (s *Service) AddFcmToken(ctx context.Context, actor Actor, p PushTokenParams) error {
	return s.people.AddFcmToken(ctx, actor, p)
}

// RemoveFcmToken is DELETE /users/me/android_gcm_reg_id.
func (s *Service) RemoveFcmToken(ctx context.Context, actor Actor, p PushTokenParams) error {
	return s.people.RemoveFcmToken(ctx, actor, p)
}

// MarkOnboardingStepAsRead records that the actor (a human) has seen an onboarding step, so
// that it is no longer offered, and sends the user an onboarding_steps event with the steps
// left, as Zulip does even when the step was already read. A name that is not one of Zulip's
// steps gets "Unknown onboarding_step: NAME".
func (s *Service) MarkOnboardingStepAsRead(ctx context.Context, actor Actor, p MarkOnboardingStepAsReadParams) (MarkOnboardingStepAsReadResult, error) {
	return s.people.MarkOnboardingStepAsRead(ctx, actor, p)
}

// UpdatePresence records the actor's presence report and returns the presence data the client
// needs. Bots cannot report presence.
func (s *Service) UpdatePresence(ctx context.Context, actor Actor, p UpdatePresenceParams) (UpdatePresenceResult, error) {
	return s.people.UpdatePresence(ctx, actor, p)
}

// GetRealmPresence returns the organization's presence data.
func (s *Service) GetRealmPresence(ctx context.Context, actor Actor, p GetRealmPresenceParams) (GetRealmPresenceResult, error) {
	return s.people.GetRealmPresence(ctx, actor, p)
}

// GetUserPresence returns one active human user's presence.
func (s *Service) GetUserPresence(ctx context.Context, actor Actor, p GetUserPresenceParams) (GetUserPresenceResult, error) {
	return s.people.GetUserPresence(ctx, actor, p)
}

// AuthenticateAPIKey checks HTTP Basic credentials: the user's delivery email (compared
// case-insensitively) and API key (compared in constant time). Every failure is a 401
// UNAUTHORIZED error with Zulip's message. Credentials it has checked are answered from memory
// afterwards, without a store read (auth_cache.go). Incoming webhook bots are refused.
func (s *Service) AuthenticateAPIKey(ctx context.Context, email, apiKey string) (engine.Actor, error) {
	return s.people.AuthenticateAPIKey(ctx, email, apiKey)
}

// AuthenticateWebhookAPIKey is AuthenticateAPIKey for the endpoints Zulip opens to incoming
// webhook bots (POST /messages and the integrations' /external/ URLs): it accepts them too.
// An empty email looks the key up alone (an integration URL's api_key parameter).
func (s *Service) AuthenticateWebhookAPIKey(ctx context.Context, email, apiKey string) (engine.Actor, error) {
	return s.people.AuthenticateWebhookAPIKey(ctx, email, apiKey)
}

// FetchAPIKey exchanges a username (email) and password for the user's API key. Attempts are
// rate limited per username and per client address before the password is checked; a
// successful login clears the username's failures.
func (s *Service) FetchAPIKey(ctx context.Context, p FetchAPIKeyParams) (FetchAPIKeyResult, error) {
	return s.people.FetchAPIKey(ctx, p)
}

// JWTFetchAPIKey exchanges a JWT signed with the configured HS256 key, carrying an `email`
// claim, for that user's API key. The algorithm is pinned, the signature checked, and exp,
// nbf and iat validated when present.
func (s *Service) JWTFetchAPIKey(ctx context.Context, p JWTFetchAPIKeyParams) (JWTFetchAPIKeyResult, error) {
	return s.people.JWTFetchAPIKey(ctx, p)
}

// DevFetchAPIKey returns any active user's API key without a password. It works only on a
// Service created with Options.Dev.
func (s *Service) DevFetchAPIKey(ctx context.Context, p DevFetchAPIKeyParams) (FetchAPIKeyResult, error) {
	return s.people.DevFetchAPIKey(ctx, p)
}

// DevListUsers lists active human users, administrators and owners apart, in Zulip's order:
// by the email clients see (Zulip sorts on that column), which is the placeholder
// user{id}@{host} for users who hide their address. It works only on a Service created with
// Options.Dev.
func (s *Service) DevListUsers(ctx context.Context) (DevListUsersResult, error) {
	return s.people.DevListUsers(ctx)
}

// RegenerateAPIKey replaces the actor's API key with a new random one. The old key stops
// authenticating at once.
func (s *Service) RegenerateAPIKey(ctx context.Context, actor Actor) (RegenerateAPIKeyResult, error) {
	return s.people.RegenerateAPIKey(ctx, actor)
}

// ForgetCredentials drops every cached credential. The Service keeps its cache exact for its
// own writes; a program that writes users or the organization into the store directly (not
// through the Service) calls it afterwards.
func (s *Service) ForgetCredentials() {
	s.people.ForgetCredentials()
}

// ResetCredentials drops every cached credential; off keeps the cache from caching until the
// next reset (a Bus that stopped listening: invalidations from other processes no longer
// arrive).
// ApplyCredentialChanges drops the cached credentials another process changed.
// StartSession starts a web session for actor, an active user whom a login already
// authenticated (dev_fetch_api_key logs the browser in this way, as Zulip's does). The
// session lasts Options.SessionAge from now. Expired sessions are swept in the same
// transaction, so the store keeps only live ones and those not yet swept, and a user keeps at
// most MaxSessionsPerUser.
func (s *Service) StartSession(ctx context.Context, actor Actor) (Session, error) {
	return s.people.StartSession(ctx, actor)
}

// StartSessionWithPassword is the password login of the web (Zulip's POST /accounts/login/):
// FetchAPIKey's checks, rate limits and errors, then StartSession for the user. The password
// is checked outside the write transaction (hashing is slow); StartSession checks again that
// the user is active.
func (s *Service) StartSessionWithPassword(ctx context.Context, p FetchAPIKeyParams) (Session, error) {
	return s.people.StartSessionWithPassword(ctx, p)
}

// AuthenticateSession returns the actor of a session id. Every refusal (an id of the wrong
// form, unknown, expired, of a deactivated user or organization, of an incoming webhook bot)
// is ErrNotLoggedIn, as Django treats a dead session as no session: the caller may then try
// other credentials. Sessions it has checked are answered from memory afterwards, until they
// end by the Service clock, without a store read (auth_cache.go).
func (s *Service) AuthenticateSession(ctx context.Context, id string) (engine.Actor, error) {
	return s.people.AuthenticateSession(ctx, id)
}

// EndSession ends a web session (logout). Ending an unknown or already ended session is no
// error: the browser is logged out either way.
func (s *Service) EndSession(ctx context.Context, id string) error {
	return s.people.EndSession(ctx, id)
}

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

// UserGroupsState is register's realm_user_groups: the groups' records (deactivated ones when
// include), from the cache while the world's users are read.
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
func (s *Service) UpdateUserGroupMembers(ctx context.Context, actor Actor, p UpdateUserGroupMembersParams) error {
	return s.people.UpdateUserGroupMembers(ctx, actor, p)
}

// UpdateUserGroupSubgroups adds and removes direct subgroups; a change that would make a
// group reach itself is refused.
func (s *Service) UpdateUserGroupSubgroups(ctx context.Context, actor Actor, p UpdateUserGroupSubgroupsParams) error {
	return s.people.UpdateUserGroupSubgroups(ctx, actor, p)
}

// UpdateUserGroup renames a group, changes its description or its permission settings. It
// needs the right to manage the group. Everyone gets user_group update with the changed data.
func (s *Service) UpdateUserGroup(ctx context.Context, actor Actor, p UpdateUserGroupParams) error {
	return s.people.UpdateUserGroup(ctx, actor, p)
}

// DeactivateUserGroup deactivates a named group (it needs the right to manage it). A group
// still used as a subgroup of an active group is refused. Everyone gets user_group update
// with deactivated true.
func (s *Service) DeactivateUserGroup(ctx context.Context, actor Actor, p DeactivateUserGroupParams) error {
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
func (s *Service) SendInvites(ctx context.Context, actor Actor, p SendInvitesParams) error {
	return s.people.SendInvites(ctx, actor, p)
}

// RevokeEmailInvite revokes an email invitation: its link stops working. Administrators may
// revoke any, others their own; administrators and the inviter get invites_changed.
func (s *Service) RevokeEmailInvite(ctx context.Context, actor Actor, p EmailInviteParams) error {
	return s.people.RevokeEmailInvite(ctx, actor, p)
}

// ResendEmailInvite sends an email invitation again with a new link (the old one stops
// working), valid as long after now as the invitation originally was.
func (s *Service) ResendEmailInvite(ctx context.Context, actor Actor, p EmailInviteParams) error {
	return s.people.ResendEmailInvite(ctx, actor, p)
}

// UpdateProfileData sets the actor's own custom profile values (human users only). Fields
// not editable by users are refused unless the actor is an administrator.
func (s *Service) UpdateProfileData(ctx context.Context, actor Actor, p UpdateProfileDataParams) error {
	return s.people.UpdateProfileData(ctx, actor, p)
}

// RemoveProfileData clears some of the actor's own custom profile values.
func (s *Service) RemoveProfileData(ctx context.Context, actor Actor, p RemoveProfileDataParams) error {
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
func (s *Service) UpdateCustomProfileField(ctx context.Context, actor Actor, p UpdateCustomProfileFieldParams) error {
	return s.people.UpdateCustomProfileField(ctx, actor, p)
}

// RemoveCustomProfileField deletes a custom profile field and every user's value of it
// (administrators). Everyone gets custom_profile_fields; clients drop the values themselves.
func (s *Service) RemoveCustomProfileField(ctx context.Context, actor Actor, p RemoveCustomProfileFieldParams) error {
	return s.people.RemoveCustomProfileField(ctx, actor, p)
}

// ReorderCustomProfileFields puts the fields in the given order (administrators); the list must
// name every field. Everyone gets custom_profile_fields.
func (s *Service) ReorderCustomProfileFields(ctx context.Context, actor Actor, p ReorderCustomProfileFieldsParams) error {
	return s.people.ReorderCustomProfileFields(ctx, actor, p)
}

// ProvisionUser creates a user or bot without an acting user (a trusted, server-side
// operation). The user joins the system group of its role (a human also the default
// channels), and every active user of the organization receives a realm_user add event.
func (s *Service) ProvisionUser(ctx context.Context, p ProvisionUserParams) (ProvisionUserResult, error) {
	return s.people.ProvisionUser(ctx, p)
}

// UpdateUser changes another user's name, role, custom profile data or email. It is for
// administrators (and for the owner of a bot); only owners give or take the owner role, the
// only owner keeps it, and a guest cannot be made an administrator directly. Every change
// sends a realm_user update; a role change also moves the user between the system groups.
func (s *Service) UpdateUser(ctx context.Context, actor Actor, p UpdateUserParams) error {
	return s.people.UpdateUser(ctx, actor, p)
}

// UpdateUserByEmail is UpdateUser for the user with that email. An email the actor may not
// see is "No such user", as for GET /users/{email}.
func (s *Service) UpdateUserByEmail(ctx context.Context, actor Actor, p UpdateUserByEmailParams) error {
	return s.people.UpdateUserByEmail(ctx, actor, p)
}

// DeactivateUser deactivates a human user (administrators; an owner only by an owner; never
// the only owner). The bots the user owns are deactivated first, then the user; the actions
// apply to each in that order. Everyone who can access them gets realm_user update
// is_active=false. Group memberships are kept but never count for deactivated users, so the
// user leaves every group as far as anyone can tell.
func (s *Service) DeactivateUser(ctx context.Context, actor Actor, p DeactivateUserParams) error {
	return s.people.DeactivateUser(ctx, actor, p)
}

// ReactivateUser reactivates a deactivated user or bot (administrators, or a bot's owner).
// Everyone who can access the user gets realm_user update is_active=true.
func (s *Service) ReactivateUser(ctx context.Context, actor Actor, p ReactivateUserParams) error {
	return s.people.ReactivateUser(ctx, actor, p)
}

// CreateUser creates a member account, subscribed to the default channels. The actor must be
// an administrator holding the special can_create_users permission.
func (s *Service) CreateUser(ctx context.Context, actor Actor, p CreateUserParams) (CreateUserResult, error) {
	return s.people.CreateUser(ctx, actor, p)
}

// DeactivateOwnUser deactivates the actor's own account, and first the bots the actor owns,
// as an administrator's deactivation does. The organization's last active user and its only
// owner are refused (CANNOT_DEACTIVATE_LAST_USER).
func (s *Service) DeactivateOwnUser(ctx context.Context, actor Actor, p DeactivateOwnUserParams) error {
	return s.people.DeactivateOwnUser(ctx, actor, p)
}

// CreateBot creates a bot owned by the actor (a member or above; not guests, not bots) with
// its own API key. Everyone gets realm_user add, and those who administer the bot realm_bot
// add. Outgoing webhook bots need a payload URL; embedded bots are not enabled on this server.
func (s *Service) CreateBot(ctx context.Context, actor Actor, p CreateBotParams) (CreateBotResult, error) {
	return s.people.CreateBot(ctx, actor, p)
}

// GetBots lists the active bots the actor owns, oldest first (administrators too see only
// their own here; register's realm_bots has every bot for them).
func (s *Service) GetBots(ctx context.Context, actor Actor) (GetBotsResult, error) {
	return s.people.GetBots(ctx, actor)
}

// UpdateBot changes a bot the actor administers: its name, role (administrators), owner,
// default channels and service. Each change is announced as Zulip does: realm_user updates to
// everyone for the name and owner, realm_bot updates (and, for an owner change, delete and add)
// to those who administer the bot.
func (s *Service) UpdateBot(ctx context.Context, actor Actor, p UpdateBotParams) (UpdateBotResult, error) {
	return s.people.UpdateBot(ctx, actor, p)
}

// RegenerateBotAPIKey gives a bot the actor administers a new API key; the old one stops
// working at once. Those who administer the bot get a realm_bot update.
func (s *Service) RegenerateBotAPIKey(ctx context.Context, actor Actor, p BotParams) (RegenerateAPIKeyResult, error) {
	return s.people.RegenerateBotAPIKey(ctx, actor, p)
}

// DeactivateBot deactivates a bot the actor administers (DELETE /bots/{bot_id}), as an
// administrator's deactivation of a user does.
func (s *Service) DeactivateBot(ctx context.Context, actor Actor, p BotParams) error {
	return s.people.DeactivateBot(ctx, actor, p)
}

// GetUsers lists the users of the organization as the actor may see them.
func (s *Service) GetUsers(ctx context.Context, actor Actor, p GetUsersParams) (GetUsersResult, error) {
	return s.people.GetUsers(ctx, actor, p)
}

// GetUser returns one user (deactivated users and bots included).
func (s *Service) GetUser(ctx context.Context, actor Actor, p GetUserParams) (GetUserResult, error) {
	return s.people.GetUser(ctx, actor, p)
}

// GetUserByEmail returns the user with an API email (the placeholder user{id}@{host} works
// for every user) or a real email the actor may see. Anything else is "No such user", so that
// hidden addresses cannot be probed.
func (s *Service) GetUserByEmail(ctx context.Context, actor Actor, p GetUserByEmailParams) (GetUserResult, error) {
	return s.people.GetUserByEmail(ctx, actor, p)
}

// GetOwnUser returns the actor's own record.
func (s *Service) GetOwnUser(ctx context.Context, actor Actor, q UserQueryOptions) (GetOwnUserResult, error) {
	return s.people.GetOwnUser(ctx, actor, q)
}

// MuteUser mutes a user for the actor: the actor's unread messages from that user are marked
// read (an update_message_flags event), their later messages arrive already read, and the
// actor gets a muted_users event.
func (s *Service) MuteUser(ctx context.Context, actor Actor, p MuteUserParams) error {
	return s.people.MuteUser(ctx, actor, p)
}

// UnmuteUser unmutes a user for the actor, who gets a muted_users event. Messages marked read
// by the mute stay read.
func (s *Service) UnmuteUser(ctx context.Context, actor Actor, p MuteUserParams) error {
	return s.people.UnmuteUser(ctx, actor, p)
}

// RealmUserState lists the users for viewer. Spectators see active users only, with hidden
// emails. The records come from the Service's cache (the viewer's own record and profile data excepted).
// AppendWithUserRecords appends body, register's JSON with null realm_users and
// realm_non_active_users, to b with the records of st in their place, written from the
// encodings this Service keeps; marshal encodes the whole answer when body lacks the keys.
// UpdateSettings changes the actor's own settings (or, with TargetUsers, other users'). Only
// values that change are written, each with a user_settings update event to its user; name
// and time-zone changes also send realm_user updates; an email change only starts a
// confirmation; a password change needs the old password.
func (s *Service) UpdateSettings(ctx context.Context, actor Actor, p UpdateSettingsParams) error {
	return s.people.UpdateSettings(ctx, actor, p)
}

// ConfirmEmailChange completes an email change started through UpdateSettings. It is a
// trusted operation (the key is the credential): unknown, used or expired keys are refused.
// Those who may see the email get realm_user update delivery_email (and everyone new_email
// when it is the API email).
func (s *Service) ConfirmEmailChange(ctx context.Context, p ConfirmEmailChangeParams) (ConfirmEmailChangeResult, error) {
	return s.people.ConfirmEmailChange(ctx, p)
}

// UpdateStatus changes the actor's status (human users only). Away turns the presence_enabled
// setting off (or on), as Zulip still does for older clients; every active user gets a
// user_status event with the fields given.
func (s *Service) UpdateStatus(ctx context.Context, actor Actor, p UpdateStatusParams) error {
	return s.people.UpdateStatus(ctx, actor, p)
}

// UpdateStatusForUser changes another user's status text and emoji (administrators only; the
// target is a human user, active). Away cannot be set for someone else.
func (s *Service) UpdateStatusForUser(ctx context.Context, actor Actor, p UpdateStatusForUserParams) error {
	return s.people.UpdateStatusForUser(ctx, actor, p)
}

// GetUserStatus returns a human user's status.
func (s *Service) GetUserStatus(ctx context.Context, actor Actor, p GetUserStatusParams) (GetUserStatusResult, error) {
	return s.people.GetUserStatus(ctx, actor, p)
}

// ErrNotLoggedIn is the error for a request that needs credentials and carries none.
func ErrNotLoggedIn() *Error { return people.ErrNotLoggedIn() }

// ValidSessionID reports whether id has the form of a session id (people.ValidSessionID).
func ValidSessionID(id string) bool { return people.ValidSessionID(id) }

// The limits and errors of the people area, defined in package people.
const (
	CodeInvitationFailed         = people.CodeInvitationFailed
	DefaultSessionAge            = people.DefaultSessionAge
	EmailChangeValidity          = people.EmailChangeValidity
	MaxDeactivationCommentLength = people.MaxDeactivationCommentLength
	MaxInviteesPerRequest        = people.MaxInviteesPerRequest
	MaxSessionsPerUser           = people.MaxSessionsPerUser
	MaxUserIDsPerRequest         = people.MaxUserIDsPerRequest
	SessionIDLength              = people.SessionIDLength
)

// The errors of invitation links (package people).
var (
	ErrInviteLinkInvalid = people.ErrInviteLinkInvalid
	ErrInviteLinkExpired = people.ErrInviteLinkExpired
	ErrInviteLinkRevoked = people.ErrInviteLinkRevoked
	ErrInviteLinkUsed    = people.ErrInviteLinkUsed
)
