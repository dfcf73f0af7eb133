package chat

import (
	"context"

	"github.com/teamchat/chat/org"
)

// Video calls, realm domains, code playgrounds and linkifiers are the org area's operations
// (package org); the Service delegates to it.

// The types of the org area, defined in package org: these aliases keep embedders' code
// compiling.
type (
	JoinBigBlueButtonVideoCallResult      = org.JoinBigBlueButtonVideoCallResult
	UpdateRealmUserSettingsDefaultsResult = org.UpdateRealmUserSettingsDefaultsResult
	DeleteRealmDomainResult               = org.DeleteRealmDomainResult
	PatchRealmDomainResult                = org.PatchRealmDomainResult
	DeactivateCustomEmojiResult           = org.DeactivateCustomEmojiResult
	UploadCustomEmojiResult               = org.UploadCustomEmojiResult
	VideoCallResult                       = org.VideoCallResult
	CreateZoomVideoCallParams             = org.CreateZoomVideoCallParams
	CreateBigBlueButtonVideoCallParams    = org.CreateBigBlueButtonVideoCallParams
	JoinBigBlueButtonVideoCallParams      = org.JoinBigBlueButtonVideoCallParams
	RealmDomainRecord                     = org.RealmDomainRecord
	RealmDomainsEvent                     = org.RealmDomainsEvent
	GetRealmDomainsResult                 = org.GetRealmDomainsResult
	CreateRealmDomainParams               = org.CreateRealmDomainParams
	CreateRealmDomainResult               = org.CreateRealmDomainResult
	PatchRealmDomainParams                = org.PatchRealmDomainParams
	DeleteRealmDomainParams               = org.DeleteRealmDomainParams
	RealmUpdateEvent                      = org.RealmUpdateEvent
	LinkifierRecord                       = org.LinkifierRecord
	RealmLinkifiersEvent                  = org.RealmLinkifiersEvent
	RealmFiltersEvent                     = org.RealmFiltersEvent
	GetLinkifiersParams                   = org.GetLinkifiersParams
	GetLinkifiersResult                   = org.GetLinkifiersResult
	AddLinkifierParams                    = org.AddLinkifierParams
	AddLinkifierResult                    = org.AddLinkifierResult
	UpdateLinkifierParams                 = org.UpdateLinkifierParams
	UpdateLinkifierResult                 = org.UpdateLinkifierResult
	RemoveLinkifierParams                 = org.RemoveLinkifierParams
	RemoveLinkifierResult                 = org.RemoveLinkifierResult
	ReorderLinkifiersParams               = org.ReorderLinkifiersParams
	ReorderLinkifiersResult               = org.ReorderLinkifiersResult
	PlaygroundRecord                      = org.PlaygroundRecord
	RealmPlaygroundsEvent                 = org.RealmPlaygroundsEvent
	AddCodePlaygroundParams               = org.AddCodePlaygroundParams
	AddCodePlaygroundResult               = org.AddCodePlaygroundResult
	RemoveCodePlaygroundParams            = org.RemoveCodePlaygroundParams
	RemoveCodePlaygroundResult            = org.RemoveCodePlaygroundResult
)

// CreateZoomVideoCall creates a Zoom call for the actor. This server has no Zoom credentials,
// so it answers as a Zulip server without them does.
func (s *Service) CreateZoomVideoCall(ctx context.Context, actor Actor, p CreateZoomVideoCallParams) (VideoCallResult, error) {
	return s.org.CreateZoomVideoCall(ctx, actor, p)
}

// CreateWebexVideoCall creates a Webex call for the actor (POST /calls/webex/create). This
// server has no Webex credentials, so it answers as a Zulip server without them does.
func (s *Service) CreateWebexVideoCall(ctx context.Context, actor Actor) (VideoCallResult, error) {
	return s.org.CreateWebexVideoCall(ctx, actor)
}

// CreateBigBlueButtonVideoCall returns the link of a new BigBlueButton meeting with the actor
// as its moderator, as Zulip does: a signed /calls/bigbluebutton/join link. (Following it is
// where a server without BigBlueButton fails.)
func (s *Service) CreateBigBlueButtonVideoCall(ctx context.Context, actor Actor, p CreateBigBlueButtonVideoCallParams) (VideoCallResult, error) {
	return s.org.CreateBigBlueButtonVideoCall(ctx, actor, p)
}

// JoinBigBlueButtonVideoCall opens the meeting of a link CreateBigBlueButtonVideoCall made.
// This server has no BigBlueButton server, so it answers as a Zulip server without one does:
// Zulip checks its configuration before it reads the link.
func (s *Service) JoinBigBlueButtonVideoCall(ctx context.Context, p JoinBigBlueButtonVideoCallParams) (JoinBigBlueButtonVideoCallResult, error) {
	return s.org.JoinBigBlueButtonVideoCall(ctx, p)
}

