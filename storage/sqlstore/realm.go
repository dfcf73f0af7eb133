package sqlstore

import (
	"database/sql"
	"encoding/json"
	"fmt"

	"github.com/teamchat/chat/realms"
	"github.com/teamchat/chat/users"
)

// realmTx is the organization accessor.
type realmTx struct{ t *txn }

// realmGroupColumns are the columns of realms.Realm.GroupSettings(), in its order.
const realmGroupColumns = `can_create_public_channel_group, can_create_private_channel_group,
	can_create_web_public_channel_group, can_add_subscribers_group, can_invite_users_group,
	can_create_groups, can_manage_all_groups, can_mention_many_users_group,
	can_move_messages_between_topics_group, can_move_messages_between_channels_group,
	can_resolve_topics_group`

const realmColumns = `name, description, icon_url, url, date_created, deactivated,
	enable_spectator_access, waiting_period_threshold, default_email_visibility,
	password_auth_enabled, empty_topic_display_name, new_stream_announcements_stream_id,
	allow_message_editing, message_content_edit_limit_seconds,
	move_messages_within_stream_limit_seconds, move_messages_between_streams_limit_seconds,
	message_edit_history_visibility_policy, ` + realmGroupColumns

func (a realmTx) Get() (realms.Realm, error) {
	list, err := cachedList(a.t, realmTable, &a.t.cache.realm, realms.Realm.Clone, func() ([]realms.Realm, error) {
		r, err := a.read()
		if err != nil {
			return nil, err
		}
		return []realms.Realm{r}, nil
	})
	if err != nil {
		return realms.Realm{}, err
	}
	return list[0], nil
}

// read reads the organization's row.
func (a realmTx) read() (realms.Realm, error) {
	var r realms.Realm
	var created sql.NullInt64
	settings := r.GroupSettings()
	texts := make([]string, len(settings))
	dest := []any{&r.Name, &r.Description, &r.IconURL, &r.URL, &created, &r.Deactivated,
		&r.EnableSpectatorAccess, &r.WaitingPeriodThreshold, &r.DefaultEmailVisibility,
		&r.PasswordAuthEnabled, &r.EmptyTopicDisplayName, &r.NewStreamAnnouncementsStreamID, &r.AllowMessageEditing,
		&r.MessageContentEditLimitSeconds, &r.MoveMessagesWithinStreamLimitSeconds,
		&r.MoveMessagesBetweenStreamsLimitSeconds, &r.MessageEditHistoryVisibilityPolicy}
	for i := range texts {
		dest = append(dest, &texts[i])
	}
	if err := a.t.get("SELECT "+realmColumns+" FROM realm WHERE id = 1", nil, dest...); err != nil {
		return realms.Realm{}, fmt.Errorf("realm: %w", err)
	}
	r.DateCreated = fromNanos(created)
	for i, s := range settings {
		if err := parseGroupSetting(texts[i], s); err != nil {
			return realms.Realm{}, fmt.Errorf("sqlstore: realm group setting %d: %w", i, err)
		}
	}
	return r, nil
}

func (a realmTx) Put(r realms.Realm) error {
	if err := a.t.bump(realmTable); err != nil {
		return err
	}
	args := []any{r.Name, r.Description, r.IconURL, r.URL, nanos(r.DateCreated), r.Deactivated,
		r.EnableSpectatorAccess, r.WaitingPeriodThreshold, r.DefaultEmailVisibility,
		r.PasswordAuthEnabled, r.EmptyTopicDisplayName, r.NewStreamAnnouncementsStreamID, r.AllowMessageEditing,
		r.MessageContentEditLimitSeconds, r.MoveMessagesWithinStreamLimitSeconds,
		r.MoveMessagesBetweenStreamsLimitSeconds, r.MessageEditHistoryVisibilityPolicy}
	for _, s := range r.GroupSettings() {
		args = append(args, groupSettingText(*s))
	}
	_, err := a.t.exec(`INSERT INTO realm (id, `+realmColumns+`)
		VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (id) DO UPDATE SET
		name = excluded.name, description = excluded.description, icon_url = excluded.icon_url,
		url = excluded.url, date_created = excluded.date_created, deactivated = excluded.deactivated,
		enable_spectator_access = excluded.enable_spectator_access,
		waiting_period_threshold = excluded.waiting_period_threshold,
		default_email_visibility = excluded.default_email_visibility,
		password_auth_enabled = excluded.password_auth_enabled,
		empty_topic_display_name = excluded.empty_topic_display_name,
		new_stream_announcements_stream_id = excluded.new_stream_announcements_stream_id,
		allow_message_editing = excluded.allow_message_editing,
		message_content_edit_limit_seconds = excluded.message_content_edit_limit_seconds,
		move_messages_within_stream_limit_seconds = excluded.move_messages_within_stream_limit_seconds,
		move_messages_between_streams_limit_seconds = excluded.move_messages_between_streams_limit_seconds,
		message_edit_history_visibility_policy = excluded.message_edit_history_visibility_policy,
		can_create_public_channel_group = excluded.can_create_public_channel_group,
		can_create_private_channel_group = excluded.can_create_private_channel_group,
		can_create_web_public_channel_group = excluded.can_create_web_public_channel_group,
		can_add_subscribers_group = excluded.can_add_subscribers_group,
		can_invite_users_group = excluded.can_invite_users_group,
		can_create_groups = excluded.can_create_groups,
		can_manage_all_groups = excluded.can_manage_all_groups,
		can_mention_many_users_group = excluded.can_mention_many_users_group,
		can_move_messages_between_topics_group = excluded.can_move_messages_between_topics_group,
		can_move_messages_between_channels_group = excluded.can_move_messages_between_channels_group,
		can_resolve_topics_group = excluded.can_resolve_topics_group`, args...)
	if err != nil {
		return fmt.Errorf("realm: %w", err)
	}
	return nil
}

// storedGroupSetting is the column form of a users.GroupSetting. Empty lists are left out, so
// they come back nil.
type storedGroupSetting struct {
	Group     users.GroupID   `json:"g,omitempty"`
	Members   []users.ID      `json:"m,omitempty"`
	Subgroups []users.GroupID `json:"s,omitempty"`
}

// groupSettingText encodes a group setting for a TEXT column.
func groupSettingText(s users.GroupSetting) string {
	b, _ := json.Marshal(storedGroupSetting(s)) // cannot fail: integers only
	return string(b)
}

// parseGroupSetting decodes groupSettingText's form into s.
func parseGroupSetting(text string, s *users.GroupSetting) error {
	if text == "" {
		*s = users.GroupSetting{} // a column added after the row: the default
		return nil
	}
	var v storedGroupSetting
	if err := json.Unmarshal([]byte(text), &v); err != nil {
		return err
	}
	*s = users.GroupSetting(v)
	return nil
}
