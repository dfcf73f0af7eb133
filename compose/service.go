package compose

import "github.com/teamchat/chat/internal/engine"

// Service is the compose area's operations. It is safe for concurrent use.
type Service struct {
	eng *engine.Engine
}

// New returns the compose area's operations, run by eng.
func New(eng *engine.Engine) *Service { return &Service{eng: eng} }
