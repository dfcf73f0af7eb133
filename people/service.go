package people

import "github.com/teamchat/chat/internal/engine"

// Config is what the people area needs to know of the server.
type Config struct {
	// NavigationTourVideoURL is the video of the navigation tour shown to new users (Zulip's
	// NAVIGATION_TOUR_VIDEO_URL); empty disables it, and its onboarding step is never offered.
	NavigationTourVideoURL string
}

// Service is the people area's operations. It is safe for concurrent use.
type Service struct {
	eng *engine.Engine
	cfg Config
}

// New returns the people area's operations, run by eng.
func New(eng *engine.Engine, cfg Config) *Service { return &Service{eng: eng, cfg: cfg} }
