package chat_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	chat "github.com/teamchat/chat"
)

// The Zulip mobile app (zulip-flutter) decodes register with generated code that fails on a
// missing or mistyped required field and then retries register forever. flutterRequired lists
// the fields its decoders require, with their JSON types, taken from lib/api/model/
// initial_snapshot.dart and initial_snapshot.g.dart (InitialSnapshot, UnreadMessagesSnapshot,
// UserSettings, RealmDefaultExternalAccount, RecentDmConversation): a field decoded with
// "as T" (not "as T?") and no default. "int?" marks a field that must be present but may be
// null; "enum:..." the accepted integers or strings.
var flutterRequired = map[string]string{
	"last_event_id":                             "int",
	"zulip_feature_level":                       "int",
	"zulip_version":                             "string",
	"zulip_merge_base":                          "string",
	"alert_words":                               "list",
	"custom_profile_fields":                     "list",
	"server_presence_ping_interval_seconds":     "int",
	"server_presence_offline_threshold_seconds": "int",
	"muted_users":                               "list",
	"presences":                                 "object",
	"realm_emoji":                               "object",
	"realm_user_groups":                         "list",
	"recent_private_conversations":              "list",
	"subscriptions":                             "list",
	"unread_msgs":                               "object",
	"streams":                                   "list",
	"user_status":                               "object",
	"user_settings":                             "object",
	"realm_wildcard_mention_policy":             "enum:1,2,3,5,6,7",
	"realm_mandatory_topics":                    "bool",
	"realm_waiting_period_threshold":            "int",
	"realm_allow_message_editing":               "bool",
	"realm_message_content_edit_limit_seconds":  "int?",
	"realm_presence_disabled":                   "bool",
	"realm_default_external_accounts":           "object",
	"max_file_upload_size_mib":                  "int",
	"realm_users":                               "list",
	"realm_non_active_users":                    "list",
	"cross_realm_bots":                          "list",
	// Nested objects, as "outer.inner".
	"unread_msgs.count":                   "int",
	"unread_msgs.pms":                     "list",
	"unread_msgs.streams":                 "list",
	"unread_msgs.huddles":                 "list",
	"unread_msgs.mentions":                "list",
	"unread_msgs.old_unreads_missing":     "bool",
	"user_settings.twenty_four_hour_time": "bool",
	"user_settings.emojiset":              "enum:google,google-blob,twitter,text",
	"user_settings.presence_enabled":      "bool",
}

// flutterTypeError says why v does not decode as want ("" when it does).
func flutterTypeError(v any, present bool, want string) string {
	if !present {
		return "missing"
	}
	switch want {
	case "int":
		if f, ok := v.(float64); !ok || f != float64(int64(f)) {
			return fmt.Sprintf("%v is not an integer", v)
		}
	case "int?":
		if f, ok := v.(float64); v != nil && (!ok || f != float64(int64(f))) {
			return fmt.Sprintf("%v is not an integer or null", v)
		}
	case "string":
		if _, ok := v.(string); !ok {
			return fmt.Sprintf("%v is not a string", v)
		}
	case "bool":
		if _, ok := v.(bool); !ok {
			return fmt.Sprintf("%v is not a boolean", v)
		}
	case "list":
		if _, ok := v.([]any); !ok {
			return fmt.Sprintf("%T is not a list", v)
		}
	case "object":
		if _, ok := v.(map[string]any); !ok {
			return fmt.Sprintf("%T is not an object", v)
		}
	case "enum:1,2,3,5,6,7":
		if !slices.Contains([]any{1.0, 2.0, 3.0, 5.0, 6.0, 7.0}, v) {
			return fmt.Sprintf("%v is not one of 1,2,3,5,6,7", v)
		}
	case "enum:google,google-blob,twitter,text":
		if !slices.Contains([]any{"google", "google-blob", "twitter", "text"}, v) {
			return fmt.Sprintf("%v is not an emoji set", v)
		}
	default:
		return "unknown expected type " + want
	}
	return ""
}

func TestRegisterDecodesAsTheMobileAppRequires(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	for _, who := range []string{"owner", "member", "guest"} {
		res, err := f.svc.RegisterQueue(t.Context(), f.actor(who), chat.RegisterQueueParams{})
		if err != nil {
			t.Fatal(err)
		}
		state := jsonObject(t, res)
		for field, want := range flutterRequired {
			obj, key := state, field
			if outer, inner, nested := strings.Cut(field, "."); nested {
				obj, _ = state[outer].(map[string]any)
				key = inner
			}
			v, present := obj[key]
			if !present && registerKeyExceptions[field] != "" {
				continue // another issue's key, not landed yet
			}
			if msg := flutterTypeError(v, present, want); msg != "" {
				t.Errorf("%s: %s: %s", who, field, msg)
			}
		}
		for name, acct := range state["realm_default_external_accounts"].(map[string]any) {
			for _, k := range []string{"name", "text", "hint", "url_pattern"} {
				if _, ok := acct.(map[string]any)[k].(string); !ok {
					t.Errorf("%s: realm_default_external_accounts.%s.%s is not a string", who, name, k)
				}
			}
		}
	}
}
