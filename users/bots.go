package users

import (
	"fmt"
	"net/url"
)

// BotConfig is what a bot has besides its user record: its default channels (ids, 0 for
// none), whether it sees every public channel by default, and, for outgoing webhook and
// embedded bots, its service.
type BotConfig struct {
	UserID                      ID
	DefaultSendingStream        int64
	DefaultEventsRegisterStream int64
	DefaultAllPublicStreams     bool
	Service                     BotService
}

// BotService is the service of an outgoing webhook bot (BaseURL, Interface, Token) or of an
// embedded bot (Name, ConfigData).
type BotService struct {
	Name       string
	BaseURL    string
	Interface  int
	Token      string
	ConfigData map[string]string
}

// Interfaces of outgoing webhook services.
const (
	ServiceInterfaceGeneric = 1
	ServiceInterfaceSlack   = 2
)

// Limits of bot services.
const (
	MaxServiceURLLength   = 2083
	MaxBotConfigEntries   = 100
	MaxBotConfigValueSize = 10000
)

// CheckServiceURL validates an outgoing webhook's payload URL (an absolute http or https URL).
func CheckServiceURL(raw string) error {
	if len(raw) > MaxServiceURLLength {
		return fmt.Errorf("service_payload_url is too long (limit: %d characters)", MaxServiceURLLength)
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("service_payload_url is not a URL")
	}
	return nil
}

// ValidServiceInterface reports whether i is an outgoing webhook interface.
func ValidServiceInterface(i int) bool {
	return i == ServiceInterfaceGeneric || i == ServiceInterfaceSlack
}
