package chat_test

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/users"
)

// flutterRecord is one kind of record inside register that the mobile app decodes element by
// element: where the records are ("key[]" a list, "key{}" an object's values, "a.b[]" a
// nested list), whether the object's keys must parse as integers (Dart's int.parse), and each
// field the decoder reads with its type.
type flutterRecord struct {
	at      string
	intKeys bool
	fields  map[string]string
}

// Field types of flutterRecord, as the generated decoders read them:
//
//	int, string, bool      required ("as num" / "as String" / "as bool", no default)
//	?int, ?string, ?bool   optional ("as T?"): absent, null or of the type
//	[]int                  a required list of integers
//	?group                 a group-setting value or absent/null (an id, or direct_members and
//	                       direct_subgroups lists)
//	color                  a required "#rrggbb" string (Subscription._readColor)
//	enum:A,B,...           a required value among those ($enumDecode without unknownValue)
//	?enum:A,B,...          absent, null or among those ($enumDecodeNullable)
//	any-int                present and an integer ($enumDecode with unknownValue: any value
//	                       decodes, but a missing or null one throws)
//
// From zulip-flutter's lib/api/model/model.g.dart (User, Subscription, ZulipStream, UserGroup,
// CustomProfileField, RealmEmojiItem, PerUserPresence, MutedUserItem, SavedSnippet),
// initial_snapshot.g.dart (RecentDmConversation, UnreadDmSnapshot, UnreadChannelSnapshot,
// UnreadHuddleSnapshot) and model.dart (UserStatusChange). The app does not decode drafts:
// theirs come from the OpenAPI Draft schema's required list.
var flutterRecords = func() []flutterRecord {
	user := map[string]string{
		"user_id": "int", "delivery_email": "?string", "email": "string", "full_name": "string",
		// is_active: InitialSnapshot._readUsersIsActiveFallback{True,False} fill it in when
		// absent (Zulip leaves it out of these lists).
		"date_joined": "string", "is_active": "?bool", "is_bot": "bool", "bot_type": "?int",
		"bot_owner_id": "?int", "role": "any-int", "timezone": "string", "avatar_url": "?string",
		"avatar_version": "int", "is_system_bot": "?bool",
	}
	stream := map[string]string{
		"stream_id": "int", "name": "string", "is_archived": "?bool", "description": "string",
		"rendered_description": "string", "date_created": "int", "first_message_id": "?int",
		"invite_only": "bool", "is_web_public": "bool", "history_public_to_subscribers": "bool",
		"message_retention_days": "?int", "stream_post_policy": "?enum:1,2,3,4", "folder_id": "?int",
		"can_add_subscribers_group": "?group", "can_delete_any_message_group": "?group",
		"can_delete_own_message_group": "?group", "can_send_message_group": "?group",
		"can_subscribe_group": "?group", "is_recently_active": "?bool", "stream_weekly_traffic": "?int",
	}
	sub := map[string]string{
		"desktop_notifications": "?bool", "email_notifications": "?bool", "wildcard_mentions_notify": "?bool",
		"push_notifications": "?bool", "audible_notifications": "?bool", "pin_to_top": "bool",
		"is_muted": "bool", "color": "color",
	}
	for k, v := range stream {
		sub[k] = v
	}
	unreadIDs := "[]int"
	return []flutterRecord{
		{at: "realm_users[]", fields: user},
		{at: "realm_non_active_users[]", fields: user},
		{at: "cross_realm_bots[]", fields: user},
		{at: "subscriptions[]", fields: sub},
		{at: "streams[]", fields: stream},
		{at: "realm_user_groups[]", fields: map[string]string{
			"id": "int", "members": "[]int", "direct_subgroup_ids": "[]int", "name": "string",
			"description": "string", "is_system_group": "bool", "deactivated": "?bool",
		}},
		{at: "custom_profile_fields[]", fields: map[string]string{
			"id": "int", "type": "any-int", "order": "int", "name": "string", "hint": "string",
			"field_data": "string", "display_in_profile_summary": "?bool",
		}},
		{at: "realm_emoji{}", fields: map[string]string{
			"id": "string", "name": "string", "source_url": "string", "still_url": "?string",
			"deactivated": "bool", "author_id": "?int",
		}},
		{at: "presences{}", intKeys: true, fields: map[string]string{"active_timestamp": "int", "idle_timestamp": "int"}},
		{at: "recent_private_conversations[]", fields: map[string]string{"max_message_id": "int", "user_ids": "[]int"}},
		{at: "unread_msgs.pms[]", fields: map[string]string{"other_user_id": "int", "unread_message_ids": unreadIDs}},
		{at: "unread_msgs.streams[]", fields: map[string]string{"topic": "string", "stream_id": "int", "unread_message_ids": unreadIDs}},
		{at: "unread_msgs.huddles[]", fields: map[string]string{"user_ids_string": "string", "unread_message_ids": unreadIDs}},
		{at: "drafts[]", fields: map[string]string{"type": "enum:stream,private,", "to": "[]int", "topic": "string", "content": "string", "id": "?int", "timestamp": "?int"}},
		{at: "saved_snippets[]", fields: map[string]string{"id": "int", "title": "string", "content": "string", "date_created": "int"}},
		{at: "user_status{}", intKeys: true, fields: map[string]string{
			"status_text": "?string", "emoji_name": "?string", "emoji_code": "?string", "reaction_type": "?string",
		}},
		{at: "muted_users[]", fields: map[string]string{"id": "int"}},
	}
}()

