package chat_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/storage"
)

// notices are the names of onboarding steps as register lists them.
func stepNames(steps []chat.OnboardingStep) []string {
	out := []string{}
	for _, s := range steps {
		out = append(out, s.Name)
	}
	return out
}

// zulipSteps are Zulip's onboarding steps in its order, without the navigation tour video.
var zulipSteps = []string{
	"visibility_policy_banner", "intro_inbox_view_modal", "intro_recent_view_modal",
	"first_stream_created_banner", "jump_to_conversation_banner", "non_interleaved_view_messages_fading",
	"interleaved_view_messages_fading", "intro_resolve_topic", "narrow_to_dm_with_welcome_bot_new_user",
}

func TestOnboardingStepsAreOfferedUntilMarkedRead(t *testing.T) {
	t.Parallel()
	onEveryBackend(t, func(t *testing.T, f *fixture) {
		ctx := t.Context()
		register := func(who string) *chat.RegisterQueueResult {
			t.Helper()
			res, err := f.svc.RegisterQueue(ctx, f.actor(who), chat.RegisterQueueParams{FetchEventTypes: []string{"onboarding_steps"}})
			if err != nil {
				t.Fatal(err)
			}
			return &res
		}
		first := register("member")
		if first.OnboardingState == nil {
			t.Fatal("register without onboarding_steps")
		}
		if diff := cmp.Diff(zulipSteps, stepNames(first.OnboardingSteps)); diff != "" {
			t.Errorf("steps of a new user (-want +got):\n%s", diff)
		}
		if first.NavigationTourVideoURL != nil {
			t.Errorf("navigation_tour_video_url = %q without a configured video, want null", *first.NavigationTourVideoURL)
		}
		if first.OnboardingSteps[0].Type != "one_time_notice" || first.OnboardingSteps[len(zulipSteps)-1].Type != "one_time_action" {
			t.Errorf("types = %+v, want notices then the action", first.OnboardingSteps)
		}
		for _, step := range []string{"intro_resolve_topic", "intro_resolve_topic", "visibility_policy_banner"} {
			if _, err := f.svc.MarkOnboardingStepAsRead(ctx, f.actor("member"), chat.MarkOnboardingStepAsReadParams{OnboardingStep: step}); err != nil {
				t.Fatalf("mark %s: %v", step, err)
			}
		}
		events := f.poll(t, "member", *first.QueueID, -1, true)
		if len(events) != 3 {
			t.Fatalf("got %d events, want an onboarding_steps event per call: %v", len(events), events)
		}
		last, ok := events[2].Payload.(chat.OnboardingStepsEvent)
		want := []string{"intro_inbox_view_modal", "intro_recent_view_modal", "first_stream_created_banner", "jump_to_conversation_banner",
			"non_interleaved_view_messages_fading", "interleaved_view_messages_fading", "narrow_to_dm_with_welcome_bot_new_user"}
		if !ok || last.Type != "onboarding_steps" || !cmp.Equal(want, stepNames(last.OnboardingSteps)) {
			t.Errorf("last event = %+v, want onboarding_steps %v", events[2].Payload, want)
		}
		if diff := cmp.Diff(want, stepNames(register("member").OnboardingSteps)); diff != "" {
			t.Errorf("steps after marking (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff(zulipSteps, stepNames(register("admin").OnboardingSteps)); diff != "" {
			t.Errorf("another user's steps changed (-want +got):\n%s", diff)
		}
	})
}

func TestMarkOnboardingStepRefusals(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	before := storeSnapshotForOnboarding(t, f)
	cases := []struct {
		name, who, step, msg string
	}{
		{"unknown step", "member", "intro_everything", "Unknown onboarding_step: intro_everything"},
		{"empty step", "member", "", "Unknown onboarding_step: "},
		{"the old hotspot name", "owner", "intro_streams", "Unknown onboarding_step: intro_streams"},
		{"a bot", "bot", "intro_resolve_topic", "This endpoint does not accept bot requests."},
	}
	for _, c := range cases {
		_, err := f.svc.MarkOnboardingStepAsRead(ctx, f.actor(c.who), chat.MarkOnboardingStepAsReadParams{OnboardingStep: c.step})
		wantError(t, err, chat.CodeBadRequest, 400, c.msg)
	}
	if after := storeSnapshotForOnboarding(t, f); !cmp.Equal(before, after) {
		t.Errorf("a refused call changed the read steps: %v -> %v", before, after)
	}
}

// storeSnapshotForOnboarding reads every fixture user's read steps.
func storeSnapshotForOnboarding(t *testing.T, f *fixture) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	err := f.store.View(t.Context(), func(tx storage.ReadTx) error {
		for name, id := range f.ids {
			seen, err := tx.OnboardingSteps().Seen(id)
			if err != nil {
				return err
			}
			out[name] = seen
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestNavigationTourVideoURLOption(t *testing.T) {
	t.Parallel()
	const url = "https://videos.example.com/navigation-tour.mp4"
	f := newFixture(t, func(o *chat.Options) { o.NavigationTourVideoURL = url })
	ctx := t.Context()
	res, err := f.svc.RegisterQueue(ctx, f.actor("member"), chat.RegisterQueueParams{FetchEventTypes: []string{"onboarding_steps"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.NavigationTourVideoURL == nil || *res.NavigationTourVideoURL != url {
		t.Errorf("navigation_tour_video_url = %v, want %q", res.NavigationTourVideoURL, url)
	}
	want := append(append(append([]string{}, zulipSteps[:8]...), "navigation_tour_video"), zulipSteps[8])
	if diff := cmp.Diff(want, stepNames(res.OnboardingSteps)); diff != "" {
		t.Errorf("steps with a configured video (-want +got):\n%s", diff)
	}
	if _, err := f.svc.MarkOnboardingStepAsRead(ctx, f.actor("member"), chat.MarkOnboardingStepAsReadParams{OnboardingStep: "navigation_tour_video"}); err != nil {
		t.Fatal(err)
	}
	again, err := f.svc.RegisterQueue(ctx, f.actor("member"), chat.RegisterQueueParams{FetchEventTypes: []string{"onboarding_steps"}})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(zulipSteps, stepNames(again.OnboardingSteps)); diff != "" {
		t.Errorf("steps after watching the video (-want +got):\n%s", diff)
	}
}

func onboardingConsistencyCases() []consistencyCase {
	mark := func(who, step string) func(t *testing.T, f *fixture) {
		return func(t *testing.T, f *fixture) {
			if _, err := f.svc.MarkOnboardingStepAsRead(t.Context(), f.actor(who), chat.MarkOnboardingStepAsReadParams{OnboardingStep: step}); err != nil {
				t.Fatal(err)
			}
		}
	}
	return []consistencyCase{
		{method: "MarkOnboardingStepAsRead", name: "a new step", run: mark("guest", "intro_inbox_view_modal")},
		{method: "MarkOnboardingStepAsRead", name: "a step read before", setup: mark("member", "intro_resolve_topic"), run: mark("member", "intro_resolve_topic")},
	}
}

// goldenOnboardingSteps produces an onboarding_steps event.
func goldenOnboardingSteps(t *testing.T, f *fixture) {
	mustDo(t, "MarkOnboardingStepAsRead", errOf(f.svc.MarkOnboardingStepAsRead(t.Context(), f.actor("member"),
		chat.MarkOnboardingStepAsReadParams{OnboardingStep: "visibility_policy_banner"})))
}
