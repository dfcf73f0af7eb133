package chat_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/users"
)

// refusal is one call that must fail with a BAD_REQUEST (or the given code) and change
// nothing.
type refusal struct {
	name string
	call func() error
	code chat.Code
	msg  string
}

// checkRefusals runs each refusal and checks, for every viewer, that a fresh register is the
// same before and after and that no event was sent.
func checkRefusals(t *testing.T, f *fixture, cases []refusal) {
	t.Helper()
	viewers := []string{"owner", "member"}
	before := map[string]map[string]any{}
	queues := map[string]string{}
	for _, v := range viewers {
		queues[v], before[v] = snapshot(t, f, v)
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code := tc.code
			if code == "" {
				code = chat.CodeBadRequest
			}
			wantError(t, tc.call(), code, code.Status(), tc.msg)
		})
	}
	for _, v := range viewers {
		if evs := f.poll(t, v, queues[v], -1, true); len(evs) != 0 {
			t.Errorf("%s got events after refusals: %v", v, eventJSON(t, evs))
		}
		_, after := snapshot(t, f, v)
		if diff := cmp.Diff(before[v], after); diff != "" {
			t.Errorf("%s: state changed by refusals (-before +after):\n%s", v, diff)
		}
	}
}

func TestUserStatus(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	q := f.register(t, "owner", "user_status", "user_settings")
	mustDo(t, "UpdateStatus", errOf(f.svc.UpdateStatus(ctx, f.actor("member"), chat.UpdateStatusParams{
		StatusText: ptr("  In a meeting "), EmojiName: ptr("calendar"), EmojiCode: ptr("1f4c5"),
	})))
	got, err := f.svc.GetUserStatus(ctx, f.actor("guest"), chat.GetUserStatusParams{UserID: f.ids["member"]})
	mustDo(t, "GetUserStatus", err)
	want := chat.UserStatus{StatusText: "In a meeting", EmojiName: "calendar", EmojiCode: "1f4c5", ReactionType: "unicode_emoji"}
	if diff := cmp.Diff(want, got.Status); diff != "" {
		t.Errorf("status (-want +got):\n%s", diff)
	}
	// Away turns presence off; an empty emoji name clears the emoji; the text stays.
	mustDo(t, "UpdateStatus away", errOf(f.svc.UpdateStatus(ctx, f.actor("member"), chat.UpdateStatusParams{Away: ptr(true), EmojiName: ptr("")})))
	got, err = f.svc.GetUserStatus(ctx, f.actor("owner"), chat.GetUserStatusParams{UserID: f.ids["member"]})
	mustDo(t, "GetUserStatus", err)
	if diff := cmp.Diff(chat.UserStatus{Away: true, StatusText: "In a meeting"}, got.Status); diff != "" {
		t.Errorf("status after away (-want +got):\n%s", diff)
	}
	// An administrator sets someone's text; the zulip extra emoji is found by name.
	mustDo(t, "UpdateStatusForUser", errOf(f.svc.UpdateStatusForUser(ctx, f.actor("admin"), chat.UpdateStatusForUserParams{
		UserID: f.ids["guest"], UpdateStatusParams: chat.UpdateStatusParams{StatusText: ptr("Vacation"), EmojiName: ptr("zulip")},
	})))
	// A unicode emoji found by its name alone.
	mustDo(t, "UpdateStatus by name", errOf(f.svc.UpdateStatus(ctx, f.actor("admin"), chat.UpdateStatusParams{EmojiName: ptr("smile")})))
	byName, err := f.svc.GetUserStatus(ctx, f.actor("owner"), chat.GetUserStatusParams{UserID: f.ids["admin"]})
	mustDo(t, "GetUserStatus", err)
	if byName.Status.ReactionType != "unicode_emoji" || byName.Status.EmojiCode == "" {
		t.Errorf("status emoji by name: %+v", byName.Status)
	}
	events := eventJSON(t, f.poll(t, "owner", q, -1, true))
	events = events[:len(events)-1]
	wantEvents := []map[string]any{
		{"type": "user_status", "user_id": float64(f.ids["member"]), "status_text": "In a meeting", "emoji_name": "calendar", "emoji_code": "1f4c5", "reaction_type": "unicode_emoji"},
		{"type": "user_status", "user_id": float64(f.ids["member"]), "away": true, "emoji_name": "", "emoji_code": "", "reaction_type": "unicode_emoji"},
		{"type": "user_status", "user_id": float64(f.ids["guest"]), "status_text": "Vacation", "emoji_name": "zulip", "emoji_code": "zulip", "reaction_type": "zulip_extra_emoji"},
	}
	for _, e := range events {
		delete(e, "id")
	}
	if diff := cmp.Diff(wantEvents, events); diff != "" {
		t.Errorf("owner's events (-want +got):\n%s", diff)
	}
	reg, err := f.svc.RegisterQueue(ctx, f.actor("owner"), chat.RegisterQueueParams{FetchEventTypes: []string{"user_status", "user_settings"}})
	mustDo(t, "RegisterQueue", err)
	wantState := map[string]chat.UserStatus{
		fmtInt(int64(f.ids["admin"])):  {EmojiName: "smile", EmojiCode: "263a", ReactionType: "unicode_emoji"},
		fmtInt(int64(f.ids["member"])): {Away: true, StatusText: "In a meeting"},
		fmtInt(int64(f.ids["guest"])):  {StatusText: "Vacation", EmojiName: "zulip", EmojiCode: "zulip", ReactionType: "zulip_extra_emoji"},
	}
	if diff := cmp.Diff(wantState, reg.UserStatus); diff != "" {
		t.Errorf("register user_status (-want +got):\n%s", diff)
	}
	// The member's own settings say presence is off.
	own, err := f.svc.RegisterQueue(ctx, f.actor("member"), chat.RegisterQueueParams{FetchEventTypes: []string{"user_settings"}})
	mustDo(t, "RegisterQueue", err)
	if v := toJSONMap(t, own)["user_settings"].(map[string]any)["presence_enabled"]; v != false {
		t.Errorf("presence_enabled after away = %v", v)
	}
}