var hexColor = regexp.MustCompile(`^#[0-9a-fA-F]{6}$`)

// isInt says whether a decoded JSON value is an integer.
func isInt(v any) bool {
	f, ok := v.(float64)
	return ok && f == float64(int64(f))
}

// flutterFieldError says why the field does not decode as want ("" when it does).
func flutterFieldError(v any, present bool, want string) string {
	optional := strings.HasPrefix(want, "?")
	if optional && (!present || v == nil) {
		return ""
	}
	if !present {
		return "missing"
	}
	base := strings.TrimPrefix(want, "?")
	ok := false
	switch {
	case base == "int" || base == "any-int":
		ok = isInt(v)
	case base == "string":
		_, ok = v.(string)
	case base == "bool":
		_, ok = v.(bool)
	case base == "[]int":
		list, isList := v.([]any)
		ok = isList && !slices.ContainsFunc(list, func(e any) bool { return !isInt(e) })
	case base == "color":
		s, isStr := v.(string)
		ok = isStr && hexColor.MatchString(s)
	case base == "group":
		if m, isObj := v.(map[string]any); isObj {
			ok = flutterFieldError(m["direct_members"], true, "[]int") == "" && flutterFieldError(m["direct_subgroups"], true, "[]int") == ""
		} else {
			ok = isInt(v)
		}
	case strings.HasPrefix(base, "enum:"):
		ok = slices.Contains(strings.Split(strings.TrimPrefix(base, "enum:"), ","), strings.Trim(fmt.Sprint(v), " "))
	default:
		return "unknown expected type " + want
	}
	if !ok {
		return fmt.Sprintf("%v (%T) is not %s", v, v, want)
	}
	return ""
}

// flutterElements returns the records at r.at in state, with their keys (indexes for lists).
func flutterElements(state map[string]any, r flutterRecord) (map[string]any, string) {
	path, isMap := strings.CutSuffix(r.at, "{}")
	path = strings.TrimSuffix(path, "[]")
	var v any = state
	for _, part := range strings.Split(path, ".") {
		obj, _ := v.(map[string]any)
		v = obj[part]
	}
	out := map[string]any{}
	if isMap {
		obj, ok := v.(map[string]any)
		if !ok {
			return nil, fmt.Sprintf("%T is not an object", v)
		}
		for k, e := range obj {
			out[k] = e
		}
		return out, ""
	}
	list, ok := v.([]any)
	if !ok {
		return nil, fmt.Sprintf("%T is not a list", v)
	}
	for i, e := range list {
		out[strconv.Itoa(i)] = e
	}
	return out, ""
}

