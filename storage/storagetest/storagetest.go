package storagetest

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/teamchat/chat/storage"
)

// Opener returns a new, empty store for one subtest and registers its Close with t.Cleanup.
type Opener func(t *testing.T) storage.Storage

// ImplicitRows runs the differential case of implicit rows alone (a backend's tests run it
// again with a setting that takes another path).
func ImplicitRows(t *testing.T, open Opener) { testImplicitRows(t, open) }

// Run runs the whole suite against the backend that open creates.
func Run(t *testing.T, open Opener) {
	t.Run("Contract", func(t *testing.T) { testContract(t, open) })
	t.Run("InvalidStrings", func(t *testing.T) { testInvalidStrings(t, open) })
	t.Run("GroupUpdate", func(t *testing.T) { testGroupUpdate(t, open) })
	t.Run("Realm", func(t *testing.T) { testRealm(t, open) })
	t.Run("Users", func(t *testing.T) { testUsers(t, open) })
	t.Run("Groups", func(t *testing.T) { testGroups(t, open) })
	t.Run("Queues", func(t *testing.T) { testQueues(t, open) })
	t.Run("Drafts", func(t *testing.T) { testDrafts(t, open) })
	t.Run("SavedSnippets", func(t *testing.T) { testSavedSnippets(t, open) })
	t.Run("NavigationViews", func(t *testing.T) { testNavigationViews(t, open) })
	t.Run("Linkifiers", func(t *testing.T) { testLinkifiers(t, open) })
	t.Run("Playgrounds", func(t *testing.T) { testPlaygrounds(t, open) })
	t.Run("Invites", func(t *testing.T) { testInvites(t, open) })
	t.Run("Channels", func(t *testing.T) { testChannels(t, open) })
	t.Run("ChannelEmailAddresses", func(t *testing.T) { testChannelEmailAddresses(t, open) })
	t.Run("Subscriptions", func(t *testing.T) { testSubscriptions(t, open) })
	t.Run("SubscriberCounts", func(t *testing.T) { testSubscriberCounts(t, open) })
	t.Run("SubscriberLists", func(t *testing.T) { testSubscriberLists(t, open) })
	t.Run("Prefetch", func(t *testing.T) { testPrefetch(t, open) })
	t.Run("PrefetchMessage", func(t *testing.T) { testPrefetchMessage(t, open) })
	t.Run("Messages", func(t *testing.T) { testMessages(t, open) })
	t.Run("MessageEdits", func(t *testing.T) { testMessageEdits(t, open) })
	t.Run("Reactions", func(t *testing.T) { testReactions(t, open) })
	t.Run("Search", func(t *testing.T) { testSearch(t, open) })
	t.Run("MarkRead", func(t *testing.T) { testMarkRead(t, open) })
	t.Run("ImplicitRows", func(t *testing.T) { testImplicitRows(t, open) })
	t.Run("Emoji", func(t *testing.T) { testEmoji(t, open) })
	t.Run("UserTopics", func(t *testing.T) { testUserTopics(t, open) })
	t.Run("ChannelFolders", func(t *testing.T) { testChannelFolders(t, open) })
	t.Run("UserSettings", func(t *testing.T) { testUserSettings(t, open) })
	t.Run("ProfileFields", func(t *testing.T) { testProfileFields(t, open) })
	t.Run("AlertWords", func(t *testing.T) { testAlertWords(t, open) })
	t.Run("OnboardingSteps", func(t *testing.T) { testOnboardingSteps(t, open) })
	t.Run("Devices", func(t *testing.T) { testDevices(t, open) })
	t.Run("Presence", func(t *testing.T) { testPresence(t, open) })
	t.Run("Attachments", func(t *testing.T) { testAttachments(t, open) })
	t.Run("ScheduledMessages", func(t *testing.T) { testScheduledMessages(t, open) })
	t.Run("UserStatuses", func(t *testing.T) { testUserStatuses(t, open) })
	t.Run("MutedUsers", func(t *testing.T) { testMutedUsers(t, open) })
	t.Run("ProfileFieldChanges", func(t *testing.T) { testProfileFieldChanges(t, open) })
	t.Run("BotConfigs", func(t *testing.T) { testBotConfigs(t, open) })
	t.Run("BotStorage", func(t *testing.T) { testBotStorage(t, open) })
	t.Run("ServiceJobs", func(t *testing.T) { testServiceJobs(t, open) })
	t.Run("PendingEmails", func(t *testing.T) { testPendingEmails(t, open) })
	t.Run("FollowersOf", func(t *testing.T) { testFollowersOf(t, open) })
	t.Run("EmailInvites", func(t *testing.T) { testEmailInvites(t, open) })
	t.Run("Sessions", func(t *testing.T) { testSessions(t, open) })
	t.Run("Exports", func(t *testing.T) { testExports(t, open) })
	t.Run("Archives", func(t *testing.T) { testArchives(t, open) })
}

// mustUpdate runs fn in a write transaction and fails the test on error.
func mustUpdate(t *testing.T, s storage.Storage, fn func(storage.Tx) error) {
	t.Helper()
	if err := s.Update(t.Context(), fn); err != nil {
		t.Fatalf("Update: %v", err)
	}
}

// mustView runs fn in a read transaction and fails the test on error.
func mustView(t *testing.T, s storage.Storage, fn func(storage.ReadTx) error) {
	t.Helper()
	if err := s.View(t.Context(), fn); err != nil {
		t.Fatalf("View: %v", err)
	}
}

// wantIs fails unless err matches target with errors.Is.
func wantIs(t *testing.T, what string, err, target error) {
	t.Helper()
	if !errors.Is(err, target) {
		t.Fatalf("%s: error = %v, want %v", what, err, target)
	}
}

// wantEqual fails with a diff (-want +got) when got differs from want.
func wantEqual[T any](t *testing.T, what string, want, got T, opts ...cmp.Option) {
	t.Helper()
	if diff := cmp.Diff(want, got, opts...); diff != "" {
		t.Fatalf("%s mismatch (-want +got):\n%s", what, diff)
	}
}
