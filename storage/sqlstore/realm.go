package sqlstore

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/teamchat/chat/realms"
	"github.com/teamchat/chat/users"
)

// realmTx is the organization accessor.
type realmTx struct{ t *txn }

// realmScalarColumns are the columns before the group settings, in the order of realmTx's
// scan and argument lists.
const realmScalarColumns = `name, description, icon_url, url, date_created, deactivated,
	enable_spectator_access, waiting_period_threshold, default_email_visibility,
	password_auth_enabled, empty_topic_display_name, new_stream_announcements_stream_id,
	allow_message_editing, message_content_edit_limit_seconds,
	move_messages_within_stream_limit_seconds, move_messages_between_streams_limit_seconds,
	message_edit_history_visibility_policy, extra`

// realmColumns lists every column: the scalar ones, then one per group setting, named as the
// setting, in realms.Realm.GroupSettings' order.
func realmColumns() []string {
	cols := strings.Split(realmScalarColumns, ",")
	for i := range cols {
		cols[i] = strings.TrimSpace(cols[i])
	}
	return append(cols, realms.GroupSettingNames()...)
}

// storedRealmExtra is the extra column: the organization's data that has no column of its own.
type storedRealmExtra struct {
	Settings             json.RawMessage `json:"settings,omitempty"`
	Signup               int64           `json:"signup,omitempty"`
	ZulipUpdate          int64           `json:"zulip_update,omitempty"`
	ModerationRequest    int64           `json:"moderation_request,omitempty"`
	Domains              []realms.Domain `json:"domains,omitempty"`
	UserSettingsDefaults json.RawMessage `json:"user_settings_defaults,omitempty"`
}

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
	var extra string
	settings := r.GroupSettings()
	texts := make([]string, len(settings))
	dest := []any{&r.Name, &r.Description, &r.IconURL, &r.URL, &created, &r.Deactivated,
		&r.EnableSpectatorAccess, &r.WaitingPeriodThreshold, &r.DefaultEmailVisibility,
		&r.PasswordAuthEnabled, &r.EmptyTopicDisplayName, &r.NewStreamAnnouncementsStreamID, &r.AllowMessageEditing,
		&r.MessageContentEditLimitSeconds, &r.MoveMessagesWithinStreamLimitSeconds,
		&r.MoveMessagesBetweenStreamsLimitSeconds, &r.MessageEditHistoryVisibilityPolicy, &extra}
	for i := range texts {
		dest = append(dest, &texts[i])
	}
	if err := a.t.get("SELECT "+strings.Join(realmColumns(), ", ")+" FROM realm WHERE id = 1", nil, dest...); err != nil {
		return realms.Realm{}, fmt.Errorf("realm: %w", err)
	}
	r.DateCreated = fromNanos(created)
	for i, s := range settings {
		if err := parseGroupSetting(texts[i], s.Value); err != nil {
			return realms.Realm{}, fmt.Errorf("sqlstore: realm group setting %s: %w", s.Name, err)
		}
	}
	if err := parseRealmExtra(extra, &r); err != nil {
		return realms.Realm{}, fmt.Errorf("sqlstore: realm extra: %w", err)
	}
	return r, nil
}

// parseRealmExtra decodes the extra column into r.
func parseRealmExtra(text string, r *realms.Realm) error {
	if text == "" {
		return nil
	}
	var e storedRealmExtra
	if err := json.Unmarshal([]byte(text), &e); err != nil {
		return err
	}
	var err error
	if r.Settings, err = realms.DecodeSettings(string(e.Settings)); err != nil {
		return err
	}
	if r.UserSettingsDefaults, err = realms.DecodeUserSettings(string(e.UserSettingsDefaults)); err != nil {
		return err
	}
	r.SignupAnnouncementsStreamID, r.ZulipUpdateAnnouncementsStreamID = e.Signup, e.ZulipUpdate
	r.ModerationRequestChannelID, r.Domains = e.ModerationRequest, e.Domains
	return nil
}

// realmExtraText encodes the extra column.
func realmExtraText(r realms.Realm) string {
	e := storedRealmExtra{
		Signup: r.SignupAnnouncementsStreamID, ZulipUpdate: r.ZulipUpdateAnnouncementsStreamID,
		ModerationRequest: r.ModerationRequestChannelID, Domains: r.Domains,
	}
	if s := realms.EncodeSettings(r.Settings); s != "" {
		e.Settings = json.RawMessage(s)
	}
	if s := realms.EncodeSettings(r.UserSettingsDefaults); s != "" {
		e.UserSettingsDefaults = json.RawMessage(s)
	}
	b, _ := json.Marshal(e) // cannot fail: encoded values only
	return string(b)
}

func (a realmTx) Put(r realms.Realm) error {
	if err := a.t.bump(realmTable); err != nil {
		return err
	}
	args := []any{r.Name, r.Description, r.IconURL, r.URL, nanos(r.DateCreated), r.Deactivated,
		r.EnableSpectatorAccess, r.WaitingPeriodThreshold, r.DefaultEmailVisibility,
		r.PasswordAuthEnabled, r.EmptyTopicDisplayName, r.NewStreamAnnouncementsStreamID, r.AllowMessageEditing,
		r.MessageContentEditLimitSeconds, r.MoveMessagesWithinStreamLimitSeconds,
		r.MoveMessagesBetweenStreamsLimitSeconds, r.MessageEditHistoryVisibilityPolicy, realmExtraText(r)}
	for _, s := range r.GroupSettings() {
		args = append(args, groupSettingText(*s.Value))
	}
	cols := realmColumns()
	updates := make([]string, len(cols))
	for i, c := range cols {
		updates[i] = c + " = excluded." + c
	}
	_, err := a.t.exec(`INSERT INTO realm (id, `+strings.Join(cols, ", ")+`)
		VALUES (1`+strings.Repeat(", ?", len(cols))+`)
		ON CONFLICT (id) DO UPDATE SET `+strings.Join(updates, ", "), args...)
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
