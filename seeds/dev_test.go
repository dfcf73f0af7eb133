package seeds_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/seeds"
	"github.com/teamchat/chat/users"
)

// zulipDevUser is what the test checks of an account of Zulip's development organization.
type zulipDevUser struct {
	ID       users.ID
	Email    string
	FullName string
	Role     users.Role
	Timezone string
	BotType  users.BotType
	Owner    string
}

// zulipDevUsers is Zulip's development organization as populate_db makes it (realm zulip),
// in id order, written from Zulip's source independently of seeds.Dev's table: the five system
// bots of realm zulipinternal take ids 1-5, then bulk_create_users creates the humans sorted
// by email (byte-wise: AARON and ZOE first), then the bots.
var zulipDevUsers = []zulipDevUser{
	{6, "AARON@zulip.com", "aaron", users.RoleMember, "US/Pacific", 0, ""},
	{7, "ZOE@zulip.com", "Zoe", users.RoleMember, "US/Eastern", 0, ""},
	{8, "cordelia@zulip.com", "Cordelia, Lear's daughter", users.RoleMember, "UTC", 0, ""},
	{9, "desdemona@zulip.com", "Desdemona", users.RoleOwner, "Canada/Newfoundland", 0, ""},
	{10, "hamlet@zulip.com", "King Hamlet", users.RoleMember, "", 0, ""},
	{11, "iago@zulip.com", "Iago", users.RoleAdministrator, "US/Eastern", 0, ""},
	{12, "othello@zulip.com", "Othello, the Moor of Venice", users.RoleMember, "US/Pacific", 0, ""},
	{13, "polonius@zulip.com", "Polonius", users.RoleGuest, "Asia/Shanghai", 0, ""},
	{14, "prospero@zulip.com", "Prospero from The Tempest", users.RoleMember, "", 0, ""},
	{15, "shiva@zulip.com", "शिव", users.RoleModerator, "Asia/Kolkata", 0, ""},
	{16, "default-bot@zulip.com", "Zulip Default Bot", users.RoleMember, "", users.BotGeneric, "desdemona@zulip.com"},
	{17, "webhook-bot@zulip.com", "Zulip Webhook Bot", users.RoleMember, "", users.BotIncomingWebhook, "ZOE@zulip.com"},
	{18, "outgoing-webhook@zulip.com", "Outgoing Webhook", users.RoleMember, "", users.BotOutgoingWebhook, "AARON@zulip.com"},
}

// devActor logs in to the seeded store as email, the way a client of `serve --dev` does.
func devActor(t *testing.T, svc *chat.Service, email string) chat.Actor {
	t.Helper()
	res, err := svc.DevFetchAPIKey(t.Context(), chat.DevFetchAPIKeyParams{Username: email})
	if err != nil {
		t.Fatalf("dev_fetch_api_key %s: %v", email, err)
	}
	return chat.Actor{UserID: res.UserID}
}

// TestDevOrganizationUsers checks the seeded store's accounts, ids, roles, time zones, bot
// owners and special permissions against Zulip's.
func TestDevOrganizationUsers(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	svc := newSeededService(t, seeds.Dev(seeds.DevPassword))
	iago := devActor(t, svc, "iago@zulip.com")
	list, err := svc.GetUsers(ctx, iago, chat.GetUsersParams{})
	if err != nil {
		t.Fatal(err)
	}
	emails := map[users.ID]string{}
	for _, m := range list.Members {
		emails[m.UserID] = *m.DeliveryEmail
	}
	var got []zulipDevUser
	for _, m := range list.Members {
		u := zulipDevUser{ID: m.UserID, Email: *m.DeliveryEmail, FullName: m.FullName, Role: m.Role, Timezone: m.Timezone}
		if m.BotType != nil {
			u.BotType = *m.BotType
		}
		if m.BotOwnerID != nil {
			u.Owner = emails[m.BotOwnerID.ID]
		}
		got = append(got, u)
	}
	if diff := cmp.Diff(zulipDevUsers, got); diff != "" {
		t.Errorf("users (-Zulip +seeded):\n%s", diff)
	}
	presence, err := svc.GetRealmPresence(ctx, iago, chat.GetRealmPresenceParams{})
	if err != nil {
		t.Fatal(err)
	}
	if len(presence.Presences) != 10 {
		t.Errorf("presence rows for %d users, want the 10 humans: %v", len(presence.Presences), presence.Presences)
	}
	// Iago has the permission tools/test-api gives him (POST /users); Desdemona, an owner,
	// has not.
	if _, err := svc.CreateUser(ctx, iago, chat.CreateUserParams{Email: "new@zulip.com", FullName: "New User", Password: "a-long-Passphrase-4-tests"}); err != nil {
		t.Errorf("Iago cannot create users: %v", err)
	}
	if _, err := svc.CreateUser(ctx, devActor(t, svc, "desdemona@zulip.com"), chat.CreateUserParams{Email: "new2@zulip.com", FullName: "New User", Password: "a-long-Passphrase-4-tests"}); err == nil {
		t.Error("Desdemona created a user without can_create_users")
	}
}

