package compose

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/teamchat/chat/conversations"
	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/storage"
)

// Config is what the compose area needs to know of the server.
type Config struct {
	// Store is the store the scheduler claims due messages in (storage.UpdateReadCommitted).
	Store storage.Storage
	// Log receives the background scheduler's failures. (Its passes, like every operation,
	// read the engine's clock.)
	Log *slog.Logger
	// SchedulerInterval is how often the background scheduler looks for due scheduled
	// messages; SchedulerBatchSize how many it sends per transaction.
	SchedulerInterval  time.Duration
	SchedulerBatchSize int
	// Conversations is the conversations area, through whose send path scheduled messages
	// and reminders go out.
	Conversations *conversations.Service
	// Delivered, when set, is told what each scheduler pass that found due messages did.
	Delivered func(sent, failed int)
}

// Service is the compose area's operations. It is safe for concurrent use.
type Service struct {
	eng  *engine.Engine
	cfg  Config
	log  *slog.Logger
	conv *conversations.Service
	// store is Config.Store, the scheduler's claims' store.
	store storage.Storage

	// schedOnce starts the background scheduler once; schedStop and schedDone stop it and
	// wait for it (scheduled_deliver.go).
	schedOnce sync.Once
	schedStop context.CancelFunc
	schedDone chan struct{}
}

// New returns the compose area's operations, run by eng.
func New(eng *engine.Engine, cfg Config) *Service {
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	return &Service{eng: eng, cfg: cfg, log: cfg.Log, conv: cfg.Conversations, store: cfg.Store}
}

// monitorScheduled tells Config.Delivered what a scheduler pass delivered, when it found due
// messages.
func (s *Service) monitorScheduled(r DeliverScheduledMessagesResult) {
	if s.cfg.Delivered != nil && r.Delivered+r.Failed > 0 {
		s.cfg.Delivered(r.Delivered, r.Failed)
	}
}
