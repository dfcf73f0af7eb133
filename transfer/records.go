package transfer

import (
	"encoding/json"
	"strings"

	"github.com/teamchat/chat/users"
)

// The records of Zulip's export format (zerver/lib/export.py): realm.json holds the tables of
// the organization, messages-NNNNNN.json a batch of zerver_message and zerver_usermessage
// (and, here, the batch's zerver_reaction), attachment.json zerver_attachment, and
// uploads/, avatars/ and emoji/ the files with a records.json each. Dates are UNIX seconds
// as floats, foreign keys are the ids of the exported rows; passwords are never exported.
//
// Where this engine's model has no Zulip column the record carries the value under the name
// of the API (group settings: a group id, or {"direct_members", "direct_subgroups"}), and
// drafts (zerver_draft), which Zulip leaves out, are exported too.

// Recipient types of zerver_recipient.
const (
	recipientPersonal = 1
	recipientStream   = 2
	recipientHuddle   = 3
)

type realmRecord = map[string]any

type userRecord struct {
	ID                  int64          `json:"id"`
	Email               string         `json:"email"`
	DeliveryEmail       string         `json:"delivery_email"`
	FullName            string         `json:"full_name"`
	Role                int            `json:"role"`
	IsBot               bool           `json:"is_bot"`
	BotType             *int           `json:"bot_type"`
	BotOwner            *int64         `json:"bot_owner"`
	IsActive            bool           `json:"is_active"`
	IsMirrorDummy       bool           `json:"is_mirror_dummy"`
	APIKey              string         `json:"api_key,omitempty"`
	Timezone            string         `json:"timezone"`
	DateJoined          float64        `json:"date_joined"`
	AvatarSource        string         `json:"avatar_source"`
	AvatarVersion       int            `json:"avatar_version"`
	EmailVisibility     int            `json:"email_address_visibility"`
	CanCreateUsers      bool           `json:"can_create_users"`
	CanChangeUserEmails bool           `json:"can_change_user_emails"`
	IsDeleted           bool           `json:"teamchat_is_deleted,omitempty"` // no Zulip column: the delete_profile deactivation
	Realm               int64          `json:"realm"`
	SelfEdited          []string       `json:"teamchat_self_edited_settings,omitempty"`
	Settings            map[string]any `json:"-"` // inline, as Zulip's UserProfile columns
}