// GetRealmDomains lists the organization's email domains (any user).
func (s *Service) GetRealmDomains(ctx context.Context, actor Actor) (GetRealmDomainsResult, error) {
	return s.org.GetRealmDomains(ctx, actor)
}

// CreateRealmDomain adds an email domain (owners only) and sends realm_domains add.
func (s *Service) CreateRealmDomain(ctx context.Context, actor Actor, p CreateRealmDomainParams) (CreateRealmDomainResult, error) {
	return s.org.CreateRealmDomain(ctx, actor, p)
}

// PatchRealmDomain changes whether a domain's subdomains are allowed (owners only) and sends
// realm_domains change.
func (s *Service) PatchRealmDomain(ctx context.Context, actor Actor, p PatchRealmDomainParams) (PatchRealmDomainResult, error) {
	return s.org.PatchRealmDomain(ctx, actor, p)
}

// DeleteRealmDomain removes a domain (owners only) and sends realm_domains remove; removing
// the last one turns emails_restricted_to_domains off, as Zulip does.
func (s *Service) DeleteRealmDomain(ctx context.Context, actor Actor, p DeleteRealmDomainParams) (DeleteRealmDomainResult, error) {
	return s.org.DeleteRealmDomain(ctx, actor, p)
}

// GetLinkifiers returns the organization's linkifiers; any user may read them.
func (s *Service) GetLinkifiers(ctx context.Context, actor Actor, p GetLinkifiersParams) (GetLinkifiersResult, error) {
	return s.org.GetLinkifiers(ctx, actor, p)
}

// AddLinkifier adds a linkifier after the existing ones (administrators only) and sends the
// new list to every active user.
func (s *Service) AddLinkifier(ctx context.Context, actor Actor, p AddLinkifierParams) (AddLinkifierResult, error) {
	return s.org.AddLinkifier(ctx, actor, p)
}

// UpdateLinkifier replaces a linkifier, keeping its place in the order (administrators only).
func (s *Service) UpdateLinkifier(ctx context.Context, actor Actor, p UpdateLinkifierParams) (UpdateLinkifierResult, error) {
	return s.org.UpdateLinkifier(ctx, actor, p)
}

// RemoveLinkifier deletes a linkifier (administrators only).
func (s *Service) RemoveLinkifier(ctx context.Context, actor Actor, p RemoveLinkifierParams) (RemoveLinkifierResult, error) {
	return s.org.RemoveLinkifier(ctx, actor, p)
}

// ReorderLinkifiers sets the order in which linkifiers apply; the list must name every
// linkifier exactly once (administrators only). An empty list with no linkifiers changes
// nothing.
func (s *Service) ReorderLinkifiers(ctx context.Context, actor Actor, p ReorderLinkifiersParams) (ReorderLinkifiersResult, error) {
	return s.org.ReorderLinkifiers(ctx, actor, p)
}

// AddCodePlayground adds a playground (administrators only) and sends the new list to every
// active user. The URL template must have exactly one variable, code.
func (s *Service) AddCodePlayground(ctx context.Context, actor Actor, p AddCodePlaygroundParams) (AddCodePlaygroundResult, error) {
	return s.org.AddCodePlayground(ctx, actor, p)
}

// RemoveCodePlayground deletes a playground (administrators only).
func (s *Service) RemoveCodePlayground(ctx context.Context, actor Actor, p RemoveCodePlaygroundParams) (RemoveCodePlaygroundResult, error) {
	return s.org.RemoveCodePlayground(ctx, actor, p)
}

// The types of the org area, defined in package org: these aliases keep embedders' code
// compiling.
type (
	CreateOrganizationParams              = org.CreateOrganizationParams
	CreateOrganizationResult              = org.CreateOrganizationResult
	RealmEditingParams                    = org.RealmEditingParams
	RealmDictEvent                        = org.RealmDictEvent
	GetServerSettingsParams               = org.GetServerSettingsParams
	ExternalAuthenticationMethod          = org.ExternalAuthenticationMethod
	GetServerSettingsResult               = org.GetServerSettingsResult
	AuthMethod                            = org.AuthMethod
	NamedOption                           = org.NamedOption
	ExternalAccount                       = org.ExternalAccount
	PermissionSettingRules                = org.PermissionSettingRules
	SupportedPermissionSettings           = org.SupportedPermissionSettings
	RealmSettingsState                    = org.RealmSettingsState
	OrganizationState                     = org.OrganizationState
	PushDeviceRecord                      = org.PushDeviceRecord
	RealmBilling                          = org.RealmBilling
	DefaultStreamGroup                    = org.DefaultStreamGroup
	EmbeddedBot                           = org.EmbeddedBot
	IncomingWebhookBot                    = org.IncomingWebhookBot
	UpdateRealmParams                     = org.UpdateRealmParams
	UpdateRealmResult                     = org.UpdateRealmResult
	GroupSettingChange                    = org.GroupSettingChange
	RealmUserSettingsDefaultsEvent        = org.RealmUserSettingsDefaultsEvent
	UpdateRealmUserSettingsDefaultsParams = org.UpdateRealmUserSettingsDefaultsParams
)