func TestUserStatusRefusals(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	mustDo(t, "UpdateStatus", errOf(f.svc.UpdateStatus(ctx, f.actor("member"), chat.UpdateStatusParams{StatusText: ptr("kept")})))
	set := func(who string, p chat.UpdateStatusParams) func() error {
		return func() error { return errOf(f.svc.UpdateStatus(ctx, f.actor(who), p)) }
	}
	checkRefusals(t, f, []refusal{
		{"nothing given", set("member", chat.UpdateStatusParams{}), "", "Client did not pass any new values."},
		{"text too long", set("member", chat.UpdateStatusParams{StatusText: ptr(strings.Repeat("x", 61))}), "", "status_text is too long (limit: 60 characters)"},
		{"code without name", set("member", chat.UpdateStatusParams{StatusText: ptr("x"), EmojiCode: ptr("1f600")}), "", "Client must pass emoji_name if they pass either emoji_code or reaction_type."},
		{"unknown emoji name", set("member", chat.UpdateStatusParams{EmojiName: ptr("no_such_emoji")}), "", "Emoji 'no_such_emoji' does not exist"},
		{"bad emoji code", set("member", chat.UpdateStatusParams{EmojiName: ptr("smile"), EmojiCode: ptr("xyz")}), "", "Invalid emoji code."},
		{"bad reaction type", set("member", chat.UpdateStatusParams{EmojiName: ptr("smile"), EmojiCode: ptr("1f600"), ReactionType: ptr("other")}), "", "Invalid emoji type."},
		{"no custom emoji", set("member", chat.UpdateStatusParams{EmojiName: ptr("party"), EmojiCode: ptr("1"), ReactionType: ptr("realm_emoji")}), "", "Invalid custom emoji."},
		{"bots have no status", set("bot", chat.UpdateStatusParams{StatusText: ptr("beep")}), "", "This endpoint does not accept bot requests."},
		{"not an administrator", func() error {
			return errOf(f.svc.UpdateStatusForUser(ctx, f.actor("member"), chat.UpdateStatusForUserParams{UserID: f.ids["guest"], UpdateStatusParams: chat.UpdateStatusParams{StatusText: ptr("x")}}))
		}, "", "Insufficient permission"},
		{"a bot target", func() error {
			return errOf(f.svc.UpdateStatusForUser(ctx, f.actor("admin"), chat.UpdateStatusForUserParams{UserID: f.ids["bot"], UpdateStatusParams: chat.UpdateStatusParams{StatusText: ptr("x")}}))
		}, "", "No such user"},
		{"an unknown target", func() error {
			return errOf(f.svc.UpdateStatusForUser(ctx, f.actor("admin"), chat.UpdateStatusForUserParams{UserID: 9999, UpdateStatusParams: chat.UpdateStatusParams{StatusText: ptr("x")}}))
		}, "", "No such user"},
		{"away cannot be set for others", func() error {
			return errOf(f.svc.UpdateStatusForUser(ctx, f.actor("admin"), chat.UpdateStatusForUserParams{UserID: f.ids["guest"], UpdateStatusParams: chat.UpdateStatusParams{Away: ptr(true)}}))
		}, "", "Client did not pass any new values."},
		{"anonymous", set("", chat.UpdateStatusParams{StatusText: ptr("x")}), chat.CodeUnauthorized, ""},
	})
	if _, err := f.svc.GetUserStatus(ctx, f.actor("member"), chat.GetUserStatusParams{UserID: f.ids["bot"]}); err == nil {
		t.Error("GetUserStatus of a bot succeeded")
	}
}