// TestDevOrganizationProfileFields checks the custom profile fields and Iago's and Hamlet's
// values against populate_db's.
func TestDevOrganizationProfileFields(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	svc := newSeededService(t, seeds.Dev(seeds.DevPassword))
	hamlet := devActor(t, svc, "hamlet@zulip.com")
	fields, err := svc.GetCustomProfileFields(ctx, hamlet)
	if err != nil {
		t.Fatal(err)
	}
	type field struct {
		ID        users.ProfileFieldID
		Type      users.ProfileFieldType
		Name      string
		Hint      string
		FieldData string
	}
	var got []field
	for _, f := range fields.CustomFields {
		got = append(got, field{f.ID, f.Type, f.Name, f.Hint, f.FieldData})
	}
	want := []field{
		{1, users.ProfileShortText, "Phone number", "", ""},
		{2, users.ProfileLongText, "Biography", "What are you known for?", ""},
		{3, users.ProfileShortText, "Favorite food", "Or drink, if you'd prefer", ""},
		{4, users.ProfileSelect, "Favorite editor", "", `{"0":{"text":"Vim","order":"1"},"1":{"text":"Emacs","order":"2"}}`},
		{5, users.ProfileDate, "Birthday", "", ""},
		{6, users.ProfileURL, "Favorite website", "Or your personal blog's URL", ""},
		{7, users.ProfileUser, "Mentor", "", ""},
		{8, users.ProfileExternalAccount, "GitHub username", "", `{"subtype":"github"}`},
		{9, users.ProfilePronouns, "Pronouns", "What pronouns should people use to refer to you?", ""},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("profile fields (-Zulip +seeded):\n%s", diff)
	}
	list, err := svc.GetUsers(ctx, hamlet, chat.GetUsersParams{UserQueryOptions: chat.UserQueryOptions{IncludeCustomProfileFields: true}})
	if err != nil {
		t.Fatal(err)
	}
	values := map[string]map[string]string{}
	ids := map[string]users.ID{}
	for _, m := range list.Members {
		ids[m.FullName] = m.UserID
		if m.ProfileData == nil || len(*m.ProfileData) == 0 {
			continue
		}
		v := map[string]string{}
		for id, d := range *m.ProfileData {
			v[id] = d.Value
		}
		values[m.FullName] = v
	}
	wantValues := map[string]map[string]string{
		"Iago": {"1": "+1-234-567-8901", "2": "Betrayer of Othello.", "3": "Apples", "4": "1", "5": "2000-01-01",
			"6": "https://zulip.readthedocs.io/en/latest/", "7": "[" + strconv.Itoa(int(ids["King Hamlet"])) + "]", "8": "zulip", "9": "he/him"},
		"King Hamlet": {"1": "+0-11-23-456-7890", "2": "I am:\n* The prince of Denmark\n* Nephew to the usurping Claudius",
			"3": "Dark chocolate", "4": "0", "5": "1900-01-01", "6": "https://blog.zulig.org",
			"7": "[" + strconv.Itoa(int(ids["Iago"])) + "]", "8": "zulipbot", "9": "he/him"},
	}
	if diff := cmp.Diff(wantValues, values); diff != "" {
		t.Errorf("profile values (-Zulip +seeded):\n%s", diff)
	}
}