// seedFlutterRecords gives every kind of record of flutterRecords at least one element in the
// member's register.
func seedFlutterRecords(t *testing.T, f *fixture) {
	t.Helper()
	ctx := t.Context()
	general := mustChannel(t, f, "general", chat.NewChannelSettings{}, "owner", "admin", "member", "guest")
	mustSendToChannel(t, f, "admin", general, "lunch", "who is in?")
	mustSendDirect(t, f, "admin", "a direct message", "member")
	mustSendDirect(t, f, "admin", "a group message", "member", "guest")
	f.mustCreateDrafts(t, "member", draft("stream", []int64{int64(general)}, "lunch", "me too", 1700000000))
	f.mustCreateSnippet(t, "member", "Greeting", "Hello!")
	mustDo(t, "UploadCustomEmoji", errOf(f.svc.UploadCustomEmoji(ctx, f.actor("member"), chat.UploadCustomEmojiParams{Name: "party", Files: 1, Image: pngImage})))
	mustDo(t, "CreateCustomProfileField", errOf(f.svc.CreateCustomProfileField(ctx, f.actor("admin"), chat.CreateCustomProfileFieldParams{Name: "Phone number", Hint: "Your work phone"})))
	for _, who := range []string{"admin", "member"} {
		mustDo(t, "UpdatePresence", errOf(f.svc.UpdatePresence(ctx, f.actor(who), chat.UpdatePresenceParams{Status: "active"})))
	}
	text := "at lunch"
	mustDo(t, "UpdateStatus", errOf(f.svc.UpdateStatus(ctx, f.actor("admin"), chat.UpdateStatusParams{StatusText: &text})))
	for _, who := range []string{"member", "guest"} {
		mustDo(t, "MuteUser", errOf(f.svc.MuteUser(ctx, f.actor(who), chat.MuteUserParams{MutedUserID: f.ids["bot"]})))
	}
	gone := mustProvision(t, f, chat.ProvisionUserParams{Email: "gone@example.com", FullName: "Gone User"})
	mustDo(t, "DeactivateUser", errOf(f.svc.DeactivateUser(ctx, f.actor("admin"), chat.DeactivateUserParams{UserID: gone.UserID})))
}

func TestRegisterRecordsDecodeAsTheMobileAppRequires(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	seedFlutterRecords(t, f)
	// The mobile app's register parameters (zulip-flutter's lib/api/route/events.dart).
	params := chat.RegisterQueueParams{ApplyMarkdown: true, SlimPresence: true, ClientCapabilities: chat.ClientCapabilities{
		NotificationSettingsNull: true, BulkMessageDeletion: true, UserAvatarURLFieldOptional: true,
		UserSettingsObject: true, IncludeDeactivatedGroups: true, EmptyTopicName: true,
		SimplifiedPresenceEvents: true, ArchivedChannels: true,
	}}
	for _, who := range []string{"owner", "member", "guest"} {
		res, err := f.svc.RegisterQueue(t.Context(), f.actor(who), params)
		if err != nil {
			t.Fatal(err)
		}
		state := jsonObject(t, res)
		for _, r := range flutterRecords {
			elems, msg := flutterElements(state, r)
			if msg != "" {
				t.Errorf("%s: %s: %s", who, r.at, msg)
				continue
			}
			if len(elems) == 0 && who == "member" && r.at != "cross_realm_bots[]" {
				t.Errorf("%s: %s: no records to check (the seed should give one)", who, r.at)
			}
			for key, e := range elems {
				if _, err := strconv.Atoi(key); r.intKeys && err != nil {
					t.Errorf("%s: %s: key %q is not an integer", who, r.at, key)
				}
				obj, ok := e.(map[string]any)
				if !ok {
					t.Errorf("%s: %s[%s]: %T is not an object", who, r.at, key, e)
					continue
				}
				for field, want := range r.fields {
					v, present := obj[field]
					if r.at == "unread_msgs.pms[]" && field == "other_user_id" && !present {
						v, present = obj["sender_id"] // UnreadDmSnapshot._readOtherUserId's fallback
					}
					if msg := flutterFieldError(v, present, want); msg != "" {
						t.Errorf("%s: %s[%s].%s: %s", who, r.at, key, field, msg)
					}
				}
			}
		}
	}
}

// The checker itself: each kind of mistake the mobile app would stumble on is caught.
func TestFlutterFieldErrorCatchesMistypes(t *testing.T) {
	t.Parallel()
	cases := []struct {
		v       any
		present bool
		want    string
		bad     bool
	}{
		{nil, false, "int", true},
		{1.5, true, "int", true},
		{nil, true, "int", true},
		{nil, false, "?int", false},
		{nil, true, "?string", false},
		{"x", true, "?int", true},
		{[]any{1.0, "2"}, true, "[]int", true},
		{[]any{1.0, 2.0}, true, "[]int", false},
		{"#c2c2c2", true, "color", false},
		{"c2c2c2", true, "color", true},
		{map[string]any{"direct_members": []any{1.0}, "direct_subgroups": []any{}}, true, "?group", false},
		{map[string]any{"direct_members": []any{1.0}}, true, "?group", true},
		{5.0, true, "?enum:1,2,3,4", true},
		{"private", true, "enum:stream,private,", false},
		{users.RoleGuest, true, "any-int", true}, // not decoded JSON: an int, not a float64
	}
	for _, c := range cases {
		if got := flutterFieldError(c.v, c.present, c.want) != ""; got != c.bad {
			t.Errorf("flutterFieldError(%v, %v, %q) flags it: %v, want %v", c.v, c.present, c.want, got, c.bad)
		}
	}
}
