package chat

import (
	"context"

	"github.com/teamchat/chat/people"
)

// Alert words, push devices, onboarding steps and presence are the people area's operations
// (package people); the Service delegates to it.

// The types of the people area, defined in package people: these aliases keep embedders' code
// compiling.
type (
	AlertWordsEvent                = people.AlertWordsEvent
	AlertWordsState                = people.AlertWordsState
	AlertWordsParams               = people.AlertWordsParams
	AlertWordsResult               = people.AlertWordsResult
	GetAlertWordsParams            = people.GetAlertWordsParams
	RegisterClientDeviceResult     = people.RegisterClientDeviceResult
	RemoveClientDeviceParams       = people.RemoveClientDeviceParams
	PushTokenParams                = people.PushTokenParams
	OnboardingStep                 = people.OnboardingStep
	OnboardingStepsEvent           = people.OnboardingStepsEvent
	OnboardingState                = people.OnboardingState
	MarkOnboardingStepAsReadParams = people.MarkOnboardingStepAsReadParams
	MarkOnboardingStepAsReadResult = people.MarkOnboardingStepAsReadResult
	UpdatePresenceParams           = people.UpdatePresenceParams
	UpdatePresenceResult           = people.UpdatePresenceResult
	GetRealmPresenceParams         = people.GetRealmPresenceParams
	GetRealmPresenceResult         = people.GetRealmPresenceResult
	GetUserPresenceParams          = people.GetUserPresenceParams
	UserPresenceStatus             = people.UserPresenceStatus
	UserLegacyPresence             = people.UserLegacyPresence
	GetUserPresenceResult          = people.GetUserPresenceResult
	PresenceState                  = people.PresenceState
	ModernPresence                 = people.ModernPresence
	LegacyClientPresence           = people.LegacyClientPresence
	LegacyAggregatedPresence       = people.LegacyAggregatedPresence
	LegacyPresence                 = people.LegacyPresence
	PresenceChange                 = people.PresenceChange
	LegacyPresenceEvent            = people.LegacyPresenceEvent
	SimplifiedPresenceEvent        = people.SimplifiedPresenceEvent
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
