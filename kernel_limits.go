package chat

// Limits reported by register (the realm section) and enforced by the areas.
const (
	MaxStreamNameLength            = 60
	MaxStreamDescriptionLength     = 1024
	MaxTopicLength                 = 60
	MaxMessageLength               = 10000
	MaxBulkNewSubscriptionMessages = 100
	PasswordMinLength              = 6
	PasswordMaxLength              = 100
)
