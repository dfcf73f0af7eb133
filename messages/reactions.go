package messages

import "github.com/teamchat/chat/users"

// Reaction is one user's emoji reaction to a message. A user reacts at most once with one
// emoji: (MessageID, UserID, EmojiCode, ReactionType) is unique; several users reacting with
// one emoji share its name.
type Reaction struct {
	MessageID ID
	UserID    users.ID
	EmojiName string
	EmojiCode string
	// ReactionType is unicode_emoji, realm_emoji or zulip_extra_emoji (package emoji).
	ReactionType string
}

// SameEmoji reports whether r and o react with the same emoji (code and type).
func (r Reaction) SameEmoji(o Reaction) bool {
	return r.EmojiCode == o.EmojiCode && r.ReactionType == o.ReactionType
}
