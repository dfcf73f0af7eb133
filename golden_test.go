package chat_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/users"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// goldenEvents produces one event of each kind the Service emits, as a chosen viewer receives
// it. A new kind adds a row (and `go test -run TestGoldenEvents -update` writes its file; review
// it against shared/reference/zulip-behavior.md before committing).
var goldenEvents = []struct {
	name   string
	viewer string
	caps   chat.ClientCapabilities
	run    func(t *testing.T, f *fixture)
}{
	{"realm_user-add", "admin", chat.ClientCapabilities{}, func(t *testing.T, f *fixture) {
		mustProvision(t, f, chat.ProvisionUserParams{Email: "new@example.com", FullName: "New Person", Timezone: "Europe/Berlin"})
	}},
	{"realm_user-add-hidden-email", "member", chat.ClientCapabilities{}, func(t *testing.T, f *fixture) {
		mustProvision(t, f, chat.ProvisionUserParams{Email: "new@example.com", FullName: "New Person"})
	}},
	{"drafts", "member", chat.ClientCapabilities{}, goldenDrafts},
	{"scheduled_messages-reminders", "member", chat.ClientCapabilities{}, goldenScheduled},
	{"saved_snippets-navigation_view", "member", chat.ClientCapabilities{}, goldenSnippetsAndViews},
	{"realm_linkifiers-realm_playgrounds", "member", chat.ClientCapabilities{LinkifierURLTemplate: true}, goldenLinkifiers},
	{"message-update_message_flags", "member", chat.ClientCapabilities{}, goldenDirectMessageAndFlags},
	{"message-report", "admin", chat.ClientCapabilities{}, goldenReport},
	{"message-welcome_bot", "admin", chat.ClientCapabilities{}, func(t *testing.T, f *fixture) {
		mustDo(t, "TestWelcomeBotCustomMessage", errOf(f.svc.TestWelcomeBotCustomMessage(t.Context(), f.actor("admin"), chat.TestWelcomeBotCustomMessageParams{WelcomeMessageCustomText: "Welcome to **Test Org**!"})))
	}},
	{"user_topic-delete_message-bulk", "member", chat.ClientCapabilities{BulkMessageDeletion: true, EmptyTopicName: true}, goldenTopicLifecycle},
	{"user_topic-delete_message-legacy", "member", chat.ClientCapabilities{}, goldenTopicLifecycle},
	{"update_message", "member", chat.ClientCapabilities{}, goldenMessageEdit},
	{"realm-update_dict", "member", chat.ClientCapabilities{}, func(t *testing.T, f *fixture) {
		members := users.Named(f.groupIDs(t)[users.GroupMembers])
		mustDo(t, "UpdateRealm", errOf(f.svc.UpdateRealm(t.Context(), f.actor("admin"), chat.UpdateRealmParams{
			RealmEditingParams: chat.RealmEditingParams{
				MessageContentEditLimitSeconds: ptr("3600"), MoveMessagesWithinStreamLimitSeconds: ptr(`"unlimited"`),
				MessageEditHistoryVisibilityPolicy: ptr("moves"),
			},
			GroupSettings: map[string]chat.GroupSettingChange{"can_resolve_topics_group": {New: &members}},
		})))
	}},
	{"realm-update-settings", "member", chat.ClientCapabilities{}, func(t *testing.T, f *fixture) {
		mustDo(t, "UpdateRealm", errOf(f.svc.UpdateRealm(t.Context(), f.actor("owner"), chat.UpdateRealmParams{
			Settings: map[string]any{"message_retention_days": int64(30), "message_content_delete_limit_seconds": nil,
				"topics_policy": "disable_empty_topic", "default_language": "fr"},
		})))
	}},
	{"realm-update_dict-permissions", "member", chat.ClientCapabilities{}, func(t *testing.T, f *fixture) {
		everyone := users.Named(f.groupIDs(t)[users.GroupEveryone])
		mustDo(t, "UpdateRealm", errOf(f.svc.UpdateRealm(t.Context(), f.actor("owner"), chat.UpdateRealmParams{
			GroupSettings:         map[string]chat.GroupSettingChange{"can_mention_many_users_group": {New: &everyone}},
			AuthenticationMethods: map[string]bool{"Email": false},
		})))
	}},
	{"realm_domains", "member", chat.ClientCapabilities{}, func(t *testing.T, f *fixture) {
		ctx := t.Context()
		mustDo(t, "CreateRealmDomain", errOf(f.svc.CreateRealmDomain(ctx, f.actor("owner"), chat.CreateRealmDomainParams{Domain: "acme.test"})))
		mustDo(t, "PatchRealmDomain", errOf(f.svc.PatchRealmDomain(ctx, f.actor("owner"), chat.PatchRealmDomainParams{Domain: "acme.test", AllowSubdomains: true})))
		mustDo(t, "DeleteRealmDomain", errOf(f.svc.DeleteRealmDomain(ctx, f.actor("owner"), chat.DeleteRealmDomainParams{Domain: "acme.test"})))
	}},
	{"realm_user_settings_defaults", "member", chat.ClientCapabilities{}, func(t *testing.T, f *fixture) {
		mustDo(t, "UpdateRealmUserSettingsDefaults", errOf(f.svc.UpdateRealmUserSettingsDefaults(t.Context(), f.actor("admin"),
			chat.UpdateRealmUserSettingsDefaultsParams{Values: map[string]any{"emojiset": "text", "enter_sends": true}})))
	}},
	{"realm_user-update-is_deleted", "admin", chat.ClientCapabilities{}, func(t *testing.T, f *fixture) {
		ctx := t.Context()
		mustDo(t, "DeactivateUser", errOf(f.svc.DeactivateUser(ctx, f.actor("owner"), chat.DeactivateUserParams{UserID: f.ids["guest"],
			Actions: &chat.DeactivateUserActions{DeleteProfile: true}})))
		mustDo(t, "ReactivateUser", errOf(f.svc.ReactivateUser(ctx, f.actor("owner"), chat.ReactivateUserParams{UserID: f.ids["guest"]})))
	}},
	{"stream-update-default_push_notifications", "member", chat.ClientCapabilities{}, func(t *testing.T, f *fixture) {
		ctx := t.Context()
		mustDo(t, "Subscribe", errOf(f.svc.Subscribe(ctx, f.actor("admin"), chat.SubscribeParams{Subscriptions: subs("pager"),
			Principals: chat.Principals{IDs: []users.ID{f.ids["admin"], f.ids["member"]}}, NewChannelSettings: chat.NewChannelSettings{DefaultPushNotifications: true}})))
		res, err := f.svc.GetStreamID(ctx, f.actor("admin"), chat.GetStreamIDParams{Stream: "pager"})
		mustDo(t, "GetStreamID", err)
		mustDo(t, "UpdateStream", errOf(f.svc.UpdateStream(ctx, f.actor("admin"), chat.UpdateStreamParams{StreamID: res.StreamID, DefaultPushNotifications: ptr(false)})))
	}},
	{"update_message-empty_topic_name", "member", chat.ClientCapabilities{EmptyTopicName: true}, goldenMessageEdit},
	{"realm_export_consent", "admin", chat.ClientCapabilities{}, func(t *testing.T, f *fixture) {
		mustDo(t, "UpdateSettings", errOf(f.svc.UpdateSettings(t.Context(), f.actor("member"),
			chat.UpdateSettingsParams{Values: map[string]any{"allow_private_data_export": true}})))
	}},
	{"stream-subscription", "member", chat.ClientCapabilities{NotificationSettingsNull: true}, func(t *testing.T, f *fixture) {
		mustDo(t, "CreateChannel", errOf(f.svc.CreateChannel(t.Context(), f.actor("admin"), chat.CreateChannelParams{
			Name: "design", Description: "All about *design*", Subscribers: []users.ID{f.ids["admin"], f.ids["member"]},
		})))
		mustDo(t, "Subscribe", errOf(f.svc.Subscribe(t.Context(), f.actor("admin"), chat.SubscribeParams{
			Subscriptions: []chat.SubscriptionRequest{{Name: "design"}}, Principals: chat.Principals{IDs: []users.ID{f.ids["owner"]}},
		})))
	}},
	{"realm_user-update-user_group", "admin", chat.ClientCapabilities{}, func(t *testing.T, f *fixture) {
		mustDo(t, "UpdateUser", errOf(f.svc.UpdateUser(t.Context(), f.actor("owner"), chat.UpdateUserParams{
			UserID: f.ids["member"], FullName: ptr("Mia Renamed"), Role: ptr(users.RoleModerator),
		})))
		mustDo(t, "DeactivateUser", errOf(f.svc.DeactivateUser(t.Context(), f.actor("admin"), chat.DeactivateUserParams{UserID: f.ids["guest"]})))
	}},
	{"user_settings-custom_profile_fields", "member", chat.ClientCapabilities{}, func(t *testing.T, f *fixture) {
		ctx := t.Context()
		mustDo(t, "UpdateSettings", errOf(f.svc.UpdateSettings(ctx, f.actor("member"), chat.UpdateSettingsParams{
			Values: map[string]any{"twenty_four_hour_time": true, "default_language": "de", "color_scheme": int64(2)},
		})))
		mustDo(t, "CreateCustomProfileField", errOf(f.svc.CreateCustomProfileField(ctx, f.actor("admin"), chat.CreateCustomProfileFieldParams{
			Name: "Phone number", Hint: "Your work phone",
		})))
	}},
	{"default_streams-channel_folder", "member", chat.ClientCapabilities{}, func(t *testing.T, f *fixture) {
		ctx := t.Context()
		created, err := f.svc.CreateChannel(ctx, f.actor("admin"), chat.CreateChannelParams{Name: "welcome", Subscribers: []users.ID{f.ids["admin"]}})
		mustDo(t, "CreateChannel", err)
		mustDo(t, "AddDefaultStream", errOf(f.svc.AddDefaultStream(ctx, f.actor("admin"), chat.DefaultStreamParams{StreamID: created.ID})))
		mustDo(t, "CreateChannelFolder", errOf(f.svc.CreateChannelFolder(ctx, f.actor("admin"), chat.CreateChannelFolderParams{
			Name: "Engineering", Description: "Where **engineers** talk",
		})))
	}},
	{"alert_words", "member", chat.ClientCapabilities{}, goldenAlertWords},
	{"onboarding_steps", "member", chat.ClientCapabilities{}, goldenOnboardingSteps},
	{"reaction", "member", chat.ClientCapabilities{}, goldenReactions},
	{"realm_emoji-legacy", "member", chat.ClientCapabilities{}, goldenRealmEmoji},
	{"realm_emoji-individual", "member", chat.ClientCapabilities{IndividualEmojiChanges: true}, goldenRealmEmoji},
	{"typing-typing_edit_message", "member", chat.ClientCapabilities{StreamTypingNotifications: true}, goldenTyping},
	{"presence-legacy", "admin", chat.ClientCapabilities{}, goldenPresence},
	{"presence-simplified", "admin", chat.ClientCapabilities{SimplifiedPresenceEvents: true}, goldenPresence},
	{"user_status", "owner", chat.ClientCapabilities{}, goldenUserStatus},
	{"muted_users", "member", chat.ClientCapabilities{}, goldenMutedUsers},
	{"channel_folder-reorder", "member", chat.ClientCapabilities{}, goldenChannelFolderReorder},
	{"realm_bot", "member", chat.ClientCapabilities{}, goldenRealmBot},
	{"invites_changed", "admin", chat.ClientCapabilities{}, func(t *testing.T, f *fixture) { f.mustInviteLink(t, "admin", chat.CreateInviteLinkParams{}) }},
	{"realm-update", "member", chat.ClientCapabilities{}, func(t *testing.T, f *fixture) {
		ctx := t.Context()
		f.mustSubscribe(t, "admin", chat.SubscribeParams{Subscriptions: []chat.SubscriptionRequest{{Name: "announce"}}})
		mustDo(t, "UpdateRealm", errOf(f.svc.UpdateRealm(ctx, f.actor("admin"), chat.UpdateRealmParams{NewStreamAnnouncementsStreamID: ptr(int64(f.mustChannel(t, "announce").ID))})))
		mustDo(t, "UpdateRealm", errOf(f.svc.UpdateRealm(ctx, f.actor("admin"), chat.UpdateRealmParams{NewStreamAnnouncementsStreamID: ptr(int64(-1))})))
	}},
}

// randomSecrets matches the random keys events carry (bots' API keys and service tokens),
// which golden files show as "(random)".
var randomSecrets = regexp.MustCompile(`"(api_key|token)": "[A-Za-z0-9]{32}"`)

func TestGoldenEvents(t *testing.T) {
	t.Parallel()
	for _, g := range goldenEvents {
		t.Run(g.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			res, err := f.svc.RegisterQueue(t.Context(), f.actor(g.viewer), chat.RegisterQueueParams{ClientCapabilities: g.caps})
			if err != nil {
				t.Fatal(err)
			}
			g.run(t, f)
			events := f.poll(t, g.viewer, *res.QueueID, -1, true)
			got, err := json.MarshalIndent(events, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(randomSecrets.ReplaceAll(got, []byte(`"$1": "(random)"`)), '\n')
			path := filepath.Join("testdata", "events", g.name+".json")
			if *update {
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if !bytes.Equal(want, got) {
				t.Errorf("events differ from %s:\n got: %s\nwant: %s", path, got, want)
			}
		})
	}
}