func TestMuteUser(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	before := mustSendDirect(t, f, "guest", "before the mute", "member")
	q := f.register(t, "member", "muted_users", "update_message_flags", "message")
	f.clock.Advance(1000 * 1e9)
	mustDo(t, "MuteUser", errOf(f.svc.MuteUser(ctx, f.actor("member"), chat.MuteUserParams{MutedUserID: f.ids["guest"]})))
	after := mustSendDirect(t, f, "guest", "after the mute", "member")
	events := eventJSON(t, f.poll(t, "member", q, -1, true))
	if len(events) != 3 {
		t.Fatalf("events = %v", events)
	}
	if events[0]["type"] != "update_message_flags" || !cmp.Equal(events[0]["messages"], []any{float64(before)}) || events[0]["flag"] != "read" || events[0]["op"] != "add" {
		t.Errorf("first event %v, want the earlier message marked read", events[0])
	}
	wantMuted := []any{map[string]any{"id": float64(f.ids["guest"]), "timestamp": float64(f.clock.Now().Unix())}}
	if events[1]["type"] != "muted_users" || !cmp.Equal(events[1]["muted_users"], wantMuted) {
		t.Errorf("second event %v, want muted_users %v", events[1], wantMuted)
	}
	if events[2]["type"] != "message" || !cmp.Equal(events[2]["flags"], []any{"read"}) {
		t.Errorf("message from a muted sender: %v, want flags [read]", events[2])
	}
	res := fetch(t, f, "member", chat.GetMessagesParams{Anchor: "newest", NumBefore: 5})
	for _, m := range res.Messages {
		if m.ID == after && (m.Flags == nil || !cmp.Equal(*m.Flags, []string{"read"})) {
			t.Errorf("stored flags %v", m.Flags)
		}
	}
	mustDo(t, "UnmuteUser", errOf(f.svc.UnmuteUser(ctx, f.actor("member"), chat.MuteUserParams{MutedUserID: f.ids["guest"]})))
	third := mustSendDirect(t, f, "guest", "after unmuting", "member")
	events = eventJSON(t, f.poll(t, "member", q, -1, true))
	last := events[len(events)-1]
	if last["type"] != "message" || len(last["flags"].([]any)) != 0 || num(last["message"].(map[string]any)["id"]) != float64(third) {
		t.Errorf("message after unmuting: %v, want unread", last)
	}
	if events[len(events)-2]["type"] != "muted_users" || len(events[len(events)-2]["muted_users"].([]any)) != 0 {
		t.Errorf("unmute event %v", events[len(events)-2])
	}
	// Muting a deactivated user or a bot works.
	mustDo(t, "MuteUser bot", errOf(f.svc.MuteUser(ctx, f.actor("member"), chat.MuteUserParams{MutedUserID: f.ids["bot"]})))
}

func TestMuteUserRefusals(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	mustDo(t, "MuteUser", errOf(f.svc.MuteUser(ctx, f.actor("member"), chat.MuteUserParams{MutedUserID: f.ids["admin"]})))
	mute := func(who string, id users.ID) func() error {
		return func() error { return errOf(f.svc.MuteUser(ctx, f.actor(who), chat.MuteUserParams{MutedUserID: id})) }
	}
	unmute := func(who string, id users.ID) func() error {
		return func() error { return errOf(f.svc.UnmuteUser(ctx, f.actor(who), chat.MuteUserParams{MutedUserID: id})) }
	}
	checkRefusals(t, f, []refusal{
		{"self", mute("member", f.ids["member"]), "", "Cannot mute self"},
		{"twice", mute("member", f.ids["admin"]), "", "User already muted"},
		{"unknown user", mute("member", 9999), "", "No such user"},
		{"unmute someone not muted", unmute("member", f.ids["guest"]), "", "User is not muted"},
		{"unmute an unknown user", unmute("member", 9999), "", "No such user"},
	})
}

