package realms

import (
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/teamchat/chat/users"
)

// Kind is the API type of an organization setting's value.
type Kind int

// The kinds of settings. Values are bool, int64 and string; a Nullable setting may also be
// nil (the API's null).
const (
	KindBool Kind = iota + 1
	KindInt
	KindString
)

// Setting describes one scalar organization setting of PATCH /realm and register's realm_*
// keys (without the "realm_" prefix).
type Setting struct {
	Name    string
	Kind    Kind
	Default any
	// Nullable settings accept null: a time limit of "unlimited", a Jitsi URL of "default".
	Nullable bool
	// Allowed lists the accepted integers; nil accepts Min..Max (when Max > 0).
	Allowed  []int64
	Min, Max int64
	// MaxLength bounds strings (in characters); 0 means no bound beyond the request's.
	MaxLength int
	// OwnerOnly settings may be changed by organization owners only.
	OwnerOnly bool
	// Dict settings are announced with realm update_dict (property "default") rather than
	// realm update.
	Dict bool
	// Field settings live on a field of Realm rather than in Realm.Settings.
	Field bool
}

// Zulip's choices of the enumerated settings.
var (
	// VideoChatProviders are the providers a server without Zoom or BigBlueButton offers.
	VideoChatProviders = []struct {
		Key, Name string
		ID        int64
	}{{"disabled", "None", 0}, {"jitsi_meet", "Jitsi Meet", 1}}
	// GiphyRatings are the GIPHY rating options.
	GiphyRatings = []struct {
		Key, Name string
		ID        int64
	}{
		{"disabled", "GIPHY integration disabled", 0},
		{"y", "Allow GIFs rated Y (Very young audience)", 1},
		{"g", "Allow GIFs rated G (General audience)", 2},
		{"pg", "Allow GIFs rated PG (Parental guidance)", 3},
		{"pg-13", "Allow GIFs rated PG-13 (Parental guidance - under 13)", 4},
		{"r", "Allow GIFs rated R (Restricted)", 5},
	}
	// OrgTypes are the organization types (org_type).
	OrgTypes = []int64{0, 10, 20, 30, 35, 40, 50, 60, 70, 80, 90, 100, 1000}
)

// Topics policies of the organization.
const (
	TopicsAllowEmpty   = "allow_empty_topic"
	TopicsDisableEmpty = "disable_empty_topic"
)

// Limits of the organization's texts.
const (
	MaxNameLength               = 40
	MaxDescriptionLength        = 1000
	MaxWelcomeMessageLength     = 8000
	MaxJitsiServerURLLength     = 200
	DefaultMessageDeleteSeconds = 600
)