// MarshalJSON writes the record with its settings inline.
func (u userRecord) MarshalJSON() ([]byte, error) {
	type plain userRecord
	b, err := json.Marshal(plain(u))
	if err != nil || len(u.Settings) == 0 {
		return b, err
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	for k, v := range u.Settings {
		if _, taken := m[k]; !taken {
			m[k] = v
		}
	}
	return json.Marshal(m)
}

// UnmarshalJSON reads the record and, as settings, the columns named in users' settings table.
func (u *userRecord) UnmarshalJSON(b []byte) error {
	type plain userRecord
	if err := json.Unmarshal(b, (*plain)(u)); err != nil {
		return err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	for k, raw := range m {
		s, ok := users.LookupSetting(k)
		if !ok {
			continue
		}
		v, err := decodeSetting(raw, s.Default)
		if err != nil {
			continue // a value of another type than ours: the default stays
		}
		if u.Settings == nil {
			u.Settings = map[string]any{}
		}
		u.Settings[k] = v
	}
	return nil
}

// decodeSetting reads a JSON value in the Go type of def (bool, int64 or string).
func decodeSetting(raw json.RawMessage, def any) (any, error) {
	switch def.(type) {
	case bool:
		var v bool
		err := json.Unmarshal(raw, &v)
		return v, err
	case int64:
		var v int64
		err := json.Unmarshal(raw, &v)
		return v, err
	default:
		var v string
		err := json.Unmarshal(raw, &v)
		return v, err
	}
}

type groupSettingRecord struct {
	Group     int64
	Members   []int64
	Subgroups []int64
}

// MarshalJSON writes the API's form: a group id, or the anonymous group's lists.
func (g groupSettingRecord) MarshalJSON() ([]byte, error) {
	if g.Group != 0 {
		return json.Marshal(g.Group)
	}
	return json.Marshal(map[string][]int64{"direct_members": nonNil(g.Members), "direct_subgroups": nonNil(g.Subgroups)})
}

// UnmarshalJSON reads either form.
func (g *groupSettingRecord) UnmarshalJSON(b []byte) error {
	if err := json.Unmarshal(b, &g.Group); err == nil {
		return nil
	}
	var m struct {
		Members   []int64 `json:"direct_members"`
		Subgroups []int64 `json:"direct_subgroups"`
	}
	err := json.Unmarshal(b, &m)
	g.Members, g.Subgroups = m.Members, m.Subgroups
	return err
}

func nonNil(s []int64) []int64 {
	if s == nil {
		return []int64{}
	}
	return s
}

type streamRecord struct {
	ID                         int64                         `json:"id"`
	Name                       string                        `json:"name"`
	Description                string                        `json:"description"`
	DateCreated                float64                       `json:"date_created"`
	Creator                    *int64                        `json:"creator"`
	InviteOnly                 bool                          `json:"invite_only"`
	IsWebPublic                bool                          `json:"is_web_public"`
	HistoryPublicToSubscribers bool                          `json:"history_public_to_subscribers"`
	MessageRetentionDays       *int                          `json:"message_retention_days"`
	TopicsPolicy               int                           `json:"topics_policy"`
	Folder                     *int64                        `json:"folder"`
	Deactivated                bool                          `json:"deactivated"`
	IsDefault                  bool                          `json:"teamchat_is_default,omitempty"`
	DefaultPushNotifications   bool                          `json:"teamchat_default_push_notifications,omitempty"`
	Realm                      int64                         `json:"realm"`
	Recipient                  int64                         `json:"recipient"`
	GroupSettings              map[string]groupSettingRecord `json:"teamchat_group_settings"`
}

type recipientRecord struct {
	ID     int64 `json:"id"`
	Type   int   `json:"type"`
	TypeID int64 `json:"type_id"`
}

type huddleRecord struct {
	ID        int64  `json:"id"`
	Hash      string `json:"huddle_hash"`
	Recipient int64  `json:"recipient"`
}

type subscriptionRecord struct {
	ID                     int64  `json:"id"`
	UserProfile            int64  `json:"user_profile"`
	Recipient              int64  `json:"recipient"`
	Active                 bool   `json:"active"`
	IsUserActive           bool   `json:"is_user_active"`
	Color                  string `json:"color"`
	IsMuted                bool   `json:"is_muted"`
	PinToTop               bool   `json:"pin_to_top"`
	DesktopNotifications   *bool  `json:"desktop_notifications"`
	AudibleNotifications   *bool  `json:"audible_notifications"`
	PushNotifications      *bool  `json:"push_notifications"`
	EmailNotifications     *bool  `json:"email_notifications"`
	WildcardMentionsNotify *bool  `json:"wildcard_mentions_notify"`
}

type userGroupRecord struct {
	ID    int64 `json:"id"`
	Realm int64 `json:"realm"`
}

type namedGroupRecord struct {
	ID            int64                         `json:"usergroup_ptr"`
	Name          string                        `json:"name"`
	Description   string                        `json:"description"`
	IsSystemGroup bool                          `json:"is_system_group"`
	Creator       *int64                        `json:"creator"`
	DateCreated   float64                       `json:"date_created"`
	Deactivated   bool                          `json:"deactivated"`
	Realm         int64                         `json:"realm_for_sharding"`
	GroupSettings map[string]groupSettingRecord `json:"teamchat_group_settings"`
}

type membershipRecord struct {
	ID          int64 `json:"id"`
	UserGroup   int64 `json:"user_group"`
	UserProfile int64 `json:"user_profile"`
}

type groupMembershipRecord struct {
	ID         int64 `json:"id"`
	Supergroup int64 `json:"supergroup"`
	Subgroup   int64 `json:"subgroup"`
}

type emojiRecord struct {
	ID            int64  `json:"id"`
	Name          string `json:"name"`
	Author        *int64 `json:"author"`
	Deactivated   bool   `json:"deactivated"`
	FileName      string `json:"file_name"`
	StillFileName string `json:"teamchat_still_file_name,omitempty"`
	Realm         int64  `json:"realm"`
}

type profileFieldRecord struct {
	ID                      int64  `json:"id"`
	Name                    string `json:"name"`
	Hint                    string `json:"hint"`
	FieldType               int    `json:"field_type"`
	FieldData               string `json:"field_data"`
	Order                   int    `json:"order"`
	DisplayInProfileSummary bool   `json:"display_in_profile_summary"`
	Required                bool   `json:"required"`
	EditableByUser          bool   `json:"editable_by_user"`
	Realm                   int64  `json:"realm"`
}

type profileValueRecord struct {
	ID            int64  `json:"id"`
	UserProfile   int64  `json:"user_profile"`
	Field         int64  `json:"field"`
	Value         string `json:"value"`
	RenderedValue string `json:"rendered_value"`
}

type messageRecord struct {
	ID              int64    `json:"id"`
	Sender          int64    `json:"sender"`
	Recipient       int64    `json:"recipient"`
	Subject         string   `json:"subject"`
	Content         string   `json:"content"`
	RenderedContent string   `json:"rendered_content"`
	RenderedVersion int      `json:"rendered_content_version"`
	DateSent        float64  `json:"date_sent"`
	LastEditTime    *float64 `json:"last_edit_time"`
	LastMovedTime   *float64 `json:"teamchat_last_moved_time,omitempty"`
	EditHistory     *string  `json:"edit_history"`
	SendingClient   int64    `json:"sending_client"`
	Realm           int64    `json:"realm"`
	HasAttachment   bool     `json:"has_attachment"`
	HasImage        bool     `json:"has_image"`
	HasLink         bool     `json:"has_link"`
}

type userMessageRecord struct {
	ID          int64 `json:"id"`
	UserProfile int64 `json:"user_profile"`
	Message     int64 `json:"message"`
	FlagsMask   int64 `json:"flags_mask"`
}

type reactionRecord struct {
	ID           int64  `json:"id"`
	UserProfile  int64  `json:"user_profile"`
	Message      int64  `json:"message"`
	EmojiName    string `json:"emoji_name"`
	EmojiCode    string `json:"emoji_code"`
	ReactionType string `json:"reaction_type"`
}

type clientRecord struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

type attachmentRecord struct {
	ID          int64   `json:"id"`
	Owner       int64   `json:"owner"`
	PathID      string  `json:"path_id"`
	FileName    string  `json:"file_name"`
	Size        int64   `json:"size"`
	ContentType string  `json:"content_type"`
	CreateTime  float64 `json:"create_time"`
	Messages    []int64 `json:"messages"`
	Realm       int64   `json:"realm"`
	Width       int     `json:"teamchat_width,omitempty"`
	Height      int     `json:"teamchat_height,omitempty"`
	Thumbnailed bool    `json:"teamchat_thumbnailed,omitempty"`
}

type draftRecord struct {
	ID          int64   `json:"id"`
	UserProfile int64   `json:"user_profile"`
	Recipient   *int64  `json:"recipient"`
	To          []int64 `json:"teamchat_to,omitempty"`
	Type        string  `json:"teamchat_type"`
	Topic       string  `json:"topic"`
	Content     string  `json:"content"`
	LastEdit    float64 `json:"last_edit_time"`
}

type scheduledRecord struct {
	ID                 int64   `json:"id"`
	Sender             int64   `json:"sender"`
	Recipient          int64   `json:"recipient"`
	To                 []int64 `json:"teamchat_to,omitempty"`
	Subject            string  `json:"subject"`
	Content            string  `json:"content"`
	RenderedContent    string  `json:"rendered_content"`
	ScheduledTimestamp float64 `json:"scheduled_timestamp"`
	Delivered          bool    `json:"delivered"`
	DeliveredMessage   *int64  `json:"delivered_message"`
	HasAttachment      bool    `json:"has_attachment"`
	DeliveryType       int     `json:"delivery_type"`
	Failed             bool    `json:"failed"`
	Realm              int64   `json:"realm"`
	Kind               int     `json:"teamchat_kind"`
	ReadBySender       bool    `json:"read_by_sender"`
	Client             string  `json:"teamchat_client,omitempty"`
	FailureMessage     string  `json:"failure_message,omitempty"`
	ReminderTarget     *int64  `json:"reminder_target_message"`
	ReminderNote       string  `json:"reminder_note,omitempty"`
}

// fileRecord is an entry of uploads/, avatars/ or emoji/records.json.
type fileRecord struct {
	Path          string  `json:"path"`
	S3Path        string  `json:"s3_path"`
	ContentType   string  `json:"content_type,omitempty"`
	Size          int64   `json:"size"`
	LastModified  float64 `json:"last_modified"`
	RealmID       int64   `json:"realm_id"`
	UserProfileID int64   `json:"user_profile_id,omitempty"`
	FileName      string  `json:"file_name,omitempty"`
}

// The system bots: the cross-realm bots, which the store does not hold, under the ids the
// engine gives them (internal/world's NotificationBotID, WelcomeBotID, EmailGatewayBotID; a
// test keeps them equal).
const (
	notificationBotID    users.ID = 1<<31 - 1
	welcomeBotID         users.ID = 1<<31 - 2
	emailGatewayBotID    users.ID = 1<<31 - 3
	notificationBotEmail          = "notification-bot@zulip.com"
)

// systemBotRecords are the rows of zerver_userprofile_crossrealm an export writes.
func systemBotRecords() []crossRealmRecord {
	return []crossRealmRecord{
		{ID: int64(emailGatewayBotID), Email: "emailgateway@zulip.com"},
		{ID: int64(notificationBotID), Email: notificationBotEmail},
		{ID: int64(welcomeBotID), Email: "welcome-bot@zulip.com"},
	}
}

// systemBotByEmail is the id of the system bot with email; Zulip's other system bots (nagios,
// reminder) speak as the notification bot.
func systemBotByEmail(email string) users.ID {
	for _, r := range systemBotRecords() {
		if strings.EqualFold(r.Email, email) {
			return users.ID(r.ID)
		}
	}
	return notificationBotID
}

// crossRealmRecord is a row of zerver_userprofile_crossrealm: a system bot messages may name.
type crossRealmRecord struct {
	ID    int64  `json:"id"`
	Email string `json:"email"`
}
