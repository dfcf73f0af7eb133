package emailgateway

import (
	"github.com/teamchat/chat/files"
	"github.com/teamchat/chat/internal/engine"
)

// Config is what the email gateway needs to know of the server.
type Config struct {
	// Pattern is Zulip's EMAIL_GATEWAY_PATTERN: the form of channels' email addresses, with
	// one %s for the part naming the channel ("%s@chat.example.com"); empty: no email gateway.
	Pattern string
	// Files is the files area, which uploads the attachments of received emails; nil
	// refuses emails with attachments.
	Files *files.Service
}

// Service is the email gateway's operations. It is safe for concurrent use.
type Service struct {
	eng   *engine.Engine
	cfg   Config
	files *files.Service
}

// New returns the email gateway's operations, run by eng.
func New(eng *engine.Engine, cfg Config) *Service {
	return &Service{eng: eng, cfg: cfg, files: cfg.Files}
}