// settingsTable describes every scalar organization setting, in API (alphabetical) order.
// Defaults are Zulip's.
var settingsTable = []Setting{
	{Name: "avatar_changes_disabled", Kind: KindBool, Default: false},
	{Name: "default_code_block_language", Kind: KindString, Default: "", MaxLength: 100},
	{Name: "default_language", Kind: KindString, Default: "en"},
	{Name: "description", Kind: KindString, Default: "", MaxLength: MaxDescriptionLength, Field: true},
	{Name: "digest_emails_enabled", Kind: KindBool, Default: false},
	{Name: "digest_weekday", Kind: KindInt, Default: int64(1), Allowed: []int64{0, 1, 2, 3, 4, 5, 6}},
	{Name: "disallow_disposable_email_addresses", Kind: KindBool, Default: true, OwnerOnly: true},
	{Name: "email_changes_disabled", Kind: KindBool, Default: false},
	{Name: "emails_restricted_to_domains", Kind: KindBool, Default: false, OwnerOnly: true},
	{Name: "enable_guest_user_dm_warning", Kind: KindBool, Default: true},
	{Name: "enable_guest_user_indicator", Kind: KindBool, Default: true},
	{Name: "enable_read_receipts", Kind: KindBool, Default: false},
	{Name: "enable_spectator_access", Kind: KindBool, Default: false, Field: true},
	{Name: "giphy_rating", Kind: KindInt, Default: int64(2), Allowed: []int64{0, 1, 2, 3, 4, 5}},
	{Name: "inline_image_preview", Kind: KindBool, Default: true},
	{Name: "inline_url_embed_preview", Kind: KindBool, Default: false},
	{Name: "invite_required", Kind: KindBool, Default: true, OwnerOnly: true},
	{Name: "jitsi_server_url", Kind: KindString, Default: nil, Nullable: true, MaxLength: MaxJitsiServerURLLength},
	{Name: "message_content_allowed_in_email_notifications", Kind: KindBool, Default: true},
	{Name: "message_content_delete_limit_seconds", Kind: KindInt, Default: int64(DefaultMessageDeleteSeconds), Nullable: true, Min: 1, Max: 1 << 31},
	{Name: "message_retention_days", Kind: KindInt, Default: int64(-1), OwnerOnly: true},
	{Name: "name", Kind: KindString, MaxLength: MaxNameLength, Field: true},
	{Name: "name_changes_disabled", Kind: KindBool, Default: false},
	{Name: "org_type", Kind: KindInt, Default: int64(0), Allowed: OrgTypes},
	{Name: "require_e2ee_push_notifications", Kind: KindBool, Default: false},
	{Name: "require_unique_names", Kind: KindBool, Default: false},
	{Name: "send_welcome_emails", Kind: KindBool, Default: true},
	{Name: "topics_policy", Kind: KindString, Default: TopicsAllowEmpty},
	{Name: "video_chat_provider", Kind: KindInt, Default: int64(1), Allowed: []int64{0, 1}},
	{Name: "waiting_period_threshold", Kind: KindInt, Default: int64(0), Min: 0, Max: 1 << 31, OwnerOnly: true, Field: true},
	{Name: "want_advertise_in_communities_directory", Kind: KindBool, Default: false},
	{Name: "welcome_message_custom_text", Kind: KindString, Default: "", MaxLength: MaxWelcomeMessageLength},
}

// SettingsTable returns the description of every scalar organization setting, in API order.
func SettingsTable() []Setting { return slices.Clone(settingsTable) }

// LookupSetting finds a scalar setting by name.
func LookupSetting(name string) (Setting, bool) {
	i := slices.IndexFunc(settingsTable, func(s Setting) bool { return s.Name == name })
	if i < 0 {
		return Setting{}, false
	}
	return settingsTable[i], true
}

// CheckError is a value a setting does not accept; Msg is Zulip's message.
type CheckError struct{ Msg string }

func (e *CheckError) Error() string { return e.Msg }

func invalid(format string, a ...any) error { return &CheckError{Msg: fmt.Sprintf(format, a...)} }

// Check validates v (bool, int64, string, or nil where Nullable) for the setting and returns
// it normalised.
func (s Setting) Check(v any) (any, error) {
	if v == nil {
		if !s.Nullable {
			return nil, invalid("%s is not an allowed_type", s.Name)
		}
		return nil, nil
	}
	var err error
	switch s.Kind {
	case KindBool:
		if _, ok := v.(bool); !ok {
			err = invalid("%s is not a boolean", s.Name)
		}
	case KindInt:
		err = s.checkInt(v)
	case KindString:
		err = s.checkString(v)
	}
	if err != nil {
		return nil, err
	}
	return v, nil
}

// checkInt checks the value of an integer setting.
func (s Setting) checkInt(v any) error {
	n, ok := v.(int64)
	if !ok {
		return invalid("%s is not an integer", s.Name)
	}
	switch s.Name {
	case "message_retention_days":
		if n <= 0 && n != -1 {
			return invalid("Bad value for 'message_retention_days': %d", n)
		}
	case "video_chat_provider", "giphy_rating":
		if !slices.Contains(s.Allowed, n) {
			return invalid("Invalid %s %d", s.Name, n)
		}
	default:
		if s.Allowed != nil && !slices.Contains(s.Allowed, n) || s.Max > 0 && (n < s.Min || n > s.Max) {
			return invalid("Invalid %s", s.Name)
		}
	}
	return nil
}

