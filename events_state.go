package chat

import (
	"cmp"
	"sync"
	"time"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/compose"
	"github.com/teamchat/chat/conversations"
	"github.com/teamchat/chat/internal/clients"
	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/internal/world"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/org"
	"github.com/teamchat/chat/people"
	"github.com/teamchat/chat/realms"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// RealmState is register's "realm" section: the organization's settings and the server's
// limits.
type RealmState struct {
	RealmName                             string             `json:"realm_name"`
	RealmDescription                      string             `json:"realm_description"`
	RealmIconURL                          string             `json:"realm_icon_url"`
	RealmIconSource                       string             `json:"realm_icon_source"`
	RealmURL                              string             `json:"realm_url"`
	RealmURI                              string             `json:"realm_uri"`
	RealmDateCreated                      int64              `json:"realm_date_created"`
	RealmEnableSpectatorAccess            bool               `json:"realm_enable_spectator_access"`
	RealmWaitingPeriodThreshold           int                `json:"realm_waiting_period_threshold"`
	RealmEmptyTopicDisplayName            string             `json:"realm_empty_topic_display_name"`
	RealmDefaultLanguage                  string             `json:"realm_default_language"`
	RealmPresenceDisabled                 bool               `json:"realm_presence_disabled"`
	RealmAllowMessageEditing              bool               `json:"realm_allow_message_editing"`
	RealmMessageContentEditLimitSeconds   *int               `json:"realm_message_content_edit_limit_seconds"`
	RealmMessageContentDeleteLimitSeconds *int               `json:"realm_message_content_delete_limit_seconds"`
	RealmMandatoryTopics                  bool               `json:"realm_mandatory_topics"`
	RealmTopicsPolicy                     string             `json:"realm_topics_policy"`
	RealmNewStreamAnnouncementsStreamID   int64              `json:"realm_new_stream_announcements_stream_id"`
	RealmSignupAnnouncementsStreamID      int64              `json:"realm_signup_announcements_stream_id"`
	RealmZulipUpdateAnnouncementsStreamID int64              `json:"realm_zulip_update_announcements_stream_id"`
	RealmPlanType                         int                `json:"realm_plan_type"`
	RealmPushNotificationsEnabled         bool               `json:"realm_push_notifications_enabled"`
	RealmIsZephyrMirrorRealm              bool               `json:"realm_is_zephyr_mirror_realm"`
	RealmPasswordAuthEnabled              bool               `json:"realm_password_auth_enabled"`
	RealmEmailAuthEnabled                 bool               `json:"realm_email_auth_enabled"`
	RealmCanCreatePublicChannelGroup      users.GroupSetting `json:"realm_can_create_public_channel_group"`
	RealmCanCreatePrivateChannelGroup     users.GroupSetting `json:"realm_can_create_private_channel_group"`
	RealmCanCreateWebPublicChannelGroup   users.GroupSetting `json:"realm_can_create_web_public_channel_group"`
	RealmCanAddSubscribersGroup           users.GroupSetting `json:"realm_can_add_subscribers_group"`
	RealmCanInviteUsersGroup              users.GroupSetting `json:"realm_can_invite_users_group"`
	RealmCanCreateGroups                  users.GroupSetting `json:"realm_can_create_groups"`
	RealmCanManageAllGroups               users.GroupSetting `json:"realm_can_manage_all_groups"`
	RealmCanMentionManyUsersGroup         users.GroupSetting `json:"realm_can_mention_many_users_group"`

	RealmMoveMessagesWithinStreamLimitSeconds   *int               `json:"realm_move_messages_within_stream_limit_seconds"`
	RealmMoveMessagesBetweenStreamsLimitSeconds *int               `json:"realm_move_messages_between_streams_limit_seconds"`
	RealmMessageEditHistoryVisibilityPolicy     string             `json:"realm_message_edit_history_visibility_policy"`
	RealmAllowEditHistory                       bool               `json:"realm_allow_edit_history"`
	RealmCanMoveMessagesBetweenTopicsGroup      users.GroupSetting `json:"realm_can_move_messages_between_topics_group"`
	RealmCanMoveMessagesBetweenChannelsGroup    users.GroupSetting `json:"realm_can_move_messages_between_channels_group"`
	RealmCanResolveTopicsGroup                  users.GroupSetting `json:"realm_can_resolve_topics_group"`

	MaxStreamNameLength                         int      `json:"max_stream_name_length"`
	MaxStreamDescriptionLength                  int      `json:"max_stream_description_length"`
	MaxTopicLength                              int      `json:"max_topic_length"`
	MaxMessageLength                            int      `json:"max_message_length"`
	MaxBulkNewSubscriptionMessages              int      `json:"max_bulk_new_subscription_messages"`
	MaxReminderNoteLength                       int      `json:"max_reminder_note_length"`
	EventQueueLongpollTimeoutSeconds            int      `json:"event_queue_longpoll_timeout_seconds"`
	ServerPresencePingIntervalSeconds           int      `json:"server_presence_ping_interval_seconds"`
	ServerPresenceOfflineThresholdSeconds       int      `json:"server_presence_offline_threshold_seconds"`
	ServerTypingStartedExpiryPeriodMilliseconds int      `json:"server_typing_started_expiry_period_milliseconds"`
	ServerTypingStoppedWaitPeriodMilliseconds   int      `json:"server_typing_stopped_wait_period_milliseconds"`
	ServerTypingStartedWaitPeriodMilliseconds   int      `json:"server_typing_started_wait_period_milliseconds"`
	PasswordMinLength                           int      `json:"password_min_length"`
	PasswordMaxLength                           int      `json:"password_max_length"`
	PasswordMinGuesses                          int      `json:"password_min_guesses"`
	DevelopmentEnvironment                      bool     `json:"development_environment"`
	ServerInlineImagePreview                    bool     `json:"server_inline_image_preview"`
	ServerWebPublicStreamsEnabled               bool     `json:"server_web_public_streams_enabled"`
	StopWords                                   []string `json:"stop_words"`

	RealmModerationRequestChannelID    int64                       `json:"realm_moderation_request_channel_id"`
	RealmAuthenticationMethods         map[string]AuthMethod       `json:"realm_authentication_methods"`
	RealmWildcardMentionPolicy         int64                       `json:"realm_wildcard_mention_policy"`
	RealmAvailableVideoChatProviders   map[string]NamedOption      `json:"realm_available_video_chat_providers"`
	GiphyRatingOptions                 map[string]NamedOption      `json:"giphy_rating_options"`
	RealmDefaultExternalAccounts       map[string]ExternalAccount  `json:"realm_default_external_accounts"`
	ServerSupportedPermissionSettings  SupportedPermissionSettings `json:"server_supported_permission_settings"`
	RealmBotDomain                     string                      `json:"realm_bot_domain"`
	RealmLogoURL                       string                      `json:"realm_logo_url"`
	RealmLogoSource                    string                      `json:"realm_logo_source"`
	RealmNightLogoURL                  string                      `json:"realm_night_logo_url"`
	RealmNightLogoSource               string                      `json:"realm_night_logo_source"`
	RealmPushNotificationsEnabledEndTS *int64                      `json:"realm_push_notifications_enabled_end_timestamp"`
	ServerGeneration                   int64                       `json:"server_generation"`
	ServerInlineURLEmbedPreview        bool                        `json:"server_inline_url_embed_preview"`
	ServerAvatarChangesDisabled        bool                        `json:"server_avatar_changes_disabled"`
	ServerNameChangesDisabled          bool                        `json:"server_name_changes_disabled"`
	ServerNeedsUpgrade                 bool                        `json:"server_needs_upgrade"`
	ServerJitsiServerURL               string                      `json:"server_jitsi_server_url"`
	// JitsiServerURL is register's deprecated jitsi_server_url (feature level 212):
	// realm_jitsi_server_url || server_jitsi_server_url, for clients older than the realm
	// setting.
	JitsiServerURL                        string `json:"jitsi_server_url"`
	ServerCanSummarizeTopics              bool   `json:"server_can_summarize_topics"`
	ServerMinDeactivatedRealmDeletionDays int    `json:"server_min_deactivated_realm_deletion_days"`
	ServerMaxDeactivatedRealmDeletionDays *int   `json:"server_max_deactivated_realm_deletion_days"`
	SettingsSendDigestEmails              bool   `json:"settings_send_digest_emails"`
	ZulipPlanIsNotLimited                 bool   `json:"zulip_plan_is_not_limited"`
	UpgradeTextForWideOrganizationLogo    string `json:"upgrade_text_for_wide_organization_logo"`

	// UploadLimits are the limits of uploaded files (uploads.go).
	UploadLimits

	// Settings are the table-described settings (written among the response's keys).
	Settings RealmSettingsState `json:"-"`
}

// longpollTimeoutSeconds is event_queue_longpoll_timeout_seconds: clients use it as their HTTP
// timeout for GET /events, so it always exceeds the heartbeat wait.
func (s *Service) longpollTimeoutSeconds() int {
	return max(90, int(s.opts.HeartbeatWait.Seconds())+40)
}

// initialState computes the register response's state sections for viewer (the zero User for
// a spectator).
func (s *Service) initialState(o *engine.ReadOp, p RegisterQueueParams) (RegisterQueueResult, error) {
	tx, viewer := storage.ReadTx(registerTx{ReadTx: o.Tx, fields: &onceFields{ProfileFieldReader: o.Tx.ProfileFields()}}), o.Me
	res := RegisterQueueResult{
		ZulipVersion:      ServiceVersion,
		ZulipFeatureLevel: FeatureLevel,
		ZulipMergeBase:    "",
	}
	realm, err := tx.Realm().Get()
	if err != nil {
		return res, err
	}
	if p.Fetches("realm") {
		if res.RealmState, err = s.realmSection(tx, realm); err != nil {
			return res, err
		}
	}
	// The user, channel and message sections share one world, read when the first needs it,
	// with the viewer's subscription rows (read once: the world's decisions and the
	// subscription sections both use them; the transaction writes nothing).
	var viewerRows []channels.Subscription
	w := sync.OnceValues(func() (*world.World, error) {
		w := o.SharedWorld() // a registration only reads
		if viewer.ID != 0 && !w.Failed() {
			rows, err := tx.Subscriptions().ListForUsers([]users.ID{viewer.ID})
			if w.Fail(err) {
				return w, nil
			}
			w.NoteUserRows(viewer.ID, rows)
			viewerRows = rows
		}
		return w, nil
	})
	if p.Fetches("realm_user") {
		clientGravatar := p.ClientGravatar == nil && viewer.ID != 0 || p.ClientGravatar != nil && *p.ClientGravatar
		w, err := w()
		if err != nil {
			return res, err
		}
		if res.RealmUserState, err = s.people.RealmUserState(tx, w, viewer, clientGravatar); err != nil {
			return res, err
		}
	}
	if res.DraftsState, err = compose.DraftsStateOf(tx, viewer, p); err != nil {
		return res, err
	}
	if res.ChannelsState, err = conversations.ChannelsInitialState(tx, w, &viewerRows, viewer, p, o.Now); err != nil {
		return res, err
	}
	if p.Fetches("realm_user_groups") && viewer.ID != 0 {
		w, err := w()
		if err != nil {
			return res, err
		}
		res.UserGroupsState = s.people.UserGroupsState(w, p.ClientCapabilities.IncludeDeactivatedGroups)
	}
	if res.MessagesState, err = conversations.MessagesInitialState(tx, w, viewer, p); err != nil {
		return res, err
	}
	err = s.otherSections(tx, w, realm, viewer, p, o.Now, &res)
	return res, err
}

// realmSection is register's realm section: the organization with its group settings
// resolved (default groups named, deactivated direct members left out).
func (s *Service) realmSection(tx storage.ReadTx, realm realms.Realm) (*RealmState, error) {
	groups, err := tx.Groups().ListShared() // read only: shared with other transactions
	if err != nil {
		return nil, err
	}
	names := make(map[users.GroupID]string, len(groups))
	ids := make(map[string]users.GroupID, len(groups))
	for _, g := range groups {
		names[g.ID], ids[g.Name] = g.Name, g.ID
	}
	realm.ApplyDefaultGroups(func(name string) users.GroupID { return ids[name] })
	if err := org.ActiveRealmGroupSettings(tx.Users(), &realm); err != nil {
		return nil, err
	}
	return s.realmState(realm, func(id users.GroupID) string { return names[id] }), nil
}

// otherSections fills register's sections after the messages: profile fields, presence, the
// organization's constants, emoji, alert words, scheduled messages, people and settings.
func (s *Service) otherSections(tx storage.ReadTx, w func() (*world.World, error), realm realms.Realm, viewer users.User, p RegisterQueueParams, now time.Time, res *RegisterQueueResult) error {
	var err error
	if p.Fetches("custom_profile_fields") && viewer.ID != 0 {
		if res.CustomProfileFieldsState, err = people.CustomProfileFieldsStateOf(tx.ProfileFields()); err != nil {
			return err
		}
	}
	if p.Fetches("presence") {
		if res.PresenceState, err = people.RegisterPresence(tx, s.people.EmailDomain(realm), viewer, p, now); err != nil {
			return err
		}
	}
	res.OrganizationState = org.OrganizationStateOf(realm, viewer, p)
	if res.EmojiState, err = org.EmojiStateOf(tx, realm.URL, p); err != nil {
		return err
	}
	if p.Fetches("alert_words") {
		if res.AlertWordsState, err = people.RegisterAlertWords(tx, viewer); err != nil {
			return err
		}
	}
	if res.ScheduledState, err = compose.ScheduledStateOf(tx.ScheduledMessages(), viewer, p); err != nil {
		return err
	}
	if err := s.peopleInitialState(tx, w, viewer, p, res); err != nil {
		return err
	}
	if p.Fetches("onboarding_steps") {
		if res.OnboardingState, err = s.people.RegisterOnboarding(tx, viewer); err != nil {
			return err
		}
	}
	if p.Fetches("user_settings") && viewer.ID != 0 {
		if res.UserSettingsState, err = people.UserSettingsStateOf(tx, viewer); err != nil {
			return err
		}
	}
	return nil
}

func (s *Service) realmState(realm realms.Realm, groupName func(users.GroupID) string) *RealmState {
	return &RealmState{
		RealmName:                             realm.Name,
		RealmDescription:                      org.RenderedDescription(realm),
		RealmIconURL:                          org.RealmIconURL(realm),
		RealmIconSource:                       realmIconSource(realm),
		RealmURL:                              realm.URL,
		RealmURI:                              realm.URL,
		RealmDateCreated:                      realm.DateCreated.Unix(),
		RealmEnableSpectatorAccess:            realm.EnableSpectatorAccess,
		RealmWaitingPeriodThreshold:           realm.WaitingPeriodThreshold,
		RealmEmptyTopicDisplayName:            realm.EmptyTopicDisplayName,
		RealmDefaultLanguage:                  realm.String("default_language"),
		RealmAllowMessageEditing:              realm.AllowMessageEditing,
		RealmMessageContentEditLimitSeconds:   org.LimitOrNull(realm.MessageContentEditLimitSeconds),
		RealmTopicsPolicy:                     realm.String("topics_policy"),
		RealmMandatoryTopics:                  realm.String("topics_policy") == realms.TopicsDisableEmpty,
		RealmMessageContentDeleteLimitSeconds: org.LimitOrNull(int(realm.Int("message_content_delete_limit_seconds"))),
		RealmNewStreamAnnouncementsStreamID:   conversations.AnnouncementsID(realm),
		RealmSignupAnnouncementsStreamID:      org.ChannelOrNone(realm.SignupAnnouncementsStreamID),
		RealmZulipUpdateAnnouncementsStreamID: org.ChannelOrNone(realm.ZulipUpdateAnnouncementsStreamID),
		RealmPlanType:                         1,
		RealmPushNotificationsEnabled:         s.opts.PushNotificationsEnabled,
		RealmPasswordAuthEnabled:              realm.PasswordAuthEnabled,
		RealmEmailAuthEnabled:                 realm.PasswordAuthEnabled,
		RealmCanCreatePublicChannelGroup:      realm.CanCreatePublicChannelGroup,
		RealmCanCreatePrivateChannelGroup:     realm.CanCreatePrivateChannelGroup,
		RealmCanCreateWebPublicChannelGroup:   realm.CanCreateWebPublicChannelGroup,
		RealmCanAddSubscribersGroup:           realm.CanAddSubscribersGroup,
		RealmCanInviteUsersGroup:              realm.CanInviteUsersGroup,
		RealmCanCreateGroups:                  realm.CanCreateGroups,
		RealmCanManageAllGroups:               realm.CanManageAllGroups,
		RealmCanMentionManyUsersGroup:         realm.CanMentionManyUsersGroup,

		RealmMoveMessagesWithinStreamLimitSeconds:   org.LimitOrNull(realm.MoveMessagesWithinStreamLimitSeconds),
		RealmMoveMessagesBetweenStreamsLimitSeconds: org.LimitOrNull(realm.MoveMessagesBetweenStreamsLimitSeconds),
		RealmMessageEditHistoryVisibilityPolicy:     realm.MessageEditHistoryVisibilityPolicy,
		RealmAllowEditHistory:                       realm.MessageEditHistoryVisibilityPolicy != string(messages.EditHistoryNone),
		RealmCanMoveMessagesBetweenTopicsGroup:      realm.CanMoveMessagesBetweenTopicsGroup,
		RealmCanMoveMessagesBetweenChannelsGroup:    realm.CanMoveMessagesBetweenChannelsGroup,
		RealmCanResolveTopicsGroup:                  realm.CanResolveTopicsGroup,

		MaxStreamNameLength:                         MaxStreamNameLength,
		MaxStreamDescriptionLength:                  MaxStreamDescriptionLength,
		MaxTopicLength:                              MaxTopicLength,
		MaxMessageLength:                            MaxMessageLength,
		MaxBulkNewSubscriptionMessages:              MaxBulkNewSubscriptionMessages,
		MaxReminderNoteLength:                       messages.MaxReminderNoteLength,
		EventQueueLongpollTimeoutSeconds:            s.longpollTimeoutSeconds(),
		ServerPresencePingIntervalSeconds:           60,
		ServerPresenceOfflineThresholdSeconds:       200,
		ServerTypingStartedExpiryPeriodMilliseconds: 45000,
		ServerTypingStoppedWaitPeriodMilliseconds:   12000,
		ServerTypingStartedWaitPeriodMilliseconds:   30000,
		PasswordMinLength:                           passwordPolicy(s.opts.WeakPasswords, PasswordMinLength),
		PasswordMaxLength:                           PasswordMaxLength,
		PasswordMinGuesses:                          passwordPolicy(s.opts.WeakPasswords, 10000),
		DevelopmentEnvironment:                      s.opts.Dev,
		ServerInlineImagePreview:                    true,
		ServerWebPublicStreamsEnabled:               true,
		StopWords:                                   []string{},

		RealmModerationRequestChannelID:       org.ChannelOrNone(realm.ModerationRequestChannelID),
		RealmAuthenticationMethods:            s.org.AuthMethods(realm),
		RealmWildcardMentionPolicy:            org.WildcardMentionPolicy(realm, groupName),
		RealmAvailableVideoChatProviders:      org.VideoChatProviders(),
		GiphyRatingOptions:                    org.GiphyRatingOptions(),
		RealmDefaultExternalAccounts:          org.DefaultExternalAccounts(),
		ServerSupportedPermissionSettings:     org.PermissionSettingsState(),
		RealmBotDomain:                        s.people.EmailDomain(realm),
		RealmLogoURL:                          org.DefaultLogoURL,
		RealmLogoSource:                       "D",
		RealmNightLogoURL:                     org.DefaultLogoURL,
		RealmNightLogoSource:                  "D",
		ServerGeneration:                      s.generation,
		ServerJitsiServerURL:                  org.JitsiServerURL,
		JitsiServerURL:                        cmp.Or(realm.String("jitsi_server_url"), org.JitsiServerURL),
		ServerMinDeactivatedRealmDeletionDays: org.MinDeactivatedRealmDeletionDays,
		ZulipPlanIsNotLimited:                 true,
		UpgradeTextForWideOrganizationLogo:    org.UpgradeText,
		UploadLimits:                          s.files.UploadLimits(),
		Settings:                              org.SettingsStateOf(realm),
	}
}

func realmIconSource(realm realms.Realm) string {
	if realm.IconURL != "" {
		return "U"
	}
	return "G"
}

// registerTx is a registration's transaction: the profile fields, which two sections read
// (the users' profile data and custom_profile_fields), are read once. (The transaction only
// reads, so a second read would return the same.)
type registerTx struct {
	storage.ReadTx
	fields *onceFields
}

func (t registerTx) ProfileFields() storage.ProfileFieldReader { return t.fields }

// onceFields is a ProfileFieldReader whose List reads once (callers only read the list).
type onceFields struct {
	storage.ProfileFieldReader
	list []users.ProfileField
	err  error
	read bool
}

func (f *onceFields) List() ([]users.ProfileField, error) {
	if !f.read {
		f.list, f.err = f.ProfileFieldReader.List()
		f.read = true
	}
	return f.list, f.err
}

// peopleInitialState fills register's user_status, realm_bots and muted_users keys (empty
// for spectators).
func (s *Service) peopleInitialState(tx storage.ReadTx, w func() (*world.World, error), viewer users.User, p clients.Register, res *RegisterQueueResult) error {
	var err error
	if p.Fetches("user_status") {
		res.UserStatusState = &UserStatusState{UserStatus: map[string]UserStatus{}}
		if viewer.ID != 0 {
			wd, err := w()
			if err != nil {
				return err
			}
			if res.UserStatusState, err = people.UserStatusStateOf(tx, wd.AllUsers()); err != nil {
				return err
			}
		}
	}
	if p.Fetches("realm_bot") {
		res.RealmBotsState = &RealmBotsState{RealmBots: []BotRecord{}}
		if viewer.ID != 0 {
			wd, err := w()
			if err != nil {
				return err
			}
			if res.RealmBotsState, err = people.RealmBotsStateOf(tx, wd.AllUsers(), viewer); err != nil {
				return err
			}
		}
	}
	if p.Fetches("muted_users") {
		if res.MutedUsersState, err = people.MutedUsersStateOf(tx, viewer); err != nil {
			return err
		}
	}
	return nil
}

// passwordPolicy is a bound of the password policy register reports: 0 under WeakPasswords,
// as Zulip's development settings have it.
func passwordPolicy(weak bool, bound int) int {
	if weak {
		return 0
	}
	return bound
}
