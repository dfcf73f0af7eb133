package zulipdir

import "encoding/json"

// Recipient types (zerver.models.Recipient).
const (
	RecipientPersonal = 1
	RecipientStream   = 2
	RecipientHuddle   = 3
)

// Roles of users (zerver.models.UserProfile).
const (
	RoleOwner  = 100
	RoleAdmin  = 200
	RoleMember = 400
	RoleGuest  = 600
)

// Avatar sources: a Gravatar, or an image uploaded with the export.
const (
	AvatarGravatar = "G"
	AvatarUploaded = "U"
)

// BotTypeDefault is the bot_type of a generic bot.
const BotTypeDefault = 1

// UserMessage flags (zerver.models.UserMessage).
const (
	FlagRead            = 1
	FlagMentioned       = 8
	FlagWildcardMention = 16
	FlagIsPrivate       = 2048
)

// Reaction types.
const (
	ReactionUnicode = "unicode_emoji"
	ReactionRealm   = "realm_emoji"
)

// MessageTypeNormal is the type of a message sent by a user (zerver.models.Message.MessageType).
const MessageTypeNormal = 1

// ImportClientID is the id of the zerver_client row "ZulipDataImport", the sending client of
// every converted message.
const ImportClientID = 5

// Realm is realm.json: the organization and every table but the messages.
type Realm struct {
	Realm                   []RealmRow           `json:"zerver_realm"`
	Client                  []Client             `json:"zerver_client"`
	RealmDomain             []RealmDomain        `json:"zerver_realmdomain"`
	RealmAuthMethods        []RealmAuthMethod    `json:"zerver_realmauthenticationmethod"`
	UserProfile             []UserProfile        `json:"zerver_userprofile"`
	UserProfileMirrorDummy  []UserProfile        `json:"zerver_userprofile_mirrordummy"`
	UserProfileCrossRealm   []UserProfile        `json:"zerver_userprofile_crossrealm"`
	Stream                  []Stream             `json:"zerver_stream"`
	DefaultStream           []DefaultStream      `json:"zerver_defaultstream"`
	Huddle                  []Huddle             `json:"zerver_huddle"`
	Recipient               []Recipient          `json:"zerver_recipient"`
	Subscription            []Subscription       `json:"zerver_subscription"`
	Reaction                []Reaction           `json:"zerver_reaction"`
	RealmEmoji              []RealmEmoji         `json:"zerver_realmemoji"`
	CustomProfileField      []CustomProfileField `json:"zerver_customprofilefield"`
	CustomProfileFieldValue []CustomProfileValue `json:"zerver_customprofilefieldvalue"`
	UserPresence            []struct{}           `json:"zerver_userpresence"`
	UserActivity            []struct{}           `json:"zerver_useractivity"`
	UserActivityInterval    []struct{}           `json:"zerver_useractivityinterval"`
	RealmFilter             []struct{}           `json:"zerver_realmfilter"`
	RealmPlayground         []struct{}           `json:"zerver_realmplayground"`
	ImportSource            string               `json:"import_source"`
	SortByDate              bool                 `json:"sort_by_date,omitempty"`
}

// NewRealm returns a Realm with the one organization row, the clients of imported data, the
// organization's domain and its authentication methods, every other table empty (never null).
func NewRealm(row RealmRow, domain, importSource string) *Realm {
	r := &Realm{
		Realm: []RealmRow{row},
		Client: []Client{
			{ID: 1, Name: "Internal"}, {ID: 2, Name: "website"}, {ID: 3, Name: "ZulipMobile"},
			{ID: 4, Name: "ZulipElectron"}, {ID: ImportClientID, Name: "ZulipDataImport"},
		},
		RealmDomain:  []RealmDomain{{ID: row.ID, Realm: row.ID, Domain: domain}},
		ImportSource: importSource,
	}
	for i, name := range []string{"Email", "Dev", "GitHub", "GitLab", "Google", "AzureAD", "Apple", "SAML", "OpenID Connect"} {
		r.RealmAuthMethods = append(r.RealmAuthMethods, RealmAuthMethod{ID: int64(i + 1), Realm: row.ID, Name: name})
	}
	r.normalize()
	return r
}

