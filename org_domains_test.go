package chat_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	chat "github.com/teamchat/chat"
)

func TestRealmDomains(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	f := newFixture(t)
	res, err := f.svc.CreateRealmDomain(ctx, f.actor("owner"), chat.CreateRealmDomainParams{Domain: " Zulip.ORG "})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]any{int64(1), "zulip.org"}, res.NewDomain); diff != "" {
		t.Errorf("new_domain (-want +got):\n%s", diff)
	}
	for _, c := range []struct {
		name, as, domain, want string
	}{
		{"an administrator", "admin", "acme.test", "Must be an organization owner"},
		{"a duplicate", "owner", "zulip.org", "The domain zulip.org is already a part of your organization."},
		{"no dot", "owner", "localhost", "Invalid domain: Domain must have at least one dot (.)"},
		{"a bad character", "owner", "ex_ample.com", "Invalid domain: Domain can only have letters, numbers, '.' and '-'s."},
		{"a leading dash", "owner", "-a.com", "Invalid domain: Subdomains cannot start or end with a '-'."},
	} {
		_, err := f.svc.CreateRealmDomain(ctx, f.actor(c.as), chat.CreateRealmDomainParams{Domain: c.domain})
		wantMsg(t, c.name, err, c.want)
	}
	wantMsg(t, "patch unknown", errOf(f.svc.PatchRealmDomain(ctx, f.actor("owner"), chat.PatchRealmDomainParams{Domain: "nope.org"})), "No entry found for domain nope.org.")
	wantMsg(t, "delete unknown", errOf(f.svc.DeleteRealmDomain(ctx, f.actor("owner"), chat.DeleteRealmDomainParams{Domain: "nope.org"})), "No entry found for domain nope.org.")
	got, err := f.svc.GetRealmDomains(ctx, f.actor("guest"))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]chat.RealmDomainRecord{{Domain: "zulip.org"}}, got.Domains); diff != "" {
		t.Errorf("domains (-want +got):\n%s", diff)
	}
}

func TestNewUsersTakeTheOrganizationsSettingDefaults(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	f := newFixture(t)
	if _, err := f.svc.UpdateRealmUserSettingsDefaults(ctx, f.actor("admin"), chat.UpdateRealmUserSettingsDefaultsParams{
		Values: map[string]any{"twenty_four_hour_time": true, "emojiset": "text", "email_address_visibility": int64(1)},
	}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		values map[string]any
		want   string
	}{
		{map[string]any{"enable_login_emails": false}, "Invalid setting enable_login_emails"},
		{map[string]any{"emojiset": "comic"}, "Invalid emojiset"},
		{map[string]any{"color_scheme": "dark"}, "color_scheme is not an integer"},
	} {
		wantMsg(t, "refused default", errOf(f.svc.UpdateRealmUserSettingsDefaults(ctx, f.actor("admin"), chat.UpdateRealmUserSettingsDefaultsParams{Values: c.values})), c.want)
	}
	wantMsg(t, "a member", errOf(f.svc.UpdateRealmUserSettingsDefaults(ctx, f.actor("member"), chat.UpdateRealmUserSettingsDefaultsParams{Values: map[string]any{"enter_sends": true}})), "Must be an organization administrator")
	f.ids["late"] = mustProvision(t, f, chat.ProvisionUserParams{Email: "late@example.com", FullName: "Late Comer"}).UserID
	res, err := f.svc.RegisterQueue(ctx, f.actor("late"), chat.RegisterQueueParams{FetchEventTypes: []string{"user_settings"}})
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]any{"twenty_four_hour_time": true, "emojiset": "text", "email_address_visibility": int64(1), "enter_sends": false} {
		if got := res.UserSettings[name]; got != want {
			t.Errorf("new user's %s = %v, want %v", name, got, want)
		}
	}
}
