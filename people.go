package chat

import (
	"context"

	"github.com/teamchat/chat/people"
)

// Accounts, authentication and sessions, bots, user groups, invitations, settings, statuses,
// custom profile fields, muted users, alert words, push devices, onboarding steps and presence
// are the people area's operations (package people); the Service delegates to it.

// The types of the people area, defined in package people: these aliases keep embedders' code
// compiling.
type (
	UpdateUserResult                 = people.UpdateUserResult
	UpdateUserGroupSubgroupsResult   = people.UpdateUserGroupSubgroupsResult
	UpdateUserGroupResult            = people.UpdateUserGroupResult
	UpdateUserGroupMembersResult     = people.UpdateUserGroupMembersResult
	UpdateUserByEmailResult          = people.UpdateUserByEmailResult
	UpdateStatusResult               = people.UpdateStatusResult
	UpdateStatusForUserResult        = people.UpdateStatusForUserResult
	UpdateSettingsResult             = people.UpdateSettingsResult
	UpdateProfileDataResult          = people.UpdateProfileDataResult
	UpdateCustomProfileFieldResult   = people.UpdateCustomProfileFieldResult
	UnmuteUserResult                 = people.UnmuteUserResult
	SendInvitesResult                = people.SendInvitesResult
	RevokeEmailInviteResult          = people.RevokeEmailInviteResult
	ResendEmailInviteResult          = people.ResendEmailInviteResult
	ReorderCustomProfileFieldsResult = people.ReorderCustomProfileFieldsResult
	RemoveProfileDataResult          = people.RemoveProfileDataResult
	RemoveCustomProfileFieldResult   = people.RemoveCustomProfileFieldResult
	ReactivateUserResult             = people.ReactivateUserResult
	MuteUserResult                   = people.MuteUserResult
	EndSessionResult                 = people.EndSessionResult
	DeactivateUserResult             = people.DeactivateUserResult
	DeactivateUserGroupResult        = people.DeactivateUserGroupResult
	DeactivateOwnUserResult          = people.DeactivateOwnUserResult
	DeactivateBotResult              = people.DeactivateBotResult
	RemoveFcmTokenResult             = people.RemoveFcmTokenResult
	AddFcmTokenResult                = people.AddFcmTokenResult
	RemoveApnsTokenResult            = people.RemoveApnsTokenResult
	AddApnsTokenResult               = people.AddApnsTokenResult
	RegisterPushDeviceResult         = people.RegisterPushDeviceResult
	RemoveClientDeviceResult         = people.RemoveClientDeviceResult
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
	AuthenticationStats              = people.AuthenticationStats
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
	EditInviteLinkParams             = people.EditInviteLinkParams
	EditInviteLinkResult             = people.EditInviteLinkResult
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
	MemberRecord                     = people.MemberRecord
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
func (s *Service) RemoveClientDevice(ctx context.Context, actor Actor, p RemoveClientDeviceParams) (RemoveClientDeviceResult, error) {
	return s.people.RemoveClientDevice(ctx, actor, p)
}

// RegisterPushDevice is POST /mobile_push/register (E2EE push): without a push service, Zulip
// refuses it.
func (s *Service) RegisterPushDevice(ctx context.Context, actor Actor) (RegisterPushDeviceResult, error) {
	return s.people.RegisterPushDevice(ctx, actor)
}

// AddApnsToken is POST /users/me/apns_device_token.
func (s *Service) AddApnsToken(ctx context.Context, actor Actor, p PushTokenParams) (AddApnsTokenResult, error) {
	return s.people.AddApnsToken(ctx, actor, p)
}

// RemoveApnsToken is DELETE /users/me/apns_device_token.
func (s *Service) RemoveApnsToken(ctx context.Context, actor Actor, p PushTokenParams) (RemoveApnsTokenResult, error) {
	return s.people.RemoveApnsToken(ctx, actor, p)
}

// AddFcmToken is POST /users/me/android_gcm_reg_id.
func (s *Service) AddFcmToken(ctx context.Context, actor Actor, p PushTokenParams) (AddFcmTokenResult, error) {
	return s.people.AddFcmToken(ctx, actor, p)
}

// RemoveFcmToken is DELETE /users/me/android_gcm_reg_id.
func (s *Service) RemoveFcmToken(ctx context.Context, actor Actor, p PushTokenParams) (RemoveFcmTokenResult, error) {
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
