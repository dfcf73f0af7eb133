package org

import (
	"github.com/teamchat/chat/emoji"
	"github.com/teamchat/chat/images"
	"github.com/teamchat/chat/internal/engine"
)

// Config is what the org area needs to know of the server.
type Config struct {
	// CallKey signs the BigBlueButton call links this process gives out.
	CallKey []byte
	// Dev reports the development login (server_settings, the dev authentication method).
	Dev bool
	// PushNotificationsEnabled is reported by server_settings.
	PushNotificationsEnabled bool
	// EmojiImages stores the images of custom emoji; nil refuses uploads of custom emoji.
	EmojiImages EmojiImageStore
	// Emoji is the index of the unicode emoji, built on first use.
	Emoji func() *emoji.Index
	// Images decodes and resizes custom emoji within the Service's memory bounds.
	Images *images.Processor
}

// Service is the org area's operations. It is safe for concurrent use.
type Service struct {
	eng    *engine.Engine
	cfg    Config
	images *images.Processor
}

// New returns the org area's operations, run by eng.
func New(eng *engine.Engine, cfg Config) *Service {
	return &Service{eng: eng, cfg: cfg, images: cfg.Images}
}