// checkString checks the value of a string setting.
func (s Setting) checkString(v any) error {
	str, ok := v.(string)
	if !ok {
		return invalid("%s is not a string", s.Name)
	}
	if s.MaxLength > 0 && utf8.RuneCountInString(str) > s.MaxLength {
		return invalid("%s is too long (limit: %d characters)", s.Name, s.MaxLength)
	}
	switch s.Name {
	case "name":
		if strings.TrimSpace(str) == "" {
			return invalid("Organization name can't be empty.")
		}
	case "default_language":
		if _, ok := users.Languages[str]; !ok {
			return invalid("Invalid language '%s'", str)
		}
	case "topics_policy":
		if str != TopicsAllowEmpty && str != TopicsDisableEmpty {
			return invalid("Invalid topics_policy")
		}
	case "jitsi_server_url":
		u, err := url.Parse(str)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return invalid("jitsi_server_url is not an allowed_type")
		}
	}
	return nil
}

// Value returns the setting's current value (its default when never set).
func (r *Realm) Value(name string) any {
	switch name {
	case "name":
		return r.Name
	case "description":
		return r.Description
	case "enable_spectator_access":
		return r.EnableSpectatorAccess
	case "waiting_period_threshold":
		return int64(r.WaitingPeriodThreshold)
	}
	if v, ok := r.Settings[name]; ok {
		return v
	}
	s, _ := LookupSetting(name)
	return s.Default
}

// SetValue stores a checked value of the setting.
func (r *Realm) SetValue(name string, v any) {
	switch name {
	case "name":
		r.Name = v.(string)
	case "description":
		r.Description = v.(string)
	case "enable_spectator_access":
		r.EnableSpectatorAccess = v.(bool)
	case "waiting_period_threshold":
		r.WaitingPeriodThreshold = int(v.(int64))
	default:
		if r.Settings == nil {
			r.Settings = map[string]any{}
		}
		r.Settings[name] = v
	}
}

// Bool, Int and String read a setting of that kind (the zero value for null).
func (r *Realm) Bool(name string) bool     { b, _ := r.Value(name).(bool); return b }
func (r *Realm) Int(name string) int64     { n, _ := r.Value(name).(int64); return n }
func (r *Realm) String(name string) string { s, _ := r.Value(name).(string); return s }

// EncodeSettings writes the Settings map for storage (JSON object; "" for none).
func EncodeSettings(m map[string]any) string {
	if len(m) == 0 {
		return ""
	}
	b, _ := json.Marshal(m) // cannot fail: bools, integers, strings and nulls
	return string(b)
}

