package people

import (
	"context"
	"slices"

	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// OnboardingStep is one onboarding step a client should show: a one-time notice (a banner or
// modal the web app shows once) or a one-time action.
type OnboardingStep struct {
	// Type is "one_time_notice" or "one_time_action".
	Type string `json:"type"`
	Name string `json:"name"`
}

// onboardingSteps are Zulip's onboarding steps (zerver/lib/onboarding_steps.py: its
// ONE_TIME_NOTICES, then its ONE_TIME_ACTIONS), in Zulip's order.
var onboardingSteps = []OnboardingStep{
	{"one_time_notice", "visibility_policy_banner"},
	{"one_time_notice", "intro_inbox_view_modal"},
	{"one_time_notice", "intro_recent_view_modal"},
	{"one_time_notice", "first_stream_created_banner"},
	{"one_time_notice", "jump_to_conversation_banner"},
	{"one_time_notice", "non_interleaved_view_messages_fading"},
	{"one_time_notice", "interleaved_view_messages_fading"},
	{"one_time_notice", "intro_resolve_topic"},
	{"one_time_notice", navigationTourVideoStep},
	{"one_time_action", "narrow_to_dm_with_welcome_bot_new_user"},
}

// navigationTourVideoStep is the notice showing the navigation tour video: a server without
// Options.NavigationTourVideoURL treats it as read by everyone.
const navigationTourVideoStep = "navigation_tour_video"

// OnboardingStepsEvent is the onboarding_steps event: the steps still to show the user after
// a change, sent to that user only.
type OnboardingStepsEvent struct {
	Type            string           `json:"type"`
	OnboardingSteps []OnboardingStep `json:"onboarding_steps"`
}

// OnboardingState is register's onboarding_steps section.
type OnboardingState struct {
	// OnboardingSteps are the steps the user has not marked as read (none for spectators).
	OnboardingSteps []OnboardingStep `json:"onboarding_steps"`
	// NavigationTourVideoURL is Options.NavigationTourVideoURL; null when not configured.
	NavigationTourVideoURL *string `json:"navigation_tour_video_url"`
}

// MarkOnboardingStepAsReadParams are the parameters of POST /users/me/onboarding_steps.
type MarkOnboardingStepAsReadParams struct {
	OnboardingStep string
}

// MarkOnboardingStepAsReadResult is empty.
type MarkOnboardingStepAsReadResult struct{}

// MarkOnboardingStepAsRead records that the actor (a human) has seen an onboarding step, so
// that it is no longer offered, and sends the user an onboarding_steps event with the steps
// left, as Zulip does even when the step was already read. A name that is not one of Zulip's
// steps gets "Unknown onboarding_step: NAME".
func (s *Service) MarkOnboardingStepAsRead(ctx context.Context, actor engine.Actor, p MarkOnboardingStepAsReadParams) (MarkOnboardingStepAsReadResult, error) {
	known := slices.ContainsFunc(onboardingSteps, func(o OnboardingStep) bool { return o.Name == p.OnboardingStep })
	err := s.eng.Mutate(ctx, actor, engine.Humans, func(o *engine.WriteOp) error {
		if !known {
			return engine.BadRequest("Unknown onboarding_step: %s", p.OnboardingStep)
		}
		if err := o.Tx.OnboardingSteps().MarkSeen(o.Me.ID, p.OnboardingStep); err != nil {
			return err
		}
		next, err := s.nextOnboardingSteps(storage.ReadsOf(o.Tx), o.Me.ID)
		if err != nil {
			return err
		}
		o.Ev.Emit(OnboardingStepsEvent{Type: "onboarding_steps", OnboardingSteps: next}, []int64{int64(o.Me.ID)})
		return nil
	})
	return MarkOnboardingStepAsReadResult{}, err
}

// nextOnboardingSteps lists the steps user has not read, in Zulip's order (Zulip's
// get_next_onboarding_steps).
func (s *Service) nextOnboardingSteps(tx storage.ReadTx, user users.ID) ([]OnboardingStep, error) {
	seen, err := tx.OnboardingSteps().Seen(user)
	if err != nil {
		return nil, err
	}
	out := []OnboardingStep{}
	for _, step := range onboardingSteps {
		if slices.Contains(seen, step.Name) || step.Name == navigationTourVideoStep && s.cfg.NavigationTourVideoURL == "" {
			continue
		}
		out = append(out, step)
	}
	return out, nil
}

// RegisterOnboarding is register's onboarding_steps section for viewer (no steps for
// spectators).
func (s *Service) RegisterOnboarding(tx storage.ReadTx, viewer users.User) (*OnboardingState, error) {
	st := &OnboardingState{OnboardingSteps: []OnboardingStep{}}
	if url := s.cfg.NavigationTourVideoURL; url != "" {
		st.NavigationTourVideoURL = &url
	}
	if viewer.ID == 0 {
		return st, nil
	}
	var err error
	st.OnboardingSteps, err = s.nextOnboardingSteps(tx, viewer.ID)
	return st, err
}
