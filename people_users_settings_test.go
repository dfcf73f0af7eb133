package chat_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/users"
)

// settingsOf reads name's user_settings through register.
func (f *fixture) settingsOf(t *testing.T, name string) map[string]any {
	t.Helper()
	res, err := f.svc.RegisterQueue(t.Context(), f.actor(name), chat.RegisterQueueParams{FetchEventTypes: []string{"user_settings"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.UserSettingsState == nil {
		t.Fatal("register has no user_settings")
	}
	return res.UserSettings
}

func TestUserSettingsRegisterDefaults(t *testing.T) {
	t.Parallel()
	f := newUsersFixture(t)
	got := f.settingsOf(t, "member")
	for _, st := range users.SettingsTable() {
		if _, ok := got[st.Name]; !ok {
			t.Errorf("user_settings lacks %s", st.Name)
		}
	}
	for name, want := range map[string]any{
		"web_home_view": "inbox", "default_language": "en", "color_scheme": int64(1), "enter_sends": false,
		"timezone": "Europe/Paris", "email_address_visibility": int64(users.EmailVisibleAdmins),
		"emojiset": "google", "notification_sound": "zulip", "starred_message_counts": true,
	} {
		if got[name] != want {
			t.Errorf("user_settings[%s] = %#v, want %#v", name, got[name], want)
		}
	}
	if got["emojiset_choices"] == nil || got["available_notification_sounds"] == nil {
		t.Error("user_settings lacks emojiset_choices or available_notification_sounds")
	}
}

func TestUpdateSettingsEvents(t *testing.T) {
	t.Parallel()
	f := newUsersFixture(t)
	ctx := t.Context()
	q := f.register(t, "member", "user_settings", "realm_user")
	other := f.register(t, "target", "user_settings", "realm_user")
	_, err := f.svc.UpdateSettings(ctx, f.actor("member"), chat.UpdateSettingsParams{
		Values:   map[string]any{"default_language": "de", "color_scheme": int64(2), "enter_sends": false},
		Timezone: ptr("Asia/Tokyo"), FullName: ptr(" Mia  New "),
	})
	if err != nil {
		t.Fatal(err)
	}
	id := idf(f.ids["member"])
	want := []map[string]any{
		{"type": "user_settings", "op": "update", "property": "color_scheme", "value": 2.0},
		{"type": "user_settings", "op": "update", "property": "default_language", "value": "de", "language_name": "Deutsch"},
		{"type": "user_settings", "op": "update", "property": "timezone", "value": "Asia/Tokyo"},
		{"type": "realm_user", "op": "update", "person": map[string]any{"user_id": id, "full_name": "Mia  New"}},
		{"type": "realm_user", "op": "update", "person": map[string]any{"user_id": id, "timezone": "Asia/Tokyo", "email": "user" + itoa(int64(f.ids["member"])) + "@chat.example.com"}},
	}
	if diff := cmp.Diff(want, eventsNoID(t, f.poll(t, "member", q, -1, true))); diff != "" {
		t.Errorf("own events (-want +got):\n%s", diff)
	}
	// Others see the realm_user updates only.
	if diff := cmp.Diff(want[3:], eventsNoID(t, f.poll(t, "target", other, -1, true))); diff != "" {
		t.Errorf("other user's events (-want +got):\n%s", diff)
	}
	got := f.settingsOf(t, "member")
	if got["color_scheme"] != int64(2) || got["default_language"] != "de" || got["timezone"] != "Asia/Tokyo" {
		t.Errorf("settings after update = %v", got)
	}
	// Setting the same values again changes nothing and sends nothing.
	if _, err := f.svc.UpdateSettings(ctx, f.actor("member"), chat.UpdateSettingsParams{
		Values: map[string]any{"default_language": "de", "color_scheme": int64(2)}, Timezone: ptr("Asia/Tokyo"), FullName: ptr("Mia  New"),
	}); err != nil {
		t.Fatal(err)
	}
	if evs := f.poll(t, "member", q, 4, true); len(evs) != 0 {
		t.Errorf("no-op update sent %v", eventsNoID(t, evs))
	}
}

func TestUpdateSettingsRefusals(t *testing.T) {
	t.Parallel()
	f := newUsersFixture(t)
	ctx := t.Context()
	tests := []struct {
		name string
		as   string
		p    chat.UpdateSettingsParams
		code chat.Code
		msg  string
	}{
		{"value not allowed", "member", chat.UpdateSettingsParams{Values: map[string]any{"color_scheme": int64(4)}}, chat.CodeBadRequest, "Invalid color_scheme"},
		{"web_home_view", "member", chat.UpdateSettingsParams{Values: map[string]any{"web_home_view": "recent_topics"}}, chat.CodeBadRequest, "Invalid web_home_view"},
		{"wrong type", "member", chat.UpdateSettingsParams{Values: map[string]any{"enter_sends": "yes"}}, chat.CodeBadRequest, "enter_sends is not a boolean"},
		{"unknown setting", "member", chat.UpdateSettingsParams{Values: map[string]any{"dense_mode": true}}, chat.CodeBadRequest, "Invalid setting dense_mode"},
		{"language", "member", chat.UpdateSettingsParams{Values: map[string]any{"default_language": "xx"}}, chat.CodeBadRequest, "Invalid default_language"},
		{"sound", "member", chat.UpdateSettingsParams{Values: map[string]any{"notification_sound": "boom"}}, chat.CodeBadRequest, "Invalid notification sound 'boom'"},
		{"batching period", "member", chat.UpdateSettingsParams{Values: map[string]any{"email_notifications_batching_period_seconds": int64(0)}}, chat.CodeBadRequest, "Invalid email_notifications_batching_period_seconds"},
		{"time zone", "member", chat.UpdateSettingsParams{Timezone: ptr("Mars/Olympus")}, chat.CodeBadRequest, "Invalid timezone"},
		{"name", "member", chat.UpdateSettingsParams{FullName: ptr("  ")}, chat.CodeBadRequest, "Name must not be empty!"},
		{"bad email", "member", chat.UpdateSettingsParams{Email: ptr("nope")}, chat.CodeBadRequest, "Invalid email address."},
		{"taken email", "member", chat.UpdateSettingsParams{Email: ptr("ADMIN@example.com")}, chat.CodeBadRequest, "Email 'ADMIN@example.com' already in use"},
		{"wrong old password", "member", chat.UpdateSettingsParams{OldPassword: ptr("nope"), NewPassword: ptr("a new password")}, chat.CodeBadRequest, "Wrong password!"},
		{"no old password", "member", chat.UpdateSettingsParams{NewPassword: ptr("a new password")}, chat.CodeBadRequest, "Wrong password!"},
		{"weak new password", "member", chat.UpdateSettingsParams{OldPassword: ptr(testPassword), NewPassword: ptr("x")}, chat.CodeBadRequest, "New password is too weak!"},
		{"valid then invalid", "member", chat.UpdateSettingsParams{Values: map[string]any{"enter_sends": true, "emojiset": "apple"}}, chat.CodeBadRequest, "Invalid emojiset"},
		{"bot", "bot", chat.UpdateSettingsParams{Values: map[string]any{"enter_sends": true}}, chat.CodeBadRequest, "This endpoint does not accept bot requests."},
		{"targets by a non-admin", "moderator", chat.UpdateSettingsParams{Values: map[string]any{"enter_sends": true}, TargetUsers: &chat.TargetUsers{UserIDs: []users.ID{1}, SkipIfAlreadyEdited: ptr(false)}}, chat.CodeUnauthorizedPrincipal, "Must be an organization administrator"},
		{"targets without skip", "admin", chat.UpdateSettingsParams{Values: map[string]any{"enter_sends": true}, TargetUsers: &chat.TargetUsers{UserIDs: []users.ID{1}}}, chat.CodeBadRequest, `target_users["skip_if_already_edited"] field is missing`},
		{"targets empty", "admin", chat.UpdateSettingsParams{Values: map[string]any{"enter_sends": true}, TargetUsers: &chat.TargetUsers{SkipIfAlreadyEdited: ptr(false)}}, chat.CodeBadRequest, "Either user_ids or group_ids must be provided."},
		{"targets sensitive", "admin", chat.UpdateSettingsParams{Values: map[string]any{"presence_enabled": false}, TargetUsers: &chat.TargetUsers{UserIDs: []users.ID{1}, SkipIfAlreadyEdited: ptr(false)}}, chat.CodeBadRequest, "Cannot change this setting for other users."},
		{"targets time zone", "admin", chat.UpdateSettingsParams{Timezone: ptr("UTC"), TargetUsers: &chat.TargetUsers{UserIDs: []users.ID{1}, SkipIfAlreadyEdited: ptr(false)}}, chat.CodeBadRequest, "Cannot change this setting for other users."},
		{"targets unknown user", "admin", chat.UpdateSettingsParams{Values: map[string]any{"enter_sends": true}, TargetUsers: &chat.TargetUsers{UserIDs: []users.ID{999}, SkipIfAlreadyEdited: ptr(false)}}, chat.CodeBadRequest, "Invalid user ID: 999"},
		{"targets unknown group", "admin", chat.UpdateSettingsParams{Values: map[string]any{"enter_sends": true}, TargetUsers: &chat.TargetUsers{GroupIDs: []users.GroupID{999}, SkipIfAlreadyEdited: ptr(false)}}, chat.CodeBadRequest, "Invalid user group"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := f.snapshot(t)
			settings := f.settingsOf(t, tt.as)
			_, err := f.svc.UpdateSettings(ctx, f.actor(tt.as), tt.p)
			wantError(t, err, tt.code, http.StatusBadRequest, tt.msg)
			if f.snapshot(t) != before || !cmp.Equal(settings, f.settingsOf(t, tt.as)) {
				t.Error("refused update changed the store")
			}
		})
	}
}

func TestUpdateSettingsPassword(t *testing.T) {
	t.Parallel()
	f := newUsersFixture(t)
	ctx := t.Context()
	if _, err := f.svc.UpdateSettings(ctx, f.actor("member"), chat.UpdateSettingsParams{OldPassword: ptr(testPassword), NewPassword: ptr("brand new secret")}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.FetchAPIKey(ctx, chat.FetchAPIKeyParams{Username: "member@example.com", Password: "brand new secret"}); err != nil {
		t.Errorf("new password refused: %v", err)
	}
	_, err := f.svc.FetchAPIKey(ctx, chat.FetchAPIKeyParams{Username: "member@example.com", Password: testPassword})
	wantError(t, err, chat.CodeAuthenticationFailed, http.StatusUnauthorized, "")
}

func TestEmailChangeConfirmation(t *testing.T) {
	t.Parallel()
	f := newUsersFixture(t)
	ctx := t.Context()
	q := f.register(t, "admin", "realm_user")
	if _, err := f.svc.UpdateSettings(ctx, f.actor("member"), chat.UpdateSettingsParams{Email: ptr("mia@example.com")}); err != nil {
		t.Fatal(err)
	}
	if got := f.mustUser(t, "member").Email; got != "Member@Example.com" {
		t.Fatalf("email changed before confirmation: %q", got)
	}
	key, ok := f.emailKeys.Load(f.ids["member"])
	if !ok {
		t.Fatal("no confirmation key was handed out")
	}
	_, err := f.svc.ConfirmEmailChange(ctx, chat.ConfirmEmailChangeParams{Key: "wrong"})
	wantError(t, err, chat.CodeBadRequest, http.StatusBadRequest, "The confirmation link has expired or been deactivated.")
	res, err := f.svc.ConfirmEmailChange(ctx, chat.ConfirmEmailChangeParams{Key: key.(string)})
	if err != nil || res.NewEmail != "mia@example.com" || f.mustUser(t, "member").Email != "mia@example.com" {
		t.Fatalf("confirmation = %+v, %v", res, err)
	}
	evs := eventsNoID(t, f.poll(t, "admin", q, -1, true))
	if len(evs) == 0 || evs[0]["person"].(map[string]any)["delivery_email"] != "mia@example.com" {
		t.Errorf("events = %v", evs)
	}
	_, err = f.svc.ConfirmEmailChange(ctx, chat.ConfirmEmailChangeParams{Key: key.(string)})
	wantError(t, err, chat.CodeBadRequest, http.StatusBadRequest, "The confirmation link has expired or been deactivated.")
	// Keys expire.
	if _, err := f.svc.UpdateSettings(ctx, f.actor("member"), chat.UpdateSettingsParams{Email: ptr("mia2@example.com")}); err != nil {
		t.Fatal(err)
	}
	key, _ = f.emailKeys.Load(f.ids["member"])
	f.clock.Advance(chat.EmailChangeValidity + time.Second)
	_, err = f.svc.ConfirmEmailChange(ctx, chat.ConfirmEmailChangeParams{Key: key.(string)})
	wantError(t, err, chat.CodeBadRequest, http.StatusBadRequest, "The confirmation link has expired or been deactivated.")
}

func TestUpdateSettingsTargetUsers(t *testing.T) {
	t.Parallel()
	f := newUsersFixture(t)
	ctx := t.Context()
	// The target chose its own emojiset; the member did not.
	if _, err := f.svc.UpdateSettings(ctx, f.actor("target"), chat.UpdateSettingsParams{Values: map[string]any{"emojiset": "twitter"}}); err != nil {
		t.Fatal(err)
	}
	q := f.register(t, "member", "user_settings")
	members := f.groupIDs(t)[users.GroupMembers]
	_, err := f.svc.UpdateSettings(ctx, f.actor("admin"), chat.UpdateSettingsParams{
		Values:      map[string]any{"emojiset": "text"},
		TargetUsers: &chat.TargetUsers{GroupIDs: []users.GroupID{members}, UserIDs: []users.ID{f.ids["deactivated"], f.ids["bot"]}, SkipIfAlreadyEdited: ptr(true)},
	})
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"member": "text", "target": "twitter", "owner": "text", "guest": "google"} {
		if got := f.settingsOf(t, name)["emojiset"]; got != want {
			t.Errorf("%s's emojiset = %v, want %v", name, got, want)
		}
	}
	var deactivated map[string]any
	f.setUser(t, "deactivated", func(u *users.User) { u.IsActive = true })
	deactivated = f.settingsOf(t, "deactivated")
	if deactivated["emojiset"] != "text" {
		t.Errorf("deactivated user named in user_ids was skipped: %v", deactivated["emojiset"])
	}
	want := []map[string]any{{"type": "user_settings", "op": "update", "property": "emojiset", "value": "text"}}
	if diff := cmp.Diff(want, eventsNoID(t, f.poll(t, "member", q, -1, true))); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	// Without skipping, the target's own choice is overridden too.
	if _, err := f.svc.UpdateSettings(ctx, f.actor("admin"), chat.UpdateSettingsParams{
		Values: map[string]any{"emojiset": "text"}, TargetUsers: &chat.TargetUsers{UserIDs: []users.ID{f.ids["target"]}, SkipIfAlreadyEdited: ptr(false)},
	}); err != nil {
		t.Fatal(err)
	}
	if got := f.settingsOf(t, "target")["emojiset"]; got != "text" {
		t.Errorf("target's emojiset = %v", got)
	}
}
