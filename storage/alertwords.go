package storage

import (
	"time"

	"github.com/teamchat/chat/users"
)

// AlertWordReader reads users' alert words.
type AlertWordReader interface {
	// Get returns a user's alert words in their stored order; a user without any gets an empty
	// list.
	Get(users.ID) ([]string, error)
	// All returns the alert words of every user who has any, in their stored order (what a
	// message is matched against; Zulip keeps the organization's words together too).
	All() (map[users.ID][]string, error)
}

// AlertWordWriter reads and writes users' alert words.
type AlertWordWriter interface {
	AlertWordReader
	// Set replaces a user's alert words, keeping their order (an empty list removes them all).
	Set(users.ID, []string) error
}

// PresenceFilter selects presences for List.
type PresenceFilter struct {
	// AfterUpdateID keeps the presences changed after that update id (0 or less: all).
	AfterUpdateID int64
	// ConnectedSince, when not zero, keeps the presences connected at or after it.
	ConnectedSince time.Time
}

// PresenceReader reads users' presence.
type PresenceReader interface {
	// Get returns a user's presence; ErrNotFound when the user never reported any.
	Get(users.ID) (users.Presence, error)
	// List returns the presences the filter keeps, by user id.
	List(PresenceFilter) ([]users.Presence, error)
}

// PresenceWriter reads and writes users' presence.
type PresenceWriter interface {
	PresenceReader
	// Put creates or replaces a user's presence, giving it the organization's next update id
	// (greater than every id given before, even by concurrent transactions), which it returns.
	// The LastUpdateID given is ignored.
	Put(users.Presence) (int64, error)
}

// OnboardingStepReader reads which onboarding steps (Zulip's one-time notices and actions)
// users have marked as read.
type OnboardingStepReader interface {
	// Seen returns the names of the steps a user has marked as read, sorted; a user who marked
	// none gets an empty list.
	Seen(users.ID) ([]string, error)
}

// OnboardingStepWriter reads and writes users' read onboarding steps.
type OnboardingStepWriter interface {
	OnboardingStepReader
	// MarkSeen records that a user has read a step; marking it again changes nothing.
	MarkSeen(users.ID, string) error
}
