package typing

import (
	"context"
	"log/slog"
	"time"

	"github.com/teamchat/chat/internal/engine"
)

// Config is what the typing notifications need to know of the server.
type Config struct {
	// Now is the clock outside operations: when a start was noted, when it expires.
	Now func() time.Time
	// Log receives the janitor's logs.
	Log *slog.Logger
}

// Service is the typing notifications' operations and their expiry. It is safe for
// concurrent use.
type Service struct {
	eng *engine.Engine
	now func() time.Time
	log *slog.Logger

	// typing holds the started typing notifications; stop and done stop and wait for their
	// janitor.
	typing typists
	stop   chan struct{}
	done   chan struct{}
}

// New returns the typing notifications' operations, run by eng.
func New(eng *engine.Engine, cfg Config) *Service {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	return &Service{eng: eng, now: cfg.Now, log: cfg.Log}
}

// StartExpiry starts the janitor that sends the stops of typing notifications whose start
// expired, every interval; StopExpiry stops it.
func (s *Service) StartExpiry(interval time.Duration) {
	s.stop, s.done = make(chan struct{}), make(chan struct{})
	go s.janitor(interval, s.stop, s.done)
}

// StopExpiry stops the janitor StartExpiry started and waits for it.
func (s *Service) StopExpiry() {
	close(s.stop)
	<-s.done
}

// Expire sends the stops of typing notifications whose start expired (the janitor's round,
// without waiting for it).
func (s *Service) Expire(ctx context.Context) error { return s.expire(ctx) }
