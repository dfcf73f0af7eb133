package users

import (
	"fmt"
	"regexp"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// ID identifies a user (person or bot).
type ID int64

// Role is an organization role. A smaller number has a superset of permissions.
type Role int

// The roles of Zulip, with their wire values.
const (
	RoleOwner         Role = 100
	RoleAdministrator Role = 200
	RoleModerator     Role = 300
	RoleMember        Role = 400
	RoleGuest         Role = 600
)

// Valid reports whether r is one of the five roles.
func (r Role) Valid() bool {
	switch r {
	case RoleOwner, RoleAdministrator, RoleModerator, RoleMember, RoleGuest:
		return true
	}
	return false
}

// AtLeast reports whether r has every permission of min (owner ⊇ administrator ⊇ ...).
func (r Role) AtLeast(min Role) bool { return r.Valid() && r <= min }

// IsAdmin reports whether the role is administrator or owner.
func (r Role) IsAdmin() bool { return r.AtLeast(RoleAdministrator) }

// String is the role's API name (owner, administrator, moderator, member, guest).
func (r Role) String() string {
	switch r {
	case RoleOwner:
		return "owner"
	case RoleAdministrator:
		return "administrator"
	case RoleModerator:
		return "moderator"
	case RoleMember:
		return "member"
	case RoleGuest:
		return "guest"
	}
	return fmt.Sprintf("role(%d)", int(r))
}

// BotType is the kind of a bot; zero means a human.
type BotType int

// Bot types with their wire values.
const (
	NotBot             BotType = 0
	BotGeneric         BotType = 1
	BotIncomingWebhook BotType = 2
	BotOutgoingWebhook BotType = 3
	BotEmbedded        BotType = 4
)

// Valid reports whether t is a bot type (1-4).
func (t BotType) Valid() bool { return t >= BotGeneric && t <= BotEmbedded }

// Avatar sources.
const (
	AvatarGravatar  = "G"
	AvatarUploaded  = "U"
	AvatarJdenticon = "J"
)

// User is a person or bot of the organization.
type User struct {
	ID             ID
	Email          string // delivery (real) email; unique case-insensitively
	FullName       string
	Role           Role
	BotType        BotType // NotBot for humans
	BotOwnerID     ID      // 0 when none (humans, legacy bots)
	IsActive       bool
	APIKey         string
	PasswordHash   string // empty: no usable password
	Timezone       string
	DateJoined     time.Time
	AvatarSource   string
	AvatarVersion  int
	IsImportedStub bool
	// EmailVisibility is the user's email_address_visibility setting: who may see Email.
	EmailVisibility EmailVisibility
	// CanCreateUsers is the special permission needed (besides administrator) for POST /users.
	CanCreateUsers bool
	// CanChangeUserEmails is the special permission an owner needs to change other users'
	// emails.
	CanChangeUserEmails bool
	// IsDeleted marks a user deactivated with the delete_profile action, whose account data
	// was removed (Zulip's is_deleted, feature level 490); reactivation clears it.
	IsDeleted bool
}

// IsBot reports whether u is a bot.
func (u User) IsBot() bool { return u.BotType != NotBot }

// DeletedUserName is the display name given by the delete_profile deactivation action.
const DeletedUserName = "Deleted user"

// Limits on user fields.
const (
	MaxFullNameLength = 100
	MaxEmailLength    = 254
	APIKeyLength      = 32
)

// fullNameSuffix matches names ending in "|<digits>", which Zulip refuses because they read
// as its mention syntax for users with ambiguous names (@**Name|15**).
var fullNameSuffix = regexp.MustCompile(`\|\d+$`)

// CheckFullName validates a display name as Zulip's check_full_name does and returns it
// trimmed: at most MaxFullNameLength characters, not empty, only printable characters (no
// Unicode control characters, surrogates or non-characters) and none of "*`\\>\"@", and no
// "|<digits>" ending on the raw name.
func CheckFullName(name string) (string, error) {
	raw := name
	name = strings.TrimSpace(name)
	n := utf8.RuneCountInString(name)
	switch {
	case n > MaxFullNameLength:
		return "", fmt.Errorf("Name too long!")
	case n == 0:
		return "", fmt.Errorf("Name must not be empty!")
	case !utf8.ValidString(name) || strings.ContainsFunc(name, notPrintable) || strings.ContainsAny(name, "*`\\>\"@"):
		return "", fmt.Errorf("Invalid characters in name!")
	case fullNameSuffix.MatchString(raw):
		return "", fmt.Errorf("Invalid format!")
	}
	return name, nil
}

// notPrintable reports what Zulip's is_character_printable refuses: the Unicode categories
// Cc and Cs and the 66 non-characters.
func notPrintable(r rune) bool {
	if unicode.Is(unicode.Cc, r) || unicode.Is(unicode.Cs, r) {
		return true
	}
	return (r >= 0xFDD0 && r <= 0xFDEF) || r&0xFFFE == 0xFFFE
}

// CheckEmail does the syntactic check Zulip applies to email addresses: one @, a non-empty
// local part, a domain with no spaces, bounded length.
func CheckEmail(email string) error {
	if len(email) > MaxEmailLength || !utf8.ValidString(email) || strings.ContainsFunc(email, unicode.IsControl) {
		return fmt.Errorf("Enter a valid email address.")
	}
	local, domain, ok := strings.Cut(email, "@")
	if !ok || local == "" || domain == "" || strings.Contains(domain, "@") ||
		strings.ContainsAny(email, " \t\r\n<>(),;:\"[]\\") || strings.HasPrefix(domain, ".") ||
		strings.HasSuffix(domain, ".") {
		return fmt.Errorf("Enter a valid email address.")
	}
	return nil
}

// NormalizeEmail is the form used for case-insensitive comparison and uniqueness.
func NormalizeEmail(email string) string { return strings.ToLower(strings.TrimSpace(email)) }

// ValidAPIKey reports whether key has the shape of an API key: 32 characters of [A-Za-z0-9].
func ValidAPIKey(key string) bool {
	if len(key) != APIKeyLength {
		return false
	}
	for i := 0; i < len(key); i++ {
		c := key[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// EmailVisibility is the organization setting email_address_visibility.
type EmailVisibility int

// Values of email_address_visibility.
const (
	EmailVisibleEveryone   EmailVisibility = 1
	EmailVisibleMembers    EmailVisibility = 2
	EmailVisibleAdmins     EmailVisibility = 3
	EmailVisibleNobody     EmailVisibility = 4
	EmailVisibleModerators EmailVisibility = 5
)

// Valid reports whether v is one of the five values.
func (v EmailVisibility) Valid() bool {
	return v >= EmailVisibleEveryone && v <= EmailVisibleModerators
}

// CanSeeEmail reports whether viewer may see target's real (delivery) email under the target's
// visibility setting: always their own and bots', otherwise by the viewer's role.
func CanSeeEmail(viewer, target User) bool {
	if viewer.ID == target.ID || target.IsBot() {
		return true
	}
	switch target.EmailVisibility {
	case EmailVisibleEveryone:
		return true
	case EmailVisibleMembers:
		return viewer.Role.AtLeast(RoleMember)
	case EmailVisibleModerators:
		return viewer.Role.AtLeast(RoleModerator)
	case EmailVisibleAdmins:
		return viewer.Role.IsAdmin()
	}
	return false
}
