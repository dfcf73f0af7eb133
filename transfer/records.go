package transfer

import (
	"encoding/json"
	"github.com/teamchat/chat/transfer/zulipdir"
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

type realmRecord = map[string]any

// userRecord is a row of zerver_userprofile with what this server adds: a bot's API key,
// the delete_profile deactivation, the settings the user edited, and the settings inline.
type userRecord struct {
	zulipdir.UserProfile
	APIKey     string         `json:"api_key,omitempty"`
	IsDeleted  bool           `json:"teamchat_is_deleted,omitempty"` // no Zulip column: the delete_profile deactivation
	SelfEdited []string       `json:"teamchat_self_edited_settings,omitempty"`
	Settings   map[string]any `json:"-"` // inline, as Zulip's UserProfile columns
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

// optString is s, or nil when it is empty (a null column).
func optString(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// deref is the string p points to, or the empty string for nil.
func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// orEmpty is s, or an empty slice (a JSON [], never null) for nil.
func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
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

type userGroupRecord struct {
	ID    int64 `json:"id"`
	Realm int64 `json:"realm"`
}

type namedGroupRecord struct {
	ID            int64                            `json:"usergroup_ptr"`
	Name          string                           `json:"name"`
	Description   string                           `json:"description"`
	IsSystemGroup bool                             `json:"is_system_group"`
	Creator       *int64                           `json:"creator"`
	DateCreated   float64                          `json:"date_created"`
	Deactivated   bool                             `json:"deactivated"`
	Realm         int64                            `json:"realm_for_sharding"`
	GroupSettings map[string]zulipdir.GroupSetting `json:"teamchat_group_settings"`
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
