package chat

import "github.com/teamchat/chat/people"

// Limits reported by register (the realm section) and enforced by the areas.
const (
	MaxStreamNameLength            = 60
	MaxStreamDescriptionLength     = 1024
	MaxTopicLength                 = 60
	MaxMessageLength               = 10000
	MaxBulkNewSubscriptionMessages = 100
)

// PasswordMinLength and PasswordMaxLength bound passwords (people.PasswordMinLength).
const (
	PasswordMinLength = people.PasswordMinLength
	PasswordMaxLength = people.PasswordMaxLength
)
