package realms

import (
	"maps"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/teamchat/chat/users"
)

// Realm is the organization. A store holds exactly one.
type Realm struct {
	Name        string
	Description string // Markdown
	// IconURL is the square logo; empty means the default icon of the server.
	IconURL     string
	URL         string // canonical URL, e.g. http://localhost:9991
	DateCreated time.Time
	Deactivated bool

	// Settings consulted by the areas.
	EnableSpectatorAccess bool
	// WaitingPeriodThreshold is the number of days before a member joins role:fullmembers.
	WaitingPeriodThreshold int
	// DefaultEmailVisibility is the email_address_visibility of new users.
	DefaultEmailVisibility users.EmailVisibility
	// PasswordAuthEnabled allows POST /fetch_api_key.
	PasswordAuthEnabled bool
	// EmptyTopicDisplayName is how the empty topic is shown to clients that do not know it.
	EmptyTopicDisplayName string
	// NewStreamAnnouncementsStreamID is the channel where the notification bot announces new
	// channels; 0 means none.
	NewStreamAnnouncementsStreamID int64

	// Message editing and moving. The time limits are in seconds; 0 means no limit.
	AllowMessageEditing                    bool
	MessageContentEditLimitSeconds         int
	MoveMessagesWithinStreamLimitSeconds   int
	MoveMessagesBetweenStreamsLimitSeconds int
	// MessageEditHistoryVisibilityPolicy is "all", "moves" or "none".
	MessageEditHistoryVisibilityPolicy string

	// Group permissions of the organization, as group settings.
	CanCreatePublicChannelGroup    users.GroupSetting
	CanCreatePrivateChannelGroup   users.GroupSetting
	CanCreateWebPublicChannelGroup users.GroupSetting
	CanAddSubscribersGroup         users.GroupSetting
	CanInviteUsersGroup            users.GroupSetting
	CanCreateGroups                users.GroupSetting
	CanManageAllGroups             users.GroupSetting
	CanMentionManyUsersGroup       users.GroupSetting
	// Moving messages and resolving topics; the zero setting means the default group
	// (DefaultMoveGroups).
	CanMoveMessagesBetweenTopicsGroup   users.GroupSetting
	CanMoveMessagesBetweenChannelsGroup users.GroupSetting
	CanResolveTopicsGroup               users.GroupSetting
	// The other group permissions (see GroupSettings for their defaults and rules).
	CanAccessAllUsersGroup         users.GroupSetting
	CanAddCustomEmojiGroup         users.GroupSetting
	CanCreateBotsGroup             users.GroupSetting
	CanCreateWriteOnlyBotsGroup    users.GroupSetting
	CanDeleteAnyMessageGroup       users.GroupSetting
	CanDeleteOwnMessageGroup       users.GroupSetting
	CanManageBillingGroup          users.GroupSetting
	CanSetDeleteMessagePolicyGroup users.GroupSetting
	CanSetTopicsPolicyGroup        users.GroupSetting
	CanSummarizeTopicsGroup        users.GroupSetting
	CreateMultiuseInviteGroup      users.GroupSetting
	DirectMessageInitiatorGroup    users.GroupSetting
	DirectMessagePermissionGroup   users.GroupSetting

	// Settings holds the scalar settings of SettingsTable that have no field of their own,
	// by name; a missing one has its default (read them with Value, Bool, Int, String).
	Settings map[string]any
	// SignupAnnouncementsStreamID, ZulipUpdateAnnouncementsStreamID and
	// ModerationRequestChannelID are channels of the server's notices; 0 means none.
	SignupAnnouncementsStreamID      int64
	ZulipUpdateAnnouncementsStreamID int64
	ModerationRequestChannelID       int64
	// Domains are the organization's email domains (realm_domains), sorted by domain.
	Domains []Domain
	// UserSettingsDefaults are the settings of new users (realm_user_settings_defaults) that
	// differ from users.SettingsTable's defaults, by name.
	UserSettingsDefaults map[string]any
}

