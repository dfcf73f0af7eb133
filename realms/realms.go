package realms

import (
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
}

// Host is the host part of the realm URL (used for placeholder emails); "zulip.invalid" when
// the URL has none.
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

// Clone returns a copy of r that shares no group-setting lists with it.
func (r Realm) Clone() Realm {
	for _, s := range r.GroupSettings() {
		s.Members = slices.Clone(s.Members)
		s.Subgroups = slices.Clone(s.Subgroups)
	}
	return r
}

// GroupSettings returns pointers to every group-setting field of r, so that code copying or
// checking them all stays in step with the struct.
func (r *Realm) GroupSettings() []*users.GroupSetting {
	return []*users.GroupSetting{
		&r.CanCreatePublicChannelGroup, &r.CanCreatePrivateChannelGroup,
		&r.CanCreateWebPublicChannelGroup, &r.CanAddSubscribersGroup, &r.CanInviteUsersGroup,
		&r.CanCreateGroups, &r.CanManageAllGroups, &r.CanMentionManyUsersGroup,
		&r.CanMoveMessagesBetweenTopicsGroup, &r.CanMoveMessagesBetweenChannelsGroup,
		&r.CanResolveTopicsGroup,
	}
}
