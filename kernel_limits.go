package chat

import (
	"github.com/teamchat/chat/conversations"
	"github.com/teamchat/chat/people"
)

// Limits reported by register (the realm section) and enforced by the conversations
// (conversations.MaxStreamNameLength, ...).
const (
	MaxStreamNameLength            = conversations.MaxStreamNameLength
	MaxStreamDescriptionLength     = conversations.MaxStreamDescriptionLength
	MaxTopicLength                 = conversations.MaxTopicLength
	MaxMessageLength               = conversations.MaxMessageLength
	MaxBulkNewSubscriptionMessages = conversations.MaxBulkNewSubscriptionMessages
)

// PasswordMinLength and PasswordMaxLength bound passwords (people.PasswordMinLength).
const (
	PasswordMinLength = people.PasswordMinLength
	PasswordMaxLength = people.PasswordMaxLength
)