// Domain is one of the organization's email domains; ID numbers it for POST
// /realm/domains' answer.
type Domain struct {
	ID              int64  `json:"id"`
	Domain          string `json:"domain"`
	AllowSubdomains bool   `json:"allow_subdomains"`
}

// HostPort is the host of the realm URL with its port, if it has one (Zulip's realm.host);
// empty when the URL has no host.
func (r Realm) HostPort() string {
	u, err := url.Parse(r.URL)
	if err != nil {
		return ""
	}
	return u.Host
}

// Host is the host part of the realm URL, without its port; "zulip.invalid" when the URL has
// none.
func (r Realm) Host() string {
	// Fast path for the usual scheme://host/ form (nothing after the host): every user record with a hidden email
	// needs the host, so register calls this once per user.
	for _, scheme := range []string{"https://", "http://"} {
		if rest, ok := strings.CutPrefix(r.URL, scheme); ok {
			host := strings.TrimSuffix(rest, "/")
			if host != "" && strings.Trim(host, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-") == "" {
				return host
			}
			break
		}
	}
	u, err := url.Parse(r.URL)
	if err != nil || u.Hostname() == "" {
		return "zulip.invalid"
	}
	return u.Hostname()
}

// DefaultFakeEmailDomain is the domain of made-up addresses when neither the realm URL's host
// nor the server's fake email domain forms valid addresses (see EmailDomain).
const DefaultFakeEmailDomain = "zulip.invalid"

// EmailDomain is Zulip's get_fake_email_domain: the domain of the addresses the server makes
// up, bots' addresses ({short name}-bot@) and the placeholders of hidden addresses
// (user{id}@). It is the realm URL's host, with its port, when that forms valid email
// addresses, else fake (the server's FAKE_EMAIL_DOMAIN) when that does, else
// DefaultFakeEmailDomain. A host with a port or an IP address forms none: Zulip's
// development server, at 127.0.0.1:9991 with FAKE_EMAIL_DOMAIN "zulipdev.com", makes
// user8@zulipdev.com.
func (r Realm) EmailDomain(fake string) string {
	if host := r.HostPort(); ValidEmailDomain(host) {
		return host
	}
	if ValidEmailDomain(fake) {
		return fake
	}
	return DefaultFakeEmailDomain
}

// ValidEmailDomain reports whether domain can follow the @ of an address as Django's
// EmailValidator accepts it: localhost, or dot-separated labels of letters, digits and
// inner hyphens, the last of at least two characters and not all digits (no IP address, no
// port).
func ValidEmailDomain(domain string) bool {
	if domain == "localhost" {
		return true
	}
	labels := strings.Split(domain, ".")
	if len(labels) < 2 {
		return false
	}
	for _, l := range labels {
		if l == "" || len(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' ||
			strings.Trim(strings.ToLower(l), "abcdefghijklmnopqrstuvwxyz0123456789-") != "" {
			return false
		}
	}
	tld := labels[len(labels)-1]
	return len(tld) >= 2 && strings.Trim(tld, "0123456789") != ""
}

// Defaults of a new organization.
const (
	DefaultEmptyTopicDisplayName          = "general chat"
	DefaultMessageContentEditLimitSeconds = 600
	// DefaultMoveMessagesLimitSeconds is the default of both move limits: a week.
	DefaultMoveMessagesLimitSeconds = 7 * 24 * 3600
)

// DefaultMoveGroups names the system groups of the move and resolve permissions when the
// organization has none stored: between topics, between channels, resolving topics.
var DefaultMoveGroups = [3]string{users.GroupEveryone, users.GroupMembers, users.GroupEveryone}

// Clone returns a copy of r that shares no group-setting lists or maps with it.
func (r Realm) Clone() Realm {
	for _, s := range r.groupSettingFields() {
		s.Members = slices.Clone(s.Members)
		s.Subgroups = slices.Clone(s.Subgroups)
	}
	r.Settings = maps.Clone(r.Settings)
	r.Domains = slices.Clone(r.Domains)
	r.UserSettingsDefaults = maps.Clone(r.UserSettingsDefaults)
	return r
}
