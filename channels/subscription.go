package channels

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/teamchat/chat/users"
)

// Subscription is one user's subscription to one channel. An unsubscribed user keeps an
// inactive row, so that resubscribing restores the colour and settings.
type Subscription struct {
	UserID    users.ID
	ChannelID ID
	Active    bool
	Color     string
	IsMuted   bool
	PinToTop  bool
	// Notification settings; nil inherits the user's global setting.
	DesktopNotifications   *bool
	AudibleNotifications   *bool
	PushNotifications      *bool
	EmailNotifications     *bool
	WildcardMentionsNotify *bool
}

// Clone returns a copy of s that shares no memory with it.
func (s Subscription) Clone() Subscription {
	for _, p := range []**bool{&s.DesktopNotifications, &s.AudibleNotifications, &s.PushNotifications, &s.EmailNotifications, &s.WildcardMentionsNotify} {
		if *p != nil {
			v := **p
			*p = &v
		}
	}
	return s
}

// FirstSubscription is the subscription of user u who subscribes to c for the first time
// (there is no row of u's for c yet), with the given color: mobile push notifications are
// on when c's DefaultPushNotifications says so (feature level 507), whatever u's own
// default; a later resubscription keeps the row and so the user's choice.
func FirstSubscription(u users.ID, c Channel, color string) Subscription {
	s := Subscription{UserID: u, ChannelID: c.ID, Active: true, Color: color}
	if c.DefaultPushNotifications {
		on := true
		s.PushNotifications = &on
	}
	return s
}

// Property is a subscription property of POST /users/me/subscriptions/properties.
type Property string

// The subscription properties.
const (
	PropColor                  Property = "color"
	PropIsMuted                Property = "is_muted"
	PropInHomeView             Property = "in_home_view"
	PropPinToTop               Property = "pin_to_top"
	PropDesktopNotifications   Property = "desktop_notifications"
	PropAudibleNotifications   Property = "audible_notifications"
	PropPushNotifications      Property = "push_notifications"
	PropEmailNotifications     Property = "email_notifications"
	PropWildcardMentionsNotify Property = "wildcard_mentions_notify"
)

// KnownProperty reports whether p is a subscription property.
func KnownProperty(p Property) bool {
	switch p {
	case PropColor, PropIsMuted, PropInHomeView, PropPinToTop, PropDesktopNotifications,
		PropAudibleNotifications, PropPushNotifications, PropEmailNotifications, PropWildcardMentionsNotify:
		return true
	}
	return false
}

// Set applies a property change to s. value is a string for colour, a bool otherwise;
// in_home_view stores the inverse in IsMuted.
func (s *Subscription) Set(p Property, value any) error {
	if p == PropColor {
		c, ok := value.(string)
		if !ok || !ValidColor(c) {
			return ErrBadColor
		}
		s.Color = c
		return nil
	}
	b, ok := value.(bool)
	if !ok {
		if !KnownProperty(p) {
			return fmt.Errorf("Unknown subscription property: %s", p)
		}
		return fmt.Errorf("%s is not a boolean", p)
	}
	switch p {
	case PropIsMuted:
		s.IsMuted = b
	case PropInHomeView:
		s.IsMuted = !b
	case PropPinToTop:
		s.PinToTop = b
	case PropDesktopNotifications:
		s.DesktopNotifications = &b
	case PropAudibleNotifications:
		s.AudibleNotifications = &b
	case PropPushNotifications:
		s.PushNotifications = &b
	case PropEmailNotifications:
		s.EmailNotifications = &b
	case PropWildcardMentionsNotify:
		s.WildcardMentionsNotify = &b
	default:
		return fmt.Errorf("Unknown subscription property: %s", p)
	}
	return nil
}

// Folder is a channel folder.
type Folder struct {
	ID          FolderID
	Name        string // unique case-insensitively
	Description string // Markdown
	Order       int
	DateCreated int64 // UNIX seconds
	CreatorID   users.ID
	IsArchived  bool
}

// CheckFolderName trims a folder name and validates it like a channel name (not empty, at
// most MaxFolderNameLength code points, no control characters).
func CheckFolderName(name string) (string, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return "", errors.New("Channel folder name can't be empty.")
	}
	if utf8.RuneCountInString(name) > MaxFolderNameLength {
		return "", fmt.Errorf("name is too long (limit: %d characters)", MaxFolderNameLength)
	}
	for i, r := range []rune(name) {
		if unicode.Is(unicode.Cc, r) || unicode.Is(unicode.Cs, r) || isNonCharacter(r) {
			return "", fmt.Errorf("Invalid character in channel folder name, at position %d.", i+1)
		}
	}
	return name, nil
}

// CheckFolderDescription replaces newlines by spaces and checks the length limit.
func CheckFolderDescription(d string) (string, error) {
	d = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(d)
	if utf8.RuneCountInString(d) > MaxFolderDescriptionLength {
		return "", fmt.Errorf("description is too long (limit: %d characters)", MaxFolderDescriptionLength)
	}
	return d, nil
}
