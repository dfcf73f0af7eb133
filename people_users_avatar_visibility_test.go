package chat_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/users"
)

// TestAvatarVisibilityUpdateForm checks, on every backend, the realm_user update a
// client_gravatar client gets when a Gravatar user's email becomes visible to it: the spec's
// avatar form (avatar_source, avatar_url null, avatar_url_medium, avatar_version), as Zulip's
// notify_avatar_url_change sends, not a bare avatar_url.
func TestAvatarVisibilityUpdateForm(t *testing.T) {
	t.Parallel()
	onEveryBackend(t, func(t *testing.T, f *fixture) {
		q := f.register(t, "guest", "realm_user")
		if _, err := f.svc.UpdateSettings(t.Context(), f.actor("member"), chat.UpdateSettingsParams{
			Values: map[string]any{"email_address_visibility": int64(users.EmailVisibleEveryone)},
		}); err != nil {
			t.Fatal(err)
		}
		var avatar map[string]any
		for _, ev := range eventsNoID(t, f.poll(t, "guest", q, -1, true)) {
			if p, ok := ev["person"].(map[string]any); ok && ev["op"] == "update" {
				if _, ok := p["avatar_url"]; ok {
					avatar = p
				}
			}
		}
		if avatar == nil {
			t.Fatal("no avatar update")
		}
		if avatar["avatar_url_medium"] == nil || avatar["avatar_url_medium"] == "" {
			t.Errorf("avatar_url_medium = %v", avatar["avatar_url_medium"])
		}
		delete(avatar, "avatar_url_medium")
		want := map[string]any{"user_id": idf(f.ids["member"]), "avatar_source": "G", "avatar_url": nil, "avatar_version": 1.0}
		if diff := cmp.Diff(want, avatar); diff != "" {
			t.Errorf("avatar update (-want +got):\n%s", diff)
		}
	})
}
