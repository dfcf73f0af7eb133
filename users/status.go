package users

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// Status is a user's status (POST /users/me/status): a short text and an emoji. The "away"
// flag of the API is not stored here: it is the inverse of the user's presence_enabled setting.
type Status struct {
	UserID       ID
	StatusText   string
	EmojiName    string
	EmojiCode    string
	ReactionType string
	// Timestamp is when the status was last set.
	Timestamp time.Time
}

// Empty reports whether the status carries neither text nor emoji.
func (s Status) Empty() bool { return s.StatusText == "" && s.EmojiName == "" }

// MaxStatusTextLength bounds status_text (characters, after trimming).
const MaxStatusTextLength = 60

// CheckStatusText trims a status text and checks its length.
func CheckStatusText(text string) (string, error) {
	text = strings.TrimSpace(text)
	if !utf8.ValidString(text) {
		return "", fmt.Errorf("status_text is not valid UTF-8")
	}
	if utf8.RuneCountInString(text) > MaxStatusTextLength {
		return "", fmt.Errorf("status_text is too long (limit: %d characters)", MaxStatusTextLength)
	}
	return text, nil
}

// MutedUser records that UserID muted MutedUserID at DateMuted.
type MutedUser struct {
	UserID      ID
	MutedUserID ID
	DateMuted   time.Time
}