// normalize replaces nil tables by empty ones, so that realm.json has [] and never null.
func (r *Realm) normalize() {
	empty := func(p *[]struct{}) {
		if *p == nil {
			*p = []struct{}{}
		}
	}
	empty(&r.UserPresence)
	empty(&r.UserActivity)
	empty(&r.UserActivityInterval)
	empty(&r.RealmFilter)
	empty(&r.RealmPlayground)
	r.UserProfile = orEmpty(r.UserProfile)
	r.UserProfileMirrorDummy = orEmpty(r.UserProfileMirrorDummy)
	r.UserProfileCrossRealm = orEmpty(r.UserProfileCrossRealm)
	r.Stream = orEmpty(r.Stream)
	r.DefaultStream = orEmpty(r.DefaultStream)
	r.Huddle = orEmpty(r.Huddle)
	r.Recipient = orEmpty(r.Recipient)
	r.Subscription = orEmpty(r.Subscription)
	r.Reaction = orEmpty(r.Reaction)
	r.RealmEmoji = orEmpty(r.RealmEmoji)
	r.CustomProfileField = orEmpty(r.CustomProfileField)
	r.CustomProfileFieldValue = orEmpty(r.CustomProfileFieldValue)
}

func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// RealmRow is the organization (zerver_realm).
type RealmRow struct {
	ID                             int64   `json:"id"`
	Name                           string  `json:"name"`
	StringID                       string  `json:"string_id"`
	Description                    string  `json:"description"`
	DateCreated                    float64 `json:"date_created"`
	Deactivated                    bool    `json:"deactivated"`
	InviteRequired                 bool    `json:"invite_required"`
	EmailsRestrictedToDomains      bool    `json:"emails_restricted_to_domains"`
	NewStreamAnnouncementsStream   *int64  `json:"new_stream_announcements_stream"`
	ZulipUpdateAnnouncementsStream *int64  `json:"zulip_update_announcements_stream"`
	SignupAnnouncementsStream      *int64  `json:"signup_announcements_stream"`
	IconSource                     string  `json:"icon_source"`
}

// Client is a sending client (zerver_client).
type Client struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

// RealmDomain is a domain of the organization (zerver_realmdomain).
type RealmDomain struct {
	ID              int64  `json:"id"`
	Realm           int64  `json:"realm"`
	Domain          string `json:"domain"`
	AllowSubdomains bool   `json:"allow_subdomains"`
}

// RealmAuthMethod is an enabled authentication backend (zerver_realmauthenticationmethod).
type RealmAuthMethod struct {
	ID    int64  `json:"id"`
	Realm int64  `json:"realm"`
	Name  string `json:"name"`
}

// UserProfile is a user (zerver_userprofile). Users have no password: the field is absent,
// and the import gives them an unusable one.
type UserProfile struct {
	ID                  int64   `json:"id"`
	Realm               int64   `json:"realm"`
	Email               string  `json:"email"`
	DeliveryEmail       string  `json:"delivery_email"`
	FullName            string  `json:"full_name"`
	ShortName           string  `json:"short_name,omitempty"`
	IsActive            bool    `json:"is_active"`
	IsBot               bool    `json:"is_bot"`
	BotType             *int    `json:"bot_type"`
	BotOwner            *int64  `json:"bot_owner,omitempty"`
	Role                int     `json:"role"`
	IsMirrorDummy       bool    `json:"is_mirror_dummy"`
	IsImportedStub      bool    `json:"is_imported_stub"`
	AvatarSource        string  `json:"avatar_source"`
	AvatarVersion       int     `json:"avatar_version"`
	DateJoined          float64 `json:"date_joined"`
	LastLogin           float64 `json:"last_login"`
	Timezone            string  `json:"timezone"`
	LongTermIdle        bool    `json:"long_term_idle"`
	LastActiveMessageID *int64  `json:"last_active_message_id"`
	EmailVisibility     int     `json:"email_address_visibility,omitempty"`
	CanCreateUsers      bool    `json:"can_create_users"`
	CanChangeUserEmails bool    `json:"can_change_user_emails"`
}

