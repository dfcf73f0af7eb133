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

// Reaction types of an emoji (reaction_type).
const (
	UnicodeEmoji    = "unicode_emoji"
	RealmEmoji      = "realm_emoji"
	ZulipExtraEmoji = "zulip_extra_emoji"
)

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

// CheckUnicodeEmojiCode reports whether code has the shape of a Unicode emoji code: lowercase
// hexadecimal code points joined by dashes ("1f600", "1f1fa-1f1f8").
func CheckUnicodeEmojiCode(code string) bool {
	if code == "" || len(code) > 100 {
		return false
	}
	for _, part := range strings.Split(code, "-") {
		if part == "" || len(part) > 6 {
			return false
		}
		for _, c := range part {
			if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
				return false
			}
		}
	}
	return true
}

// MutedUser records that UserID muted MutedUserID at DateMuted.
type MutedUser struct {
	UserID      ID
	MutedUserID ID
	DateMuted   time.Time
}
