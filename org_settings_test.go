package chat_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/users"
)

// registerRealm returns register's realm section as JSON values.
func registerRealm(t *testing.T, f *fixture, who string) map[string]any {
	t.Helper()
	res, err := f.svc.RegisterQueue(t.Context(), f.actor(who), chat.RegisterQueueParams{FetchEventTypes: []string{"realm"}})
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestRegisterShowsZulipDefaultsOfANewOrganization(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	g := f.groupIDs(t)
	st := registerRealm(t, f, "member")
	for key, want := range map[string]any{
		"realm_message_retention_days":               float64(-1),
		"realm_message_content_delete_limit_seconds": float64(600),
		"realm_video_chat_provider":                  float64(1),
		"realm_enable_read_receipts":                 false,
		"realm_wildcard_mention_policy":              float64(5),
		"realm_default_language":                     "en",
		"realm_digest_weekday":                       float64(1),
		"realm_invite_required":                      true,
		"realm_jitsi_server_url":                     nil,
		"realm_signup_announcements_stream_id":       float64(-1),
		"realm_can_delete_own_message_group":         float64(g[users.GroupEveryone]),
		"realm_can_delete_any_message_group":         float64(g[users.GroupAdministrators]),
		"realm_direct_message_permission_group":      float64(g[users.GroupEveryone]),
		"realm_create_multiuse_invite_group":         float64(g[users.GroupAdministrators]),
		"realm_can_set_delete_message_policy_group":  float64(g[users.GroupModerators]),
		"realm_authentication_methods": map[string]any{
			"Email": map[string]any{"enabled": true, "available": true},
			"Dev":   map[string]any{"enabled": true, "available": true},
		},
	} {
		if diff := cmp.Diff(want, st[key]); diff != "" {
			t.Errorf("%s (-want +got):\n%s", key, diff)
		}
	}
	if gen, _ := st["server_generation"].(float64); gen <= 0 {
		t.Errorf("server_generation = %v, want the start time", st["server_generation"])
	}
}

func TestUpdateRealmSettings(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	for _, c := range []struct {
		name     string
		as       string
		p        chat.UpdateRealmParams
		wantErr  string
		wantKeys map[string]any // register keys after the change
	}{
		{name: "an administrator changes a plain setting", as: "admin",
			p:        chat.UpdateRealmParams{Settings: map[string]any{"video_chat_provider": int64(0), "enable_read_receipts": true}},
			wantKeys: map[string]any{"realm_video_chat_provider": float64(0), "realm_enable_read_receipts": true}},
		{name: "a delete limit of unlimited is null", as: "admin",
			p:        chat.UpdateRealmParams{Settings: map[string]any{"message_content_delete_limit_seconds": nil}},
			wantKeys: map[string]any{"realm_message_content_delete_limit_seconds": nil}},
		{name: "the topics policy moves mandatory_topics", as: "admin",
			p:        chat.UpdateRealmParams{Settings: map[string]any{"topics_policy": "disable_empty_topic"}},
			wantKeys: map[string]any{"realm_topics_policy": "disable_empty_topic", "realm_mandatory_topics": true}},
		{name: "an owner changes message retention", as: "owner",
			p:        chat.UpdateRealmParams{Settings: map[string]any{"message_retention_days": int64(30)}},
			wantKeys: map[string]any{"realm_message_retention_days": float64(30)}},
		{name: "an administrator may not change message retention", as: "admin",
			p: chat.UpdateRealmParams{Settings: map[string]any{"message_retention_days": int64(30)}}, wantErr: "Must be an organization owner"},
		{name: "an administrator may not change who invites", as: "admin",
			p: chat.UpdateRealmParams{GroupSettings: map[string]chat.GroupSettingChange{"can_invite_users_group": {}}}, wantErr: "Must be an organization owner"},
		{name: "a member may change nothing", as: "member",
			p: chat.UpdateRealmParams{Settings: map[string]any{"enable_read_receipts": true}}, wantErr: "Must be an organization administrator"},
		{name: "an unknown video provider", as: "admin",
			p: chat.UpdateRealmParams{Settings: map[string]any{"video_chat_provider": int64(9)}}, wantErr: "Invalid video_chat_provider 9"},
		{name: "an unknown language", as: "admin",
			p: chat.UpdateRealmParams{Settings: map[string]any{"default_language": "xx"}}, wantErr: "Invalid language 'xx'"},
		{name: "an empty name", as: "admin",
			p: chat.UpdateRealmParams{Settings: map[string]any{"name": "  "}}, wantErr: "Organization name can't be empty."},
		{name: "a wrong type", as: "admin",
			p: chat.UpdateRealmParams{Settings: map[string]any{"invite_required": "yes"}}, wantErr: "Must be an organization owner"},
		{name: "a wrong type, as owner", as: "owner",
			p: chat.UpdateRealmParams{Settings: map[string]any{"invite_required": "yes"}}, wantErr: "invite_required is not a boolean"},
		{name: "every authentication method off", as: "owner",
			p:        chat.UpdateRealmParams{AuthenticationMethods: map[string]bool{"Email": false, "Dev": true}},
			wantKeys: map[string]any{"realm_password_auth_enabled": false, "realm_email_auth_enabled": false}},
		{name: "an unknown authentication method", as: "owner",
			p: chat.UpdateRealmParams{AuthenticationMethods: map[string]bool{"GitHub": true}}, wantErr: "Invalid authentication method: GitHub. Valid methods are: [Dev Email]"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			before := f.realm(t)
			_, err := f.svc.UpdateRealm(ctx, f.actor(c.as), c.p)
			if c.wantErr != "" {
				var e *chat.Error
				if !errors.As(err, &e) || e.Msg != c.wantErr {
					t.Fatalf("error = %v, want %q", err, c.wantErr)
				}
				if diff := cmp.Diff(before, f.realm(t)); diff != "" {
					t.Errorf("a refused change altered the realm:\n%s", diff)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			st := registerRealm(t, f, "member")
			for key, want := range c.wantKeys {
				if diff := cmp.Diff(want, st[key]); diff != "" {
					t.Errorf("%s (-want +got):\n%s", key, diff)
				}
			}
		})
	}
}

func TestUpdateRealmGroupSettingRules(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	f := newFixture(t)
	g := f.groupIDs(t)
	named := func(name string) *users.GroupSetting { s := users.Named(g[name]); return &s }
	for _, c := range []struct {
		setting, group, wantErr string
		anonymous               bool
	}{
		{"can_delete_any_message_group", users.GroupEveryone, "'can_delete_any_message_group' setting cannot be set to 'role:everyone' group.", false},
		{"can_delete_own_message_group", users.GroupInternet, "'can_delete_own_message_group' setting cannot be set to 'role:internet' group.", false},
		{"can_manage_billing_group", users.GroupNobody, "'can_manage_billing_group' setting cannot be set to 'role:nobody' group.", false},
		{"can_create_web_public_channel_group", users.GroupMembers, "'can_create_web_public_channel_group' setting cannot be set to 'role:members' group.", false},
		{"can_access_all_users_group", "", "'can_access_all_users_group' must be a system user group.", true},
		{"can_delete_own_message_group", users.GroupModerators, "", false},
	} {
		t.Run(c.setting+" "+c.group, func(t *testing.T) {
			v := named(c.group)
			if c.anonymous {
				v = &users.GroupSetting{Members: []users.ID{f.ids["member"]}, Subgroups: []users.GroupID{}}
			}
			_, err := f.svc.UpdateRealm(ctx, f.actor("owner"), chat.UpdateRealmParams{GroupSettings: map[string]chat.GroupSettingChange{c.setting: {New: v}}})
			if c.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			var e *chat.Error
			if !errors.As(err, &e) || e.Msg != c.wantErr {
				t.Fatalf("error = %v, want %q", err, c.wantErr)
			}
		})
	}
}