// Stream is a channel (zerver_stream). rendered_description is left empty: the import
// renders the description. The teamchat_ fields are this server's own, which Zulip's
// model has no column for; a group setting is a group id or an anonymous group.
type Stream struct {
	ID                         int64                   `json:"id"`
	Realm                      int64                   `json:"realm"`
	Name                       string                  `json:"name"`
	Description                string                  `json:"description"`
	RenderedDescription        string                  `json:"rendered_description"`
	DateCreated                float64                 `json:"date_created"`
	Creator                    *int64                  `json:"creator"`
	Deactivated                bool                    `json:"deactivated"`
	InviteOnly                 bool                    `json:"invite_only"`
	HistoryPublicToSubscribers bool                    `json:"history_public_to_subscribers"`
	IsWebPublic                bool                    `json:"is_web_public"`
	StreamPostPolicy           int                     `json:"stream_post_policy,omitempty"`
	MessageRetentionDays       *int                    `json:"message_retention_days"`
	TopicsPolicy               int                     `json:"topics_policy,omitempty"`
	Folder                     *int64                  `json:"folder,omitempty"`
	Recipient                  int64                   `json:"recipient,omitempty"`
	IsDefault                  bool                    `json:"teamchat_is_default,omitempty"`
	DefaultPushNotifications   bool                    `json:"teamchat_default_push_notifications,omitempty"`
	GroupSettings              map[string]GroupSetting `json:"teamchat_group_settings,omitempty"`
}

// GroupSetting is a permission setting of this server's (teamchat_group_settings): a named
// group's id, or an anonymous group of members and subgroups, in the API's two forms.
type GroupSetting struct {
	Group     int64
	Members   []int64
	Subgroups []int64
}

// MarshalJSON writes the API's form: a group id, or the anonymous group's lists.
func (g GroupSetting) MarshalJSON() ([]byte, error) {
	if g.Group != 0 {
		return json.Marshal(g.Group)
	}
	return json.Marshal(map[string][]int64{"direct_members": orEmpty(g.Members), "direct_subgroups": orEmpty(g.Subgroups)})
}

