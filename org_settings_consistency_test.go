package chat_test

import (
	"testing"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/users"
)

// realmSettingsConsistencyCases change the organization's settings: every kind of setting and
// the derived keys they move.
func realmSettingsConsistencyCases() []consistencyCase {
	update := func(who string, p chat.UpdateRealmParams) func(t *testing.T, f *fixture) {
		return func(t *testing.T, f *fixture) {
			mustDo(t, "UpdateRealm", errOf(f.svc.UpdateRealm(t.Context(), f.actor(who), p)))
		}
	}
	return []consistencyCase{
		{method: "UpdateRealm", name: "scalar settings of every kind", run: update("owner", chat.UpdateRealmParams{Settings: map[string]any{
			"name": "Renamed Org", "description": "Now *with* emphasis", "default_language": "de",
			"message_retention_days": int64(90), "message_content_delete_limit_seconds": nil,
			"video_chat_provider": int64(0), "jitsi_server_url": "https://jitsi.example.com",
			"enable_read_receipts": true, "waiting_period_threshold": int64(3), "digest_weekday": int64(5),
			"topics_policy": "disable_empty_topic", "enable_spectator_access": true, "org_type": int64(20),
		}})},
		{method: "UpdateRealm", name: "group permissions, moving the wildcard mention policy", run: func(t *testing.T, f *fixture) {
			g := f.groupIDs(t)
			mods, everyone := users.Named(g[users.GroupModerators]), users.Named(g[users.GroupEveryone])
			anon := users.GroupSetting{Members: []users.ID{f.ids["member"]}, Subgroups: []users.GroupID{g[users.GroupAdministrators]}}
			update("owner", chat.UpdateRealmParams{GroupSettings: map[string]chat.GroupSettingChange{
				"can_mention_many_users_group":    {New: &everyone},
				"can_delete_any_message_group":    {New: &mods},
				"direct_message_permission_group": {New: &anon},
				"can_invite_users_group":          {New: &mods},
			}})(t, f)
		}},
		{method: "UpdateRealm", name: "announcement channels", setup: func(t *testing.T, f *fixture) {
			f.mustSubscribe(t, "admin", chat.SubscribeParams{Subscriptions: subs("news")})
		}, run: func(t *testing.T, f *fixture) {
			id := int64(f.mustChannel(t, "news").ID)
			update("admin", chat.UpdateRealmParams{SignupAnnouncementsStreamID: &id, ZulipUpdateAnnouncementsStreamID: &id, ModerationRequestChannelID: &id})(t, f)
		}},
		{method: "CreateRealmDomain", name: "two domains", run: func(t *testing.T, f *fixture) {
			mustDo(t, "CreateRealmDomain", errOf(f.svc.CreateRealmDomain(t.Context(), f.actor("owner"), chat.CreateRealmDomainParams{Domain: "Zulip.ORG"})))
			mustDo(t, "CreateRealmDomain", errOf(f.svc.CreateRealmDomain(t.Context(), f.actor("owner"), chat.CreateRealmDomainParams{Domain: "acme.test", AllowSubdomains: true})))
		}},
		{method: "PatchRealmDomain", name: "allow subdomains", setup: oneDomain, run: func(t *testing.T, f *fixture) {
			mustDo(t, "PatchRealmDomain", errOf(f.svc.PatchRealmDomain(t.Context(), f.actor("owner"), chat.PatchRealmDomainParams{Domain: "acme.test", AllowSubdomains: true})))
		}},
		{method: "DeleteRealmDomain", name: "the last domain, lifting the restriction", setup: func(t *testing.T, f *fixture) {
			oneDomain(t, f)
			update("owner", chat.UpdateRealmParams{Settings: map[string]any{"emails_restricted_to_domains": true}})(t, f)
		}, run: func(t *testing.T, f *fixture) {
			mustDo(t, "DeleteRealmDomain", errOf(f.svc.DeleteRealmDomain(t.Context(), f.actor("owner"), chat.DeleteRealmDomainParams{Domain: "acme.test"})))
		}},
		{method: "UpdateRealmUserSettingsDefaults", name: "three settings", run: func(t *testing.T, f *fixture) {
			mustDo(t, "UpdateRealmUserSettingsDefaults", errOf(f.svc.UpdateRealmUserSettingsDefaults(t.Context(), f.actor("admin"), chat.UpdateRealmUserSettingsDefaultsParams{
				Values: map[string]any{"twenty_four_hour_time": true, "color_scheme": int64(2), "email_address_visibility": int64(1)}})))
		}},
		{method: "UpdateRealm", name: "authentication methods", run: update("owner", chat.UpdateRealmParams{
			AuthenticationMethods: map[string]bool{"Email": false}})},
	}
}

func oneDomain(t *testing.T, f *fixture) {
	t.Helper()
	mustDo(t, "CreateRealmDomain", errOf(f.svc.CreateRealmDomain(t.Context(), f.actor("owner"), chat.CreateRealmDomainParams{Domain: "acme.test"})))
}