// DecodeSettings reads EncodeSettings' form, giving each known setting its kind's Go type and
// dropping names the table no longer has.
func DecodeSettings(text string) (map[string]any, error) {
	if text == "" {
		return nil, nil
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal([]byte(text), &raw); err != nil {
		return nil, err
	}
	out := make(map[string]any, len(raw))
	for name, b := range raw {
		s, ok := LookupSetting(name)
		if !ok || s.Field {
			continue
		}
		if string(b) == "null" {
			out[name] = nil
			continue
		}
		var err error
		switch s.Kind {
		case KindBool:
			out[name], err = strconv.ParseBool(string(b))
		case KindInt:
			out[name], err = strconv.ParseInt(string(b), 10, 64)
		case KindString:
			var str string
			err = json.Unmarshal(b, &str)
			out[name] = str
		}
		if err != nil {
			return nil, fmt.Errorf("realm setting %s: %w", name, err)
		}
	}
	return out, nil
}

// NamedSetting is one group permission of the organization, with a pointer into the Realm and
// Zulip's rules for its values (server_supported_permission_settings).
type NamedSetting struct {
	Name  string
	Value *users.GroupSetting
	// Default is the system group of a new organization.
	Default       string
	AllowNobody   bool
	AllowEveryone bool
	// AllowedSystemGroups, when set, are the only values (system groups only).
	AllowedSystemGroups []string
	// OwnerOnly settings may be changed by organization owners only.
	OwnerOnly bool
}

// RequireSystemGroup reports whether only system groups are accepted.
func (s NamedSetting) RequireSystemGroup() bool { return s.AllowedSystemGroups != nil }

// groupSettings describes the group permissions of an organization in API (alphabetical)
// order (Value unset); groupSettingFields points at them in the same order.
var groupSettings = [...]NamedSetting{
	{Name: "can_access_all_users_group", Default: everyone, AllowEveryone: true, AllowedSystemGroups: []string{everyone, members}},
	{Name: "can_add_custom_emoji_group", Default: members, AllowNobody: true},
	{Name: "can_add_subscribers_group", Default: members, AllowNobody: true},
	{Name: "can_create_bots_group", Default: members, AllowNobody: true},
	{Name: "can_create_groups", Default: members, AllowNobody: true, OwnerOnly: true},
	{Name: "can_create_private_channel_group", Default: members, AllowNobody: true},
	{Name: "can_create_public_channel_group", Default: members, AllowNobody: true},
	{Name: "can_create_web_public_channel_group", Default: owners, AllowNobody: true, AllowedSystemGroups: []string{mods, admins, owners, users.GroupNobody}},
	{Name: "can_create_write_only_bots_group", Default: members, AllowNobody: true},
	{Name: "can_delete_any_message_group", Default: admins, AllowNobody: true},
	{Name: "can_delete_own_message_group", Default: everyone, AllowNobody: true, AllowEveryone: true},
	{Name: "can_invite_users_group", Default: members, AllowNobody: true, OwnerOnly: true},
	{Name: "can_manage_all_groups", Default: admins, OwnerOnly: true},
	{Name: "can_manage_billing_group", Default: admins, OwnerOnly: true},
	{Name: "can_mention_many_users_group", Default: admins, AllowNobody: true, AllowEveryone: true},
	{Name: "can_move_messages_between_channels_group", Default: members, AllowNobody: true},
	{Name: "can_move_messages_between_topics_group", Default: everyone, AllowNobody: true, AllowEveryone: true},
	{Name: "can_resolve_topics_group", Default: everyone, AllowNobody: true, AllowEveryone: true},
	{Name: "can_set_delete_message_policy_group", Default: mods, AllowNobody: true},
	{Name: "can_set_topics_policy_group", Default: members, AllowNobody: true, AllowEveryone: true},
	{Name: "can_summarize_topics_group", Default: everyone, AllowNobody: true, AllowEveryone: true},
	{Name: "create_multiuse_invite_group", Default: admins, AllowNobody: true, OwnerOnly: true},
	{Name: "direct_message_initiator_group", Default: everyone, AllowNobody: true, AllowEveryone: true},
	{Name: "direct_message_permission_group", Default: everyone, AllowNobody: true, AllowEveryone: true},
}

// The system groups the defaults of groupSettings name.
const (
	owners, admins, mods = users.GroupOwners, users.GroupAdministrators, users.GroupModerators
	members, everyone    = users.GroupMembers, users.GroupEveryone
)

// groupSettingFields returns pointers to r's group permissions, in groupSettings' order
// (TestGroupSettingFields checks that each is the field its name says).
func (r *Realm) groupSettingFields() [len(groupSettings)]*users.GroupSetting {
	return [...]*users.GroupSetting{
		&r.CanAccessAllUsersGroup,
		&r.CanAddCustomEmojiGroup,
		&r.CanAddSubscribersGroup,
		&r.CanCreateBotsGroup,
		&r.CanCreateGroups,
		&r.CanCreatePrivateChannelGroup,
		&r.CanCreatePublicChannelGroup,
		&r.CanCreateWebPublicChannelGroup,
		&r.CanCreateWriteOnlyBotsGroup,
		&r.CanDeleteAnyMessageGroup,
		&r.CanDeleteOwnMessageGroup,
		&r.CanInviteUsersGroup,
		&r.CanManageAllGroups,
		&r.CanManageBillingGroup,
		&r.CanMentionManyUsersGroup,
		&r.CanMoveMessagesBetweenChannelsGroup,
		&r.CanMoveMessagesBetweenTopicsGroup,
		&r.CanResolveTopicsGroup,
		&r.CanSetDeleteMessagePolicyGroup,
		&r.CanSetTopicsPolicyGroup,
		&r.CanSummarizeTopicsGroup,
		&r.CreateMultiuseInviteGroup,
		&r.DirectMessageInitiatorGroup,
		&r.DirectMessagePermissionGroup,
	}
}

// GroupSettings lists every group permission of r in API (alphabetical) order, with pointers
// into r, so that code copying, checking or emitting them stays in step with the struct. The
// lists of AllowedSystemGroups are shared: read them only.
func (r *Realm) GroupSettings() []NamedSetting {
	out := groupSettings
	for i, v := range r.groupSettingFields() {
		out[i].Value = v
	}
	return out[:]
}

// GroupSettingNames lists the API names of the organization's group permissions.
func GroupSettingNames() []string {
	var r Realm
	var out []string
	for _, s := range r.GroupSettings() {
		out = append(out, s.Name)
	}
	return out
}

// ApplyDefaultGroups fills every zero group permission of r (an organization stored before the
// setting existed) with its default system group, found by name with groupID (0: unknown, and
// the setting stays zero).
//
// It walks the fields directly (GroupSettings' list of about thirty settings would be allocated
// on every read of the organization).
func (r *Realm) ApplyDefaultGroups(groupID func(name string) users.GroupID) {
	for i, v := range r.groupSettingFields() {
		if v.IsNamed() || v.Members != nil || v.Subgroups != nil {
			continue
		}
		if id := groupID(groupSettings[i].Default); id != 0 {
			*v = users.Named(id)
		}
	}
}

// DecodeUserSettings reads EncodeSettings' form of UserSettingsDefaults, giving each known
// user setting its type's Go value and dropping unknown names.
func DecodeUserSettings(text string) (map[string]any, error) {
	if text == "" {
		return nil, nil
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal([]byte(text), &raw); err != nil {
		return nil, err
	}
	out := make(map[string]any, len(raw))
	for name, b := range raw {
		s, ok := users.LookupSetting(name)
		if !ok {
			continue
		}
		var err error
		switch s.Type {
		case users.SettingBool:
			out[name], err = strconv.ParseBool(string(b))
		case users.SettingInt:
			out[name], err = strconv.ParseInt(string(b), 10, 64)
		case users.SettingString:
			var str string
			err = json.Unmarshal(b, &str)
			out[name] = str
		}
		if err != nil {
			return nil, fmt.Errorf("user settings default %s: %w", name, err)
		}
	}
	return out, nil
}

// NormalizeDomain lowercases and trims an email domain and checks it by Zulip's rules; the
// error's text is Zulip's.
func NormalizeDomain(domain string) (string, error) {
	d := strings.ToLower(strings.TrimSpace(domain))
	switch {
	case d == "":
		return "", invalid("Domain can't be empty.")
	case !strings.Contains(d, "."):
		return "", invalid("Domain must have at least one dot (.)")
	case len(d) > 255:
		return "", invalid("Domain is too long")
	case d[0] == '.' || d[len(d)-1] == '.':
		return "", invalid("Domain cannot start or end with a dot (.)")
	}
	for _, sub := range strings.Split(d, ".") {
		switch {
		case sub == "":
			return "", invalid("Consecutive '.' are not allowed.")
		case sub[0] == '-' || sub[len(sub)-1] == '-':
			return "", invalid("Subdomains cannot start or end with a '-'.")
		case strings.Trim(sub, "abcdefghijklmnopqrstuvwxyz0123456789-") != "":
			return "", invalid("Domain can only have letters, numbers, '.' and '-'s.")
		}
	}
	return d, nil
}
