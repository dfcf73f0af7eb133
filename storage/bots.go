package storage

import (
	"github.com/teamchat/chat/users"
)

// BotConfigReader reads bots' configurations.
type BotConfigReader interface {
	// Get returns a bot's configuration; a bot without a stored one gets the zero BotConfig
	// with its UserID.
	Get(users.ID) (users.BotConfig, error)
	// List returns every stored configuration, by user id.
	List() ([]users.BotConfig, error)
}

// BotConfigWriter reads and writes bots' configurations.
type BotConfigWriter interface {
	BotConfigReader
	// Put creates or replaces a bot's configuration.
	Put(users.BotConfig) error
}
