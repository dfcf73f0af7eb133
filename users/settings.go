package users

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
)

// SettingType is the JSON type of a user setting's value.
type SettingType int

// The setting types. Values are bool, int64 and string respectively.
const (
	SettingBool SettingType = iota + 1
	SettingInt
	SettingString
)

// maxPositiveSmallInt is the largest value of Zulip's PositiveSmallIntegerField columns.
const maxPositiveSmallInt = 32767

// Setting describes one personal setting of PATCH /settings and register's user_settings.
type Setting struct {
	Name    string
	Type    SettingType
	Default any // bool, int64 or string
	// Allowed lists the accepted values (int64 or string); nil accepts any value of the type
	// within Min..Max (integers, when Max > 0).
	Allowed  []any
	Min, Max int64
	// Sensitive settings cannot be changed for other users by administrators (target_users).
	Sensitive bool
	// OnUser marks the settings stored on the User record rather than among its settings
	// (email_address_visibility).
	OnUser bool
}

func boolSetting(name string, def bool) Setting {
	return Setting{Name: name, Type: SettingBool, Default: def}
}

func intChoice(name string, def int64, allowed ...int64) Setting {
	s := Setting{Name: name, Type: SettingInt, Default: def}
	for _, a := range allowed {
		s.Allowed = append(s.Allowed, a)
	}
	return s
}

func strChoice(name, def string, allowed ...string) Setting {
	s := Setting{Name: name, Type: SettingString, Default: def}
	for _, a := range allowed {
		s.Allowed = append(s.Allowed, a)
	}
	return s
}

func sensitive(s Setting) Setting { s.Sensitive = true; return s }

// NotificationSounds are the available notification sounds ("none" also turns sound off).
var NotificationSounds = []string{"chime", "ding", "ping", "zulip"}

// Languages maps the supported language codes to their names (default_language and the
// language_name of its event).
var Languages = map[string]string{
	"en": "English", "de": "Deutsch", "es": "español", "fr": "français", "it": "italiano",
	"ja": "日本語", "nl": "Nederlands", "pl": "polski", "pt": "português", "ru": "русский",
	"zh-hans": "简体中文",
}

// EmojisetChoice is one entry of register's emojiset_choices.
type EmojisetChoice struct {
	Key  string `json:"key"`
	Text string `json:"text"`
}

// EmojisetChoices are register's emojiset_choices.
var EmojisetChoices = []EmojisetChoice{
	{"google", "Google"}, {"twitter", "Twitter"}, {"text", "Plain text"}, {"google-blob", "Google blobs"},
}

// settingsTable describes every personal setting, in register's order. Defaults and allowed
// values are Zulip's (new users take the organization defaults, which are these).
var settingsTable = []Setting{
	// Display settings.
	boolSetting("twenty_four_hour_time", false),
	intChoice("web_channel_default_view", 1, 1, 2, 3, 4),
	boolSetting("starred_message_counts", true),
	boolSetting("receives_typing_notifications", true),
	boolSetting("web_suggest_update_timezone", true),
	boolSetting("fluid_layout_width", false),
	boolSetting("high_contrast_mode", false),
	// Zulip checks no range for these two (the spec's example line height is 120); its
	// column is a PositiveSmallIntegerField, so 0..32767 is what it can store.
	{Name: "web_font_size_px", Type: SettingInt, Default: int64(16), Min: 0, Max: maxPositiveSmallInt},
	{Name: "web_line_height_percent", Type: SettingInt, Default: int64(140), Min: 0, Max: maxPositiveSmallInt},
	intChoice("color_scheme", 1, 1, 2, 3),
	boolSetting("enable_drafts_synchronization", true),
	boolSetting("translate_emoticons", false),
	boolSetting("display_emoji_reaction_users", true),
	{Name: "default_language", Type: SettingString, Default: "en"},
	strChoice("web_home_view", "inbox", "recent", "inbox", "all_messages"),
	boolSetting("web_escape_navigates_to_home_view", true),
	boolSetting("left_side_userlist", false),
	strChoice("emojiset", "google", "google", "twitter", "text", "google-blob"),
	intChoice("demote_inactive_streams", 1, 1, 2, 3),
	intChoice("user_list_style", 3, 1, 2, 3),
	strChoice("web_animate_image_previews", "on_hover", "always", "on_hover", "never"),
	intChoice("web_stream_unreads_count_display_policy", 2, 1, 2, 3),
	boolSetting("hide_ai_features", false),
	boolSetting("web_left_sidebar_show_channel_folders", true),
	boolSetting("web_inbox_show_channel_folders", true),
	intChoice("web_mark_read_on_scroll_policy", 1, 1, 2, 3),
	boolSetting("web_left_sidebar_unreads_count_summary", true),
	boolSetting("web_navigate_to_sent_message", true),
	boolSetting("enter_sends", false),
	// Notification settings.
	boolSetting("enable_stream_desktop_notifications", false),
	boolSetting("enable_stream_email_notifications", false),
	boolSetting("enable_stream_push_notifications", false),
	boolSetting("enable_stream_audible_notifications", false),
	{Name: "notification_sound", Type: SettingString, Default: "zulip"},
	boolSetting("enable_desktop_notifications", true),
	boolSetting("enable_sounds", true),
	{Name: "email_notifications_batching_period_seconds", Type: SettingInt, Default: int64(120), Min: 1, Max: 604800},
	boolSetting("enable_offline_email_notifications", true),
	boolSetting("enable_offline_push_notifications", true),
	boolSetting("enable_online_push_notifications", true),
	boolSetting("enable_followed_topic_desktop_notifications", true),
	boolSetting("enable_followed_topic_email_notifications", true),
	boolSetting("enable_followed_topic_push_notifications", true),
	boolSetting("enable_followed_topic_audible_notifications", true),
	boolSetting("enable_followed_topic_wildcard_mentions_notify", true),
	sensitive(boolSetting("enable_digest_emails", true)),
	sensitive(boolSetting("enable_marketing_emails", true)),
	sensitive(boolSetting("enable_login_emails", true)),
	boolSetting("message_content_in_email_notifications", true),
	boolSetting("pm_content_in_desktop_notifications", true),
	boolSetting("wildcard_mentions_notify", true),
	intChoice("desktop_icon_count_display", 1, 1, 2, 3, 4),
	intChoice("realm_name_in_email_notifications_policy", 1, 1, 2, 3),
	intChoice("automatically_follow_topics_policy", 3, 1, 2, 3, 4),
	intChoice("automatically_unmute_topics_in_muted_streams_policy", 2, 1, 2, 3, 4),
	boolSetting("automatically_follow_topics_where_mentioned", true),
	strChoice("resolved_topic_notice_auto_read_policy", "except_followed", "always", "except_followed", "never"),
	sensitive(boolSetting("presence_enabled", true)),
	sensitive(boolSetting("send_stream_typing_notifications", true)),
	sensitive(boolSetting("send_private_typing_notifications", true)),
	sensitive(boolSetting("send_read_receipts", true)),
	sensitive(boolSetting("allow_private_data_export", false)),
	{Name: "email_address_visibility", Type: SettingInt, Default: int64(EmailVisibleEveryone),
		Allowed: []any{int64(1), int64(2), int64(3), int64(4), int64(5)}, Sensitive: true, OnUser: true},
}