// CreateOrganization creates the store's organization and its system groups. It is a trusted
// operation (no acting user), used by servers on first start; it fails with BAD_REQUEST when
// the store already holds an organization.
func (s *Service) CreateOrganization(ctx context.Context, p CreateOrganizationParams) (CreateOrganizationResult, error) {
	return s.org.CreateOrganization(ctx, p)
}

// GetServerSettings describes the server and its organization to clients before they log in.
func (s *Service) GetServerSettings(ctx context.Context, p GetServerSettingsParams) (GetServerSettingsResult, error) {
	return s.org.GetServerSettings(ctx, p)
}

// UpdateRealm changes organization settings: administrators only, and owners only for the
// settings Zulip reserves to them. Each changed setting sends a realm update (or update_dict)
// event to every active user; nothing changes when any value is refused.
func (s *Service) UpdateRealm(ctx context.Context, actor Actor, p UpdateRealmParams) (UpdateRealmResult, error) {
	return s.org.UpdateRealm(ctx, actor, p)
}

// UpdateRealmUserSettingsDefaults changes the organization's defaults of new users' settings
// (administrators only); each change sends realm_user_settings_defaults update to every
// active user. Users created later start with these values.
func (s *Service) UpdateRealmUserSettingsDefaults(ctx context.Context, actor Actor, p UpdateRealmUserSettingsDefaultsParams) (UpdateRealmUserSettingsDefaultsResult, error) {
	return s.org.UpdateRealmUserSettingsDefaults(ctx, actor, p)
}

// MaxReservedUserIDs is org.MaxReservedUserIDs.
const MaxReservedUserIDs = org.MaxReservedUserIDs

// The types of the org area, defined in package org: these aliases keep embedders' code
// compiling.
type (
	EmojiImageStore             = org.EmojiImageStore
	BlobEmojiImages             = org.BlobEmojiImages
	RealmEmojiRecord            = org.RealmEmojiRecord
	EmojiState                  = org.EmojiState
	GetCustomEmojiResult        = org.GetCustomEmojiResult
	UploadCustomEmojiParams     = org.UploadCustomEmojiParams
	DeactivateCustomEmojiParams = org.DeactivateCustomEmojiParams
	ServerEmojiData             = org.ServerEmojiData
	RealmEmojiEvent             = org.RealmEmojiEvent
)

// GetCustomEmoji lists the organization's custom emoji, deactivated ones included.
func (s *Service) GetCustomEmoji(ctx context.Context, actor Actor) (GetCustomEmojiResult, error) {
	return s.org.GetCustomEmoji(ctx, actor)
}

// UploadCustomEmoji adds a custom emoji with the uploaded image, stored through
// Options.EmojiImages before the emoji's row is written.
func (s *Service) UploadCustomEmoji(ctx context.Context, actor Actor, p UploadCustomEmojiParams) (UploadCustomEmojiResult, error) {
	return s.org.UploadCustomEmoji(ctx, actor, p)
}

// DeactivateCustomEmoji deactivates an active custom emoji: administrators any, others their
// own. Reactions with it stay.
func (s *Service) DeactivateCustomEmoji(ctx context.Context, actor Actor, p DeactivateCustomEmojiParams) (DeactivateCustomEmojiResult, error) {
	return s.org.DeactivateCustomEmoji(ctx, actor, p)
}

// GetServerEmojiData returns the server emoji data file.
func (s *Service) GetServerEmojiData() ServerEmojiData {
	return s.org.GetServerEmojiData()
}

// Limits of custom emoji (org.MaxEmojiFileSize, org.MaxEmojiFieldLength) and the path of the
// server emoji data file (org.ServerEmojiDataPath).
const (
	MaxEmojiFileSize    = org.MaxEmojiFileSize
	MaxEmojiFieldLength = org.MaxEmojiFieldLength
	ServerEmojiDataPath = org.ServerEmojiDataPath
)
