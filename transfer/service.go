package transfer

import (
	"context"
	"log/slog"
	"sync"

	"github.com/teamchat/chat/blobs"
	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/storage"
)

// Service is the data-export area's operations (Zulip's /export/realm endpoints): exports
// requested by administrators run in the background, and their tarballs are kept in the blob
// store until deleted. It is safe for concurrent use; Close stops the running exports.
type Service struct {
	eng   *engine.Engine
	store storage.Storage
	bl    blobs.Store
	log   *slog.Logger

	// jobs holds the running exports; ctx ends them (Close).
	jobs   sync.WaitGroup
	ctx    context.Context
	cancel context.CancelFunc
}

// Config configures the Service.
type Config struct {
	// Store is the store the engine runs on: exports read it directly.
	Store storage.Storage
	// Blobs keeps the files the exports include and the tarballs they make; nil refuses
	// exports.
	Blobs blobs.Store
	Log   *slog.Logger
}

// New returns the export area's operations, run by eng.
func New(eng *engine.Engine, cfg Config) *Service {
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Service{eng: eng, store: cfg.Store, bl: cfg.Blobs, log: cfg.Log, ctx: ctx, cancel: cancel}
}

// Close stops the running exports (each is recorded as failed) and waits for them.
func (s *Service) Close() {
	s.cancel()
	s.jobs.Wait()
}