// SettingsTable returns the description of every personal setting, in register's order.
func SettingsTable() []Setting { return slices.Clone(settingsTable) }

// LookupSetting finds a setting by name.
func LookupSetting(name string) (Setting, bool) {
	for _, s := range settingsTable {
		if s.Name == name {
			return s, true
		}
	}
	return Setting{}, false
}

// ErrSettingType is returned by Check for a value of the wrong type.
var ErrSettingType = errors.New("wrong type")

// TrimSettingTypeError is a setting check's message without the wrapped sentinel's text.
func TrimSettingTypeError(err error) string {
	return strings.TrimSuffix(err.Error(), ": "+ErrSettingType.Error())
}

// Check validates a value for the setting: its type and its allowed values or range. The
// error for a wrong type wraps ErrSettingType.
func (s Setting) Check(v any) error {
	switch s.Type {
	case SettingBool:
		if _, ok := v.(bool); !ok {
			return fmt.Errorf("%s is not a boolean: %w", s.Name, ErrSettingType)
		}
		return nil
	case SettingInt:
		n, ok := v.(int64)
		if !ok {
			return fmt.Errorf("%s is not an integer: %w", s.Name, ErrSettingType)
		}
		if s.Allowed != nil && !slices.Contains(s.Allowed, any(n)) || s.Max > 0 && (n < s.Min || n > s.Max) {
			return fmt.Errorf("Invalid %s", s.Name)
		}
		return nil
	case SettingString:
		str, ok := v.(string)
		if !ok {
			return fmt.Errorf("%s is not a string: %w", s.Name, ErrSettingType)
		}
		switch s.Name {
		case "default_language":
			if _, ok := Languages[str]; !ok {
				return fmt.Errorf("Invalid default_language")
			}
		case "notification_sound":
			if str != "none" && !slices.Contains(NotificationSounds, str) {
				return fmt.Errorf("Invalid notification sound '%s'", str)
			}
		default:
			if s.Allowed != nil && !slices.Contains(s.Allowed, any(str)) {
				return fmt.Errorf("Invalid %s", s.Name)
			}
		}
	}
	return nil
}

// Settings are a user's stored personal settings: the values that were set (others take
// their defaults) and the settings the user changed personally.
type Settings struct {
	Values map[string]any // name → bool, int64 or string
	// SelfEdited lists, sorted, the settings the user changed personally (an administrator's
	// bulk change may skip them).
	SelfEdited []string
}

// Value is the effective value of a setting (its default when unset or unknown).
func (s Settings) Value(name string) any {
	if v, ok := s.Values[name]; ok {
		return v
	}
	st, _ := LookupSetting(name)
	return st.Default
}

// Clone returns a copy sharing no memory with s.
func (s Settings) Clone() Settings {
	out := Settings{SelfEdited: slices.Clone(s.SelfEdited)}
	if s.Values != nil {
		out.Values = make(map[string]any, len(s.Values))
		for k, v := range s.Values {
			out.Values[k] = v
		}
	}
	return out
}

// Set stores a value, marking it self-edited when the user changed it personally.
func (s *Settings) Set(name string, v any, self bool) {
	if s.Values == nil {
		s.Values = map[string]any{}
	}
	s.Values[name] = v
	if self && !slices.Contains(s.SelfEdited, name) {
		s.SelfEdited = append(s.SelfEdited, name)
		slices.Sort(s.SelfEdited)
	}
}

// EmailChange is a pending change of a user's email, completed with its key.
type EmailChange struct {
	Key      string
	UserID   ID
	NewEmail string
	Expires  time.Time
}

// CheckTimezone accepts "" (unset) and IANA names of at most 40 characters.
func CheckTimezone(tz string) error {
	if tz == "" {
		return nil
	}
	if len(tz) > 40 {
		return errors.New("Invalid timezone")
	}
	if _, err := time.LoadLocation(tz); err != nil || tz == "Local" {
		return errors.New("Invalid timezone")
	}
	return nil
}
