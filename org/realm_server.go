package org

import (
	"context"
	"strconv"
	"strings"

	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/markdown"
)

// Version is this project's release.
const Version = "0.1.0"

// FeatureLevel is the Zulip API feature level the Service implements: the highest level whose
// changes are all in (FEATURE_LEVELS.md lists each level since 481 and its tests).
const FeatureLevel = 484

// ServiceVersion is reported as service_version (and zulip_version). It starts with the Zulip
// release whose API it follows so that clients parsing a version number read a sensible one.
const ServiceVersion = "12.0-teamchat-" + Version

// GetServerSettingsParams carry what server_settings depends on besides the store.
type GetServerSettingsParams struct {
	// UserAgent decides is_incompatible.
	UserAgent string
}

// ExternalAuthenticationMethod is one entry of external_authentication_methods.
type ExternalAuthenticationMethod struct {
	Name        string  `json:"name"`
	DisplayName string  `json:"display_name"`
	DisplayIcon *string `json:"display_icon"`
	LoginURL    string  `json:"login_url"`
	SignupURL   string  `json:"signup_url"`
}

// GetServerSettingsResult is the response of GET /server_settings. The zulip_* keys repeat
// the service_* ones for the clients that read the older names.
type GetServerSettingsResult struct {
	AuthenticationMethods         map[string]bool                `json:"authentication_methods"`
	ExternalAuthenticationMethods []ExternalAuthenticationMethod `json:"external_authentication_methods"`
	ServiceFeatureLevel           int                            `json:"service_feature_level"`
	ServiceVersion                string                         `json:"service_version"`
	ServiceMergeBase              string                         `json:"service_merge_base"`
	ZulipFeatureLevel             int                            `json:"zulip_feature_level"`
	ZulipVersion                  string                         `json:"zulip_version"`
	ZulipMergeBase                string                         `json:"zulip_merge_base"`
	PushNotificationsEnabled      bool                           `json:"push_notifications_enabled"`
	IsIncompatible                bool                           `json:"is_incompatible"`
	EmailAuthEnabled              bool                           `json:"email_auth_enabled"`
	RequireEmailFormatUsernames   bool                           `json:"require_email_format_usernames"`
	RealmURL                      string                         `json:"realm_url"`
	RealmURI                      string                         `json:"realm_uri"`
	RealmName                     string                         `json:"realm_name"`
	RealmIcon                     string                         `json:"realm_icon"`
	RealmDescription              string                         `json:"realm_description"`
	RealmWebPublicAccessEnabled   bool                           `json:"realm_web_public_access_enabled"`
}

// GetServerSettings describes the server and its organization to clients before they log in.
func (s *Service) GetServerSettings(ctx context.Context, p GetServerSettingsParams) (GetServerSettingsResult, error) {
	var res GetServerSettingsResult
	err := s.eng.Read(ctx, engine.Actor{}, engine.NoActor, func(o *engine.ReadOp) error {
		tx := o.Tx
		realm, err := tx.Realm().Get()
		if err != nil {
			return err
		}
		password := realm.PasswordAuthEnabled
		res = GetServerSettingsResult{
			AuthenticationMethods: map[string]bool{
				"password": password, "dev": s.cfg.Dev, "email": password, "ldap": false,
				"remoteuser": false, "github": false, "azuread": false, "gitlab": false,
				"apple": false, "google": false, "saml": false, "openid connect": false,
			},
			ExternalAuthenticationMethods: []ExternalAuthenticationMethod{},
			ServiceFeatureLevel:           FeatureLevel,
			ServiceVersion:                ServiceVersion,
			ServiceMergeBase:              "",
			ZulipFeatureLevel:             FeatureLevel,
			ZulipVersion:                  ServiceVersion,
			ZulipMergeBase:                "",
			PushNotificationsEnabled:      s.cfg.PushNotificationsEnabled,
			IsIncompatible:                incompatibleClient(p.UserAgent),
			EmailAuthEnabled:              password,
			RequireEmailFormatUsernames:   true,
			RealmURL:                      realm.URL,
			RealmURI:                      realm.URL,
			RealmName:                     realm.Name,
			RealmIcon:                     RealmIconURL(realm),
			RealmDescription:              markdown.Render(realm.Description),
			RealmWebPublicAccessEnabled:   realm.EnableSpectatorAccess,
		}
		return nil
	})
	return res, err
}

// incompatibleClient reports whether a User-Agent names a client older than the minimum.
func incompatibleClient(userAgent string) bool {
	product, rest, _ := strings.Cut(userAgent, "/")
	// The oldest supported releases by User-Agent product; "ZulipInvalid" is Zulip's test
	// name for a client that is always too old.
	var min []int
	switch product {
	case "ZulipInvalid":
		return true
	case "ZulipMobile":
		min = []int{27, 192}
	default:
		return false
	}
	version, _, _ := strings.Cut(rest, " ")
	var got []int
	for _, part := range strings.Split(version, ".") {
		n, err := strconv.Atoi(part)
		if err != nil {
			break
		}
		got = append(got, n)
	}
	for i, want := range min {
		have := 0
		if i < len(got) {
			have = got[i]
		}
		if have != want {
			return have < want
		}
	}
	return false
}