// TestDevOrganizationGroupsAndChannels checks the groups, channels (in id order), default
// channels and linkifiers against Zulip's.
func TestDevOrganizationGroupsAndChannels(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	svc := newSeededService(t, seeds.Dev(seeds.DevPassword))
	iago := devActor(t, svc, "iago@zulip.com")
	cordelia := devActor(t, svc, "cordelia@zulip.com")
	hamlet := devActor(t, svc, "hamlet@zulip.com")
	groups, err := svc.GetUserGroups(ctx, iago, chat.GetUserGroupsParams{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, g := range groups.UserGroups {
		names = append(names, g.Name)
		if g.Name == "hamletcharacters" {
			members := slices.Sorted(slices.Values(g.Members))
			if g.Description != "Characters of Hamlet" || !slices.Equal(members, []users.ID{cordelia.UserID, hamlet.UserID}) ||
				g.CreatorID == nil || *g.CreatorID != cordelia.UserID {
				t.Errorf("hamletcharacters = %+v", g)
			}
		}
	}
	sort.Strings(names)
	wantGroups := []string{"hamletcharacters", "role:administrators", "role:everyone", "role:fullmembers", "role:internet",
		"role:members", "role:moderators", "role:nobody", "role:owners"}
	if !slices.Equal(names, wantGroups) {
		t.Errorf("groups = %v, want %v", names, wantGroups)
	}
	yes := true
	streams, err := svc.GetStreams(ctx, iago, chat.GetStreamsParams{IncludeAll: &yes, IncludeDefault: &yes})
	if err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(streams.Streams, func(a, b chat.ChannelRecord) int { return int(a.StreamID - b.StreamID) })
	type channel struct {
		Name                        string
		Default, Private, WebPublic bool
	}
	var got []channel
	for _, c := range streams.Streams {
		got = append(got, channel{c.Name, *c.IsDefault, c.InviteOnly, c.IsWebPublic})
	}
	want := []channel{
		{"Zulip", true, false, false}, {"sandbox", true, false, false}, {"Verona", true, false, false},
		{"Denmark", false, false, false}, {"Rome", false, false, true}, {"Scotland", false, false, false},
		{"Venice", false, false, false}, {"core team", false, true, false},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("channels in id order (-Zulip +seeded):\n%s", diff)
	}
	linkifiers, err := svc.GetLinkifiers(ctx, iago, chat.GetLinkifiersParams{})
	if err != nil {
		t.Fatal(err)
	}
	if len(linkifiers.Linkifiers) != 3 || linkifiers.Linkifiers[0].Pattern != "#D(?P<id>[0-9]{2,8})" {
		t.Errorf("linkifiers = %+v", linkifiers.Linkifiers)
	}
}

// TestDevListUsers checks dev_list_users on the development organization: Zulip's keys, and
// its order (by the emails clients see, here the placeholders user{id}@{host}: user10@ to
// user15@ sort before user6@ to user9@), which is what a Zulip development server answers.
func TestDevListUsers(t *testing.T) {
	t.Parallel()
	svc := newSeededService(t, seeds.Dev(seeds.DevPassword))
	got, err := svc.DevListUsers(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	const url = "http://localhost:9991"
	list := func(emails ...string) []chat.DevUser {
		out := make([]chat.DevUser, len(emails))
		for i, e := range emails {
			out[i] = chat.DevUser{Email: e, RealmURL: url}
		}
		return out
	}
	want := chat.DevListUsersResult{
		DirectAdmins: list("iago@zulip.com", "desdemona@zulip.com"),
		DirectUsers: list("hamlet@zulip.com", "othello@zulip.com", "polonius@zulip.com", "prospero@zulip.com",
			"shiva@zulip.com", "AARON@zulip.com", "ZOE@zulip.com", "cordelia@zulip.com"),
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("dev_list_users (-want +got):\n%s", diff)
	}
}

// TestDevOrganizationSettingsAndIagosItems checks the settings populate_db changes and the
// drafts and scheduled messages it gives Iago for the cURL examples of Zulip's documentation.
func TestDevOrganizationSettingsAndIagosItems(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	svc := newSeededService(t, seeds.Dev(seeds.DevPassword))
	iago := devActor(t, svc, "iago@zulip.com")
	reg, err := svc.RegisterQueue(ctx, iago, chat.RegisterQueueParams{
		FetchEventTypes: []string{"realm", "user_settings", "realm_user_settings_defaults"}})
	if err != nil {
		t.Fatal(err)
	}
	raw, err := json.Marshal(reg)
	if err != nil {
		t.Fatal(err)
	}
	var state struct {
		ReadReceipts      bool  `json:"realm_enable_read_receipts"`
		ModerationChannel int64 `json:"realm_moderation_request_channel_id"`
		Settings          struct {
			EnterSends bool `json:"enter_sends"`
		} `json:"user_settings"`
		Defaults struct {
			EnterSends bool `json:"enter_sends"`
		} `json:"realm_user_settings_defaults"`
	}
	if err := json.Unmarshal(raw, &state); err != nil {
		t.Fatal(err)
	}
	if !state.ReadReceipts || !state.Settings.EnterSends || !state.Defaults.EnterSends {
		t.Errorf("read receipts %v, Iago's enter_sends %v, default enter_sends %v; want all on",
			state.ReadReceipts, state.Settings.EnterSends, state.Defaults.EnterSends)
	}
	// populate_db makes core team the moderation request channel (zulip/zulip#32811), so
	// that message reports work on the development server.
	core, err := svc.GetStreamID(ctx, iago, chat.GetStreamIDParams{Stream: "core team"})
	if err != nil {
		t.Fatal(err)
	}
	if state.ModerationChannel != int64(core.StreamID) {
		t.Errorf("realm_moderation_request_channel_id = %d, want core team's %d", state.ModerationChannel, core.StreamID)
	}
	hamlet := devActor(t, svc, "hamlet@zulip.com")
	seen, err := svc.GetMessages(ctx, hamlet, chat.GetMessagesParams{Anchor: "newest", NumBefore: 1})
	if err != nil || len(seen.Messages) == 0 {
		t.Fatalf("Hamlet's messages: %v, %v", seen.Messages, err)
	}
	if _, err := svc.ReportMessage(ctx, hamlet, chat.ReportMessageParams{MessageID: seen.Messages[0].ID, ReportType: "spam"}); err != nil {
		t.Errorf("a report on the development server: %v", err)
	}
	drafts, err := svc.GetDrafts(ctx, iago, chat.GetDraftsParams{})
	if err != nil {
		t.Fatal(err)
	}
	var contents []string
	for _, d := range drafts.Drafts {
		contents = append(contents, d.Content)
	}
	// (Drafts made through the API lose the trailing space populate_db writes to its database.)
	if want := []string{"Release 4.0 will contain ...", "Release 4.0 will contain many new features such as ..."}; !slices.Equal(contents, want) {
		t.Errorf("Iago's drafts = %q, want %q", contents, want)
	}
	scheduled, err := svc.GetScheduledMessages(ctx, iago, chat.GetScheduledMessagesParams{})
	if err != nil {
		t.Fatal(err)
	}
	due := svc.Now().AddDate(0, 0, 365).Unix()
	if len(scheduled.ScheduledMessages) != 2 {
		t.Fatalf("Iago's scheduled messages = %+v, want 2", scheduled.ScheduledMessages)
	}
	for _, m := range scheduled.ScheduledMessages {
		if m.ScheduledDeliveryTimestamp < due-60 || m.ScheduledDeliveryTimestamp > due {
			t.Errorf("scheduled message %+v is not due in 365 days (%d)", m, due)
		}
	}
	if !slices.ContainsFunc(scheduled.ScheduledMessages, func(m chat.ScheduledMessageRecord) bool {
		return m.Type == "stream" && m.Topic != nil && *m.Topic == "test-api"
	}) || !slices.ContainsFunc(scheduled.ScheduledMessages, func(m chat.ScheduledMessageRecord) bool {
		return m.Type == "private" && fmt.Sprint(m.To) == fmt.Sprint([]int64{int64(iago.UserID)})
	}) {
		t.Errorf("Iago's scheduled messages = %+v, want Denmark > test-api and a note to self", scheduled.ScheduledMessages)
	}
}

// TestDevFetchAPIKey checks dev_fetch_api_key's rules on the development organization, which
// are Zulip's DevAuthBackend's: any active account of the organization, bots included, by
// delivery email in any case; the answer carries the delivery email as stored.
func TestDevFetchAPIKey(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	svc := newSeededService(t, seeds.Dev(seeds.DevPassword))
	for _, c := range []struct {
		username, email string
		id              users.ID
	}{
		{"iago@zulip.com", "iago@zulip.com", 11},
		{"zoe@ZULIP.com", "ZOE@zulip.com", 7},
		{"default-bot@zulip.com", "default-bot@zulip.com", 16},
	} {
		got, err := svc.DevFetchAPIKey(ctx, chat.DevFetchAPIKeyParams{Username: c.username})
		if err != nil || got.Email != c.email || got.UserID != c.id || got.APIKey != seeds.DevAPIKey(c.email, seeds.DevPassword) {
			t.Errorf("dev_fetch_api_key %s = %+v, %v; want %s, id %d and its dev key", c.username, got, err, c.email, c.id)
		}
	}
	_, err := svc.DevFetchAPIKey(ctx, chat.DevFetchAPIKeyParams{Username: "nobody@zulip.com"})
	var e *chat.Error
	if !errors.As(err, &e) || e.Code != chat.CodeAuthenticationFailed {
		t.Errorf("dev_fetch_api_key of an unknown email: %v, want AUTHENTICATION_FAILED", err)
	}
}