// peopleConsistencyCases are the consistency cases of statuses and muting.
func peopleConsistencyCases() []consistencyCase {
	withStatus := func(t *testing.T, f *fixture) {
		mustDo(t, "UpdateStatus", errOf(f.svc.UpdateStatus(t.Context(), f.actor("guest"), chat.UpdateStatusParams{Away: ptr(true), StatusText: ptr("out"), EmojiName: ptr("palm_tree"), EmojiCode: ptr("1f334")})))
	}
	withUnread := func(t *testing.T, f *fixture) {
		mustSendDirect(t, f, "guest", "hello", "member")
		mustSendDirect(t, f, "owner", "hello too", "member", "guest")
	}
	return []consistencyCase{
		{method: "UpdateStatus", name: "text and emoji", run: func(t *testing.T, f *fixture) {
			mustDo(t, "UpdateStatus", errOf(f.svc.UpdateStatus(t.Context(), f.actor("member"), chat.UpdateStatusParams{StatusText: ptr("busy"), EmojiName: ptr("zulip")})))
		}},
		{method: "UpdateStatus", name: "away, cleared emoji and text", setup: withStatus, run: func(t *testing.T, f *fixture) {
			mustDo(t, "UpdateStatus", errOf(f.svc.UpdateStatus(t.Context(), f.actor("guest"), chat.UpdateStatusParams{Away: ptr(false), StatusText: ptr(""), EmojiName: ptr("")})))
			mustDo(t, "UpdateStatus", errOf(f.svc.UpdateStatus(t.Context(), f.actor("member"), chat.UpdateStatusParams{Away: ptr(true)})))
		}},
		{method: "UpdateStatusForUser", name: "administrator sets a text", run: func(t *testing.T, f *fixture) {
			mustDo(t, "UpdateStatusForUser", errOf(f.svc.UpdateStatusForUser(t.Context(), f.actor("admin"), chat.UpdateStatusForUserParams{UserID: f.ids["member"], UpdateStatusParams: chat.UpdateStatusParams{StatusText: ptr("on leave")}})))
		}},
		{method: "UpdateSettings", name: "presence_enabled off shows away", run: func(t *testing.T, f *fixture) {
			mustDo(t, "UpdateSettings", errOf(f.svc.UpdateSettings(t.Context(), f.actor("member"), chat.UpdateSettingsParams{Values: map[string]any{"presence_enabled": false}})))
		}},
		{method: "DeactivateUser", name: "user with a status", setup: withStatus, run: func(t *testing.T, f *fixture) {
			mustDo(t, "DeactivateUser", errOf(f.svc.DeactivateUser(t.Context(), f.actor("admin"), chat.DeactivateUserParams{UserID: f.ids["guest"]})))
		}},
		{method: "MuteUser", name: "sender with unread messages", setup: withUnread, run: func(t *testing.T, f *fixture) {
			mustDo(t, "MuteUser", errOf(f.svc.MuteUser(t.Context(), f.actor("member"), chat.MuteUserParams{MutedUserID: f.ids["guest"]})))
			mustSendDirect(t, f, "guest", "while muted", "member")
		}},
		{method: "UnmuteUser", name: "muted sender", setup: func(t *testing.T, f *fixture) {
			mustDo(t, "MuteUser", errOf(f.svc.MuteUser(t.Context(), f.actor("member"), chat.MuteUserParams{MutedUserID: f.ids["guest"]})))
			mustDo(t, "MuteUser", errOf(f.svc.MuteUser(t.Context(), f.actor("member"), chat.MuteUserParams{MutedUserID: f.ids["bot"]})))
		}, run: func(t *testing.T, f *fixture) {
			mustDo(t, "UnmuteUser", errOf(f.svc.UnmuteUser(t.Context(), f.actor("member"), chat.MuteUserParams{MutedUserID: f.ids["guest"]})))
		}},
	}
}

// goldenUserStatus produces user_status events.
func goldenUserStatus(t *testing.T, f *fixture) {
	ctx := t.Context()
	mustDo(t, "UpdateStatus", errOf(f.svc.UpdateStatus(ctx, f.actor("member"), chat.UpdateStatusParams{StatusText: ptr("Lunch"), EmojiName: ptr("burrito"), EmojiCode: ptr("1f32f")})))
	mustDo(t, "UpdateStatus", errOf(f.svc.UpdateStatus(ctx, f.actor("guest"), chat.UpdateStatusParams{Away: ptr(true)})))
}

// goldenMutedUsers produces the events of a mute: the muted sender's messages marked read,
// then muted_users.
func goldenMutedUsers(t *testing.T, f *fixture) {
	mustSendDirect(t, f, "guest", "hello", "member")
	mustDo(t, "MuteUser", errOf(f.svc.MuteUser(t.Context(), f.actor("member"), chat.MuteUserParams{MutedUserID: f.ids["guest"]})))
}
