package org

import (
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/integrations"
	"github.com/teamchat/chat/internal/clients"
	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/markdown"
	"github.com/teamchat/chat/realms"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// Server constants of register's realm section.
const (
	// JitsiServerURL is the server's Jitsi Meet (server_jitsi_server_url), used when the
	// organization sets none.
	JitsiServerURL = "https://meet.jit.si"
	// MinDeactivatedRealmDeletionDays is server_min_deactivated_realm_deletion_days.
	MinDeactivatedRealmDeletionDays = 14
	// DefaultLogoURL is the logo of an organization that uploaded none.
	DefaultLogoURL = "/static/images/logo/zulip-org-logo.svg?version=0"
	// UpgradeText is Zulip's upgrade_text_for_wide_organization_logo.
	UpgradeText = "Available on Zulip Cloud Standard. Upgrade to access."
)

// AuthMethod is one entry of realm_authentication_methods.
type AuthMethod struct {
	Enabled           bool   `json:"enabled"`
	Available         bool   `json:"available"`
	UnavailableReason string `json:"unavailable_reason,omitempty"`
}

// NamedOption is an entry of realm_available_video_chat_providers and giphy_rating_options.
type NamedOption struct {
	Name string `json:"name"`
	ID   int64  `json:"id"`
}

// ExternalAccount is an entry of realm_default_external_accounts.
type ExternalAccount struct {
	Name       string `json:"name"`
	Text       string `json:"text"`
	Hint       string `json:"hint"`
	URLPattern string `json:"url_pattern"`
}

// PermissionSettingRules is an entry of server_supported_permission_settings.
type PermissionSettingRules struct {
	RequireSystemGroup     bool     `json:"require_system_group"`
	AllowInternetGroup     bool     `json:"allow_internet_group"`
	AllowNobodyGroup       bool     `json:"allow_nobody_group"`
	AllowEveryoneGroup     bool     `json:"allow_everyone_group"`
	DefaultGroupName       string   `json:"default_group_name"`
	DefaultForSystemGroups *string  `json:"default_for_system_groups"`
	AllowedSystemGroups    []string `json:"allowed_system_groups"`
}

// PermissionSettingsState is server_supported_permission_settings.
type SupportedPermissionSettings struct {
	Realm  map[string]PermissionSettingRules `json:"realm"`
	Stream map[string]PermissionSettingRules `json:"stream"`
	Group  map[string]PermissionSettingRules `json:"group"`
}

// RealmSettingsState holds register's realm keys that the organization's settings table
// describes (realms.SettingsTable) and that have no field of RealmState: "realm_" plus the
// setting's name, mapped to its value. It is written among the response's keys.
type RealmSettingsState map[string]any

// ActiveRealmGroupSettings leaves deactivated users out of the organization's anonymous group
// settings (register's realm_can_*_group values), reading only the users they name.
func ActiveRealmGroupSettings(r storage.UserReader, realm *realms.Realm) error {
	var ids []users.ID
	for _, ns := range realm.GroupSettings() {
		ids = append(ids, ns.Value.Members...)
	}
	if len(ids) == 0 {
		return nil
	}
	slices.Sort(ids)
	list, err := r.GetMany(slices.Compact(ids))
	if err != nil {
		return err
	}
	active := make(map[users.ID]bool, len(list))
	for _, u := range list {
		active[u.ID] = u.IsActive
	}
	for _, ns := range realm.GroupSettings() {
		*ns.Value = ns.Value.ActiveOnly(func(id users.ID) bool { return active[id] })
	}
	return nil
}

// RenderedDescription is realm_description: the organization's description as HTML.
func RenderedDescription(r realms.Realm) string { return markdown.Render(r.Description) }

// AuthMethods is realm_authentication_methods: password (Email) login, and the development
// login on a development server.
func (s *Service) AuthMethods(r realms.Realm) map[string]AuthMethod {
	m := map[string]AuthMethod{"Email": {Enabled: r.PasswordAuthEnabled, Available: true}}
	if s.cfg.Dev {
		m["Dev"] = AuthMethod{Enabled: true, Available: true}
	}
	return m
}

// applyAuthMethods changes the enabled authentication methods (only Email can be turned off;
// the development login follows the server's mode).
func (s *Service) applyAuthMethods(c *realmChange, given map[string]bool) error {
	if given == nil {
		return nil
	}
	current := s.AuthMethods(*c.realm)
	for _, name := range slices.Sorted(maps.Keys(given)) {
		m, ok := current[name]
		if !ok {
			return engine.BadRequest("Invalid authentication method: %s. Valid methods are: %v", name, slices.Sorted(maps.Keys(current)))
		}
		if name == "Dev" && !given[name] {
			return engine.BadRequest("Authentication method Dev cannot be disabled on a development server.")
		}
		m.Enabled = given[name]
		current[name] = m
	}
	if !slices.ContainsFunc(slices.Collect(maps.Values(current)), func(m AuthMethod) bool { return m.Enabled }) {
		return engine.BadRequest("At least one authentication method must be enabled.")
	}
	if current["Email"].Enabled == c.realm.PasswordAuthEnabled {
		return nil
	}
	c.realm.PasswordAuthEnabled = current["Email"].Enabled
	c.ev.Emit(RealmDictEvent{Type: "realm", Op: "update_dict", Property: "default", Data: map[string]any{
		"authentication_methods": current,
		"email_auth_enabled":     c.realm.PasswordAuthEnabled,
		"password_auth_enabled":  c.realm.PasswordAuthEnabled,
	}}, c.to)
	c.changed["authentication_methods"] = given
	return nil
}

// SettingsStateOf fills the table-described settings of register's realm section.
func SettingsStateOf(r realms.Realm) RealmSettingsState {
	st := RealmSettingsState{}
	for _, s := range realms.SettingsTable() {
		if s.Field {
			continue
		}
		switch s.Name {
		case "default_language", "topics_policy":
			continue // RealmState fields
		}
		st["realm_"+s.Name] = r.Value(s.Name)
	}
	for _, ns := range r.GroupSettings() {
		st["realm_"+ns.Name] = *ns.Value
	}
	for _, name := range []string{"realm_can_create_public_channel_group", "realm_can_create_private_channel_group",
		"realm_can_create_web_public_channel_group", "realm_can_add_subscribers_group", "realm_can_invite_users_group",
		"realm_can_create_groups", "realm_can_manage_all_groups", "realm_can_mention_many_users_group",
		"realm_can_move_messages_between_topics_group", "realm_can_move_messages_between_channels_group",
		"realm_can_resolve_topics_group"} {
		delete(st, name) // RealmState fields
	}
	return st
}

// VideoChatProviders is realm_available_video_chat_providers.
func VideoChatProviders() map[string]NamedOption {
	m := map[string]NamedOption{}
	for _, p := range realms.VideoChatProviders {
		m[p.Key] = NamedOption{Name: p.Name, ID: p.ID}
	}
	return m
}

// GiphyRatingOptions is giphy_rating_options.
func GiphyRatingOptions() map[string]NamedOption {
	m := map[string]NamedOption{}
	for _, p := range realms.GiphyRatings {
		m[p.Key] = NamedOption{Name: p.Name, ID: p.ID}
	}
	return m
}

// DefaultExternalAccounts is realm_default_external_accounts (Zulip's).
func DefaultExternalAccounts() map[string]ExternalAccount {
	out := map[string]ExternalAccount{}
	for subtype, a := range users.DefaultExternalAccounts() {
		out[subtype] = ExternalAccount{Name: a.Name, Text: a.Text, Hint: a.Hint, URLPattern: a.URLPattern}
	}
	return out
}

// PermissionSettingsState is server_supported_permission_settings, from the permission
// tables of the organization, channels and groups.
func PermissionSettingsState() SupportedPermissionSettings {
	nobody := users.GroupNobody
	out := SupportedPermissionSettings{Realm: map[string]PermissionSettingRules{}, Stream: map[string]PermissionSettingRules{}, Group: map[string]PermissionSettingRules{}}
	var r realms.Realm
	for _, ns := range r.GroupSettings() {
		out.Realm[ns.Name] = PermissionSettingRules{
			RequireSystemGroup: ns.RequireSystemGroup(), AllowNobodyGroup: ns.AllowNobody,
			AllowEveryoneGroup: ns.AllowEveryone, DefaultGroupName: ns.Default,
			AllowedSystemGroups: nonNil(ns.AllowedSystemGroups),
		}
	}
	var c channels.Channel
	for _, ns := range c.GroupSettings() {
		rules := PermissionSettingRules{AllowNobodyGroup: true, AllowEveryoneGroup: ns.AllowEveryone, DefaultGroupName: ns.Default, AllowedSystemGroups: []string{}}
		if ns.Default == "" {
			rules.DefaultGroupName, rules.DefaultForSystemGroups = "channel_creator", &nobody
		}
		out.Stream[ns.Name] = rules
	}
	for _, p := range users.GroupPermissions() {
		rules := PermissionSettingRules{AllowNobodyGroup: true, AllowEveryoneGroup: p.AllowEveryone, DefaultGroupName: "group_creator",
			DefaultForSystemGroups: &nobody, AllowedSystemGroups: []string{}}
		switch p.Name {
		case "can_join_group":
			rules.DefaultGroupName = nobody
		case "can_leave_group", "can_mention_group":
			rules.DefaultGroupName = users.GroupEveryone
		}
		out.Group[p.Name] = rules
	}
	return out
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// OrganizationState holds register's keys of the organization beyond the realm section, each
// present when its fetch type is requested (nil: omitted).
type OrganizationState struct {
	RealmDomains              *[]RealmDomainRecord  `json:"realm_domains,omitempty"`
	RealmUserSettingsDefaults map[string]any        `json:"realm_user_settings_defaults,omitempty"`
	RealmBilling              *RealmBilling         `json:"realm_billing,omitempty"`
	RealmDefaultStreamGroups  *[]DefaultStreamGroup `json:"realm_default_stream_groups,omitempty"`
	RealmEmbeddedBots         *[]EmbeddedBot        `json:"realm_embedded_bots,omitempty"`
	RealmIncomingWebhookBots  *[]IncomingWebhookBot `json:"realm_incoming_webhook_bots,omitempty"`
	HasZoomToken              *bool                 `json:"has_zoom_token,omitempty"`
	GiphyAPIKey               *string               `json:"giphy_api_key,omitempty"`
	// PushDevices lists the user's E2EE push registrations; without a push service
	// (RegisterPushDevice refuses them) there are none.
	PushDevices *map[string]PushDeviceRecord `json:"push_devices,omitempty"`
}

// PushDeviceRecord is an entry of push_devices.
type PushDeviceRecord struct {
	Status    string  `json:"status"`
	ErrorCode *string `json:"error_code"`
}

// RealmBilling is register's realm_billing: this server bills nobody.
type RealmBilling struct {
	HasPendingSponsorshipRequest bool `json:"has_pending_sponsorship_request"`
}

// DefaultStreamGroup is an entry of realm_default_stream_groups (this server offers none).
type DefaultStreamGroup struct {
	ID          int64   `json:"id"`
	Name        string  `json:"name"`
	Description string  `json:"description"`
	Streams     []int64 `json:"streams"`
}

// EmbeddedBot is an entry of realm_embedded_bots: a bot service the server runs (none here).
type EmbeddedBot struct {
	Name   string            `json:"name"`
	Config map[string]string `json:"config"`
}

// IncomingWebhookBot is an entry of realm_incoming_webhook_bots: an integration the server
// serves at /api/v1/external/{name}.
type IncomingWebhookBot = integrations.BotEntry

// OrganizationStateOf fills the organization's keys beyond the realm section. The server runs
// no embedded bots, Zoom or GIPHY and bills nobody, so those keys say so.
func OrganizationStateOf(realm realms.Realm, viewer users.User, p clients.Register) *OrganizationState {
	st := &OrganizationState{}
	set := false
	if p.Fetches("realm_domains") {
		d := DomainRecords(realm)
		st.RealmDomains, set = &d, true
	}
	if p.Fetches("realm_user_settings_defaults") && viewer.ID != 0 {
		st.RealmUserSettingsDefaults, set = userDefaultsState(realm), true
	}
	if p.Fetches("realm_billing") && viewer.ID != 0 {
		st.RealmBilling, set = &RealmBilling{}, true
	}
	if p.Fetches("default_stream_groups") {
		st.RealmDefaultStreamGroups, set = &[]DefaultStreamGroup{}, true
	}
	if p.Fetches("realm_embedded_bots") && viewer.ID != 0 {
		st.RealmEmbeddedBots, set = &[]EmbeddedBot{}, true
	}
	if p.Fetches("realm_incoming_webhook_bots") && viewer.ID != 0 {
		bots := integrations.BotEntries()
		st.RealmIncomingWebhookBots, set = &bots, true
	}
	if p.Fetches("video_calls") && viewer.ID != 0 {
		no := false
		st.HasZoomToken, set = &no, true
	}
	if p.Fetches("push_device") && viewer.ID != 0 {
		st.PushDevices, set = &map[string]PushDeviceRecord{}, true
	}
	if p.Fetches("giphy") {
		key := ""
		st.GiphyAPIKey, set = &key, true
	}
	if !set {
		return nil
	}
	return st
}

// RealmIconURL is the organization's icon, or a generated identicon.
func RealmIconURL(realm realms.Realm) string {
	if realm.IconURL != "" {
		return realm.IconURL
	}
	sum := md5.Sum([]byte(realm.URL))
	return fmt.Sprintf("https://secure.gravatar.com/avatar/%s?d=identicon&s=100", hex.EncodeToString(sum[:]))
}

// LimitOrNull is a time limit as the API shows it: null for none (0).
func LimitOrNull(seconds int) *int {
	if seconds <= 0 {
		return nil
	}
	return &seconds
}
