package users

import (
	"errors"
	"fmt"
	"slices"
	"unicode/utf8"
)

// InviteID identifies an invitation.
type InviteID int64

// Invite is a reusable invitation link: whoever opens it before it expires or is revoked may
// join the organization with its role, channels and groups.
type Invite struct {
	ID InviteID
	// Key is the secret part of the link ({realm_url}/join/{key}/): InviteKeyLength
	// characters of [a-z2-7].
	Key       string
	InvitedBy ID
	InvitedAs Role
	// ChannelIDs are the channels the new user is subscribed to; GroupIDs the groups they
	// join.
	ChannelIDs []int64
	GroupIDs   []GroupID
	// IncludeRealmDefaultSubscriptions also subscribes the new user to the default channels.
	IncludeRealmDefaultSubscriptions bool
	// WelcomeMessageCustomText is nil for the organization's default welcome message; "" sends
	// no custom text.
	WelcomeMessageCustomText *string
	// Created and ExpiresAt are UNIX seconds; ExpiresAt 0 means never.
	Created   int64
	ExpiresAt int64
	Revoked   bool

	// Email is the invitee of an email invitation ("" for a reusable link); such an
	// invitation creates one account, after which it is Used.
	Email string
	Used  bool
	// NotifyReferrerOnJoin asks for a notice to the inviter when the account is created.
	NotifyReferrerOnJoin bool
}

// IsMultiuse reports whether the invitation is a reusable link.
func (i Invite) IsMultiuse() bool { return i.Email == "" }

// Clone returns a copy of i that shares no memory with it.
func (i Invite) Clone() Invite {
	i.ChannelIDs = slices.Clone(i.ChannelIDs)
	i.GroupIDs = slices.Clone(i.GroupIDs)
	if i.WelcomeMessageCustomText != nil {
		s := *i.WelcomeMessageCustomText
		i.WelcomeMessageCustomText = &s
	}
	return i
}

// Usable reports whether the link may still be used at now (UNIX seconds).
func (i Invite) Usable(now int64) bool { return !i.Revoked && !i.Used && !i.Expired(now) }

// Expired reports whether the link has expired at now (UNIX seconds).
func (i Invite) Expired(now int64) bool { return i.ExpiresAt != 0 && now >= i.ExpiresAt }

// Limits of invitations.
const (
	InviteKeyLength = 24
	// MaxWelcomeMessageLength is in Unicode code points.
	MaxWelcomeMessageLength = 8000
	// DefaultInviteValidityMinutes is Zulip's INVITATION_LINK_VALIDITY_MINUTES (10 days).
	DefaultInviteValidityMinutes = 14400
	// MaxInviteValidityMinutes bounds invite_expires_in_minutes (about ten years).
	MaxInviteValidityMinutes = 10 * 365 * 24 * 60
	// MaxInviteChannels and MaxInviteGroups bound the lists of one invitation.
	MaxInviteChannels = 1000
	MaxInviteGroups   = 1000
)

// ValidInviteKey reports whether key has the shape of an invitation key.
func ValidInviteKey(key string) bool {
	if len(key) != InviteKeyLength {
		return false
	}
	for i := 0; i < len(key); i++ {
		c := key[i]
		if !(c >= 'a' && c <= 'z' || c >= '2' && c <= '7') {
			return false
		}
	}
	return true
}

// Refusals of the invitation rules.
var (
	// ErrInviteOwner: only owners may invite owners.
	ErrInviteOwner = errors.New("Must be an organization owner")
	// ErrInviteAdmin: only administrators may invite administrators.
	ErrInviteAdmin = errors.New("Must be an organization administrator")
	// ErrInviteRole: the role is more privileged than the requester's.
	ErrInviteRole = errors.New("Insufficient permission")
)

// CheckInviteAs verifies that a requester with role requester may invite users as role as: a
// valid role no more privileged than the requester's.
func CheckInviteAs(requester, as Role) error {
	if !as.Valid() {
		return fmt.Errorf("Invalid invite_as")
	}
	if requester.AtLeast(as) {
		return nil
	}
	switch as {
	case RoleOwner:
		return ErrInviteOwner
	case RoleAdministrator:
		return ErrInviteAdmin
	}
	return ErrInviteRole
}

// CheckWelcomeMessage bounds a custom welcome message.
func CheckWelcomeMessage(s string) error {
	if !utf8.ValidString(s) {
		return fmt.Errorf("Invalid welcome_message_custom_text")
	}
	if n := utf8.RuneCountInString(s); n > MaxWelcomeMessageLength {
		return fmt.Errorf("welcome_message_custom_text is too long (limit: %d characters)", MaxWelcomeMessageLength)
	}
	return nil
}