// UnmarshalJSON reads either form.
func (g *GroupSetting) UnmarshalJSON(b []byte) error {
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

// DefaultStream is a channel new users join (zerver_defaultstream).
type DefaultStream struct {
	ID     int64 `json:"id"`
	Realm  int64 `json:"realm"`
	Stream int64 `json:"stream"`
}

// Huddle is a group of direct-message participants (zerver_huddle); the import computes
// its hash from the subscriptions.
type Huddle struct {
	ID         int64  `json:"id"`
	GroupSize  int    `json:"group_size,omitempty"`
	HuddleHash string `json:"huddle_hash"`
	Recipient  int64  `json:"recipient,omitempty"`
}

// Recipient is what a message is sent to: a user, a channel or a huddle (zerver_recipient).
type Recipient struct {
	ID     int64 `json:"id"`
	Type   int   `json:"type"`
	TypeID int64 `json:"type_id"`
}

// Subscription ties a user to a recipient (zerver_subscription).
type Subscription struct {
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

// Message is a message (zerver_message); the topic is Zulip's export name "subject". A null
// rendered_content is rendered by the import.
type Message struct {
	ID                     int64    `json:"id"`
	Sender                 int64    `json:"sender"`
	Recipient              int64    `json:"recipient"`
	Realm                  int64    `json:"realm"`
	Type                   int      `json:"type"`
	Topic                  string   `json:"subject"`
	Content                string   `json:"content"`
	RenderedContent        *string  `json:"rendered_content"`
	RenderedContentVersion int      `json:"rendered_content_version"`
	DateSent               float64  `json:"date_sent"`
	SendingClient          int64    `json:"sending_client"`
	LastEditTime           *float64 `json:"last_edit_time"`
	LastMovedTime          *float64 `json:"teamchat_last_moved_time,omitempty"`
	EditHistory            *string  `json:"edit_history"`
	HasAttachment          bool     `json:"has_attachment"`
	HasImage               bool     `json:"has_image"`
	HasLink                bool     `json:"has_link"`
	IsChannelMessage       bool     `json:"is_channel_message"`
}

// UserMessage is a user's copy of a message with its flags (zerver_usermessage).
type UserMessage struct {
	ID          int64 `json:"id"`
	UserProfile int64 `json:"user_profile"`
	Message     int64 `json:"message"`
	FlagsMask   int64 `json:"flags_mask"`
}

// Reaction is an emoji reaction (zerver_reaction). EmojiCode is the code points of a unicode
// emoji, or the id of a custom emoji as a string.
type Reaction struct {
	ID           int64  `json:"id"`
	Message      int64  `json:"message"`
	UserProfile  int64  `json:"user_profile"`
	EmojiName    string `json:"emoji_name"`
	EmojiCode    string `json:"emoji_code"`
	ReactionType string `json:"reaction_type"`
}

// RealmEmoji is a custom emoji (zerver_realmemoji).
type RealmEmoji struct {
	ID            int64  `json:"id"`
	Realm         int64  `json:"realm"`
	Name          string `json:"name"`
	FileName      string `json:"file_name"`
	StillFileName string `json:"teamchat_still_file_name,omitempty"`
	Author        *int64 `json:"author"`
	Deactivated   bool   `json:"deactivated"`
	IsAnimated    bool   `json:"is_animated"`
}

// CustomProfileField is a profile field of the organization (zerver_customprofilefield).
type CustomProfileField struct {
	ID                      int64  `json:"id"`
	Realm                   int64  `json:"realm"`
	Name                    string `json:"name"`
	FieldType               int    `json:"field_type"`
	Hint                    string `json:"hint"`
	FieldData               string `json:"field_data"`
	Order                   int    `json:"order"`
	DisplayInProfileSummary bool   `json:"display_in_profile_summary"`
	Required                bool   `json:"required"`
	EditableByUser          bool   `json:"editable_by_user"`
}

// CustomProfileValue is a user's value of a profile field (zerver_customprofilefieldvalue).
type CustomProfileValue struct {
	ID            int64  `json:"id"`
	UserProfile   int64  `json:"user_profile"`
	Field         int64  `json:"field"`
	Value         string `json:"value"`
	RenderedValue string `json:"rendered_value,omitempty"`
}

// Attachment is an uploaded file and the messages linking it (zerver_attachment, in
// attachment.json).
type Attachment struct {
	ID            int64   `json:"id"`
	Realm         int64   `json:"realm"`
	Owner         int64   `json:"owner"`
	Messages      []int64 `json:"messages"`
	PathID        string  `json:"path_id"`
	FileName      string  `json:"file_name"`
	Size          int64   `json:"size"`
	CreateTime    float64 `json:"create_time"`
	IsRealmPublic bool    `json:"is_realm_public"`
	ContentType   *string `json:"content_type"`
	Width         int     `json:"teamchat_width,omitempty"`
	Height        int     `json:"teamchat_height,omitempty"`
	Thumbnailed   bool    `json:"teamchat_thumbnailed,omitempty"`
}

// UploadRecord describes one file under uploads/ (uploads/records.json).
type UploadRecord struct {
	Path             string  `json:"path"`
	S3Path           string  `json:"s3_path"`
	RealmID          int64   `json:"realm_id"`
	UserProfileID    int64   `json:"user_profile_id"`
	UserProfileEmail string  `json:"user_profile_email"`
	Size             int64   `json:"size"`
	LastModified     float64 `json:"last_modified"`
	ContentType      *string `json:"content_type"`
}

// AvatarRecord describes one file under avatars/ (avatars/records.json): each avatar is
// there twice, the image (.png) and the original (.original).
type AvatarRecord struct {
	Path          string  `json:"path"`
	S3Path        string  `json:"s3_path"`
	RealmID       int64   `json:"realm_id"`
	UserProfileID int64   `json:"user_profile_id"`
	AvatarVersion int     `json:"avatar_version"`
	LastModified  float64 `json:"last_modified"`
	ContentType   string  `json:"content_type"`
}

// EmojiRecord describes one file under emoji/ (emoji/records.json).
type EmojiRecord struct {
	ID       int64  `json:"id"`
	Path     string `json:"path"`
	S3Path   string `json:"s3_path"`
	FileName string `json:"file_name"`
	RealmID  int64  `json:"realm_id"`
	Name     string `json:"name"`
}
