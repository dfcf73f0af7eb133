package retention

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/teamchat/chat/files"
	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/storage"
)

// Defaults of the retention pass, Zulip's: MESSAGE_BATCH_SIZE messages per transaction,
// ARCHIVED_DATA_VACUUMING_DELAY_DAYS before an archive is purged; the background pass runs
// hourly (Zulip's cron job runs archive_messages daily).
const (
	DefaultBatchSize   = 1000
	DefaultGracePeriod = 30 * 24 * time.Hour
	DefaultInterval    = time.Hour
)

// Config is what the retention area needs to know of the server.
type Config struct {
	// Store is the store batches are claimed in (storage.UpdateReadCommitted).
	Store storage.Storage
	// Now is the clock of the background passes; Log receives their failures.
	Now func() time.Time
	Log *slog.Logger
	// Files releases the attachments of archived messages and frees purged uploads.
	Files *files.Service
	// BatchSize is how many messages one transaction archives (default DefaultBatchSize);
	// GracePeriod how long an archive stays restorable (default DefaultGracePeriod);
	// Interval how often the background pass runs (default DefaultInterval).
	BatchSize   int
	GracePeriod time.Duration
	Interval    time.Duration
	// Archived and Purged, when set, are told how many messages each pass archived and
	// purged, when it did any.
	Archived func(messages int)
	Purged   func(messages int)
}

// Service is the retention area's operations. It is safe for concurrent use.
type Service struct {
	eng *engine.Engine
	cfg Config
	log *slog.Logger

	// once starts the background pass once; stop and done stop it and wait for it.
	once sync.Once
	stop context.CancelFunc
	done chan struct{}
}

// New returns the retention area's operations, run by eng.
func New(eng *engine.Engine, cfg Config) *Service {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	if cfg.BatchSize <= 0 {
		cfg.BatchSize = DefaultBatchSize
	}
	if cfg.GracePeriod <= 0 {
		cfg.GracePeriod = DefaultGracePeriod
	}
	if cfg.Interval <= 0 {
		cfg.Interval = DefaultInterval
	}
	return &Service{eng: eng, cfg: cfg, log: cfg.Log}
}

// Start starts the background pass: ArchiveMessages now and every Config.Interval, until
// Stop.
func (s *Service) Start() {
	s.once.Do(func() {
		ctx, cancel := context.WithCancel(context.Background())
		s.stop, s.done = cancel, make(chan struct{})
		go s.run(ctx)
	})
}

func (s *Service) run(ctx context.Context) {
	defer close(s.done)
	t := time.NewTicker(s.cfg.Interval)
	defer t.Stop()
	for {
		if _, err := s.ArchiveMessages(ctx, ArchiveMessagesParams{}); err != nil && ctx.Err() == nil {
			s.log.Error("message retention pass", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Stop stops the background pass and waits for it; a Service never started returns at once.
func (s *Service) Stop() {
	if s.stop != nil {
		s.stop()
		<-s.done
	}
}
