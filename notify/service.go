package notify

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// Mailer delivers an email (people.Mailer's shape; the mail package implements it).
type Mailer interface {
	Send(ctx context.Context, to, subject, body string) error
}

// Defaults of the worker.
const (
	defaultInterval  = time.Second
	defaultBatchSize = 200
	// lease is how long a claimed notification is held by the process sending it; a process
	// that dies holding it leaves it to be claimed again when the lease ends.
	lease = time.Minute
	// MaxAttempts bounds the tries of one notification's email; after the last failure it is
	// dropped and counted failed.
	MaxAttempts = 3
)

// Config configures the notifications area.
type Config struct {
	Store  storage.Storage
	Log    *slog.Logger
	Mailer Mailer // nil: emails are logged and dropped
	// Online reports whether the user has a client connected (an event queue in this
	// process); a notification due for an online user is dropped, as Zulip sends none to a
	// user who is not off Zulip.
	Online func(users.ID) bool
	// Node, when set, names this process among several sharing the store: a user whom
	// another process reported with a live event queue within LiveWindow is online too
	// (storage.QueueReader.LiveNodes), as Zulip's receiver_is_off_zulip looks at every queue
	// of the user.
	Node       string
	LiveWindow time.Duration
	// Interval is how often the worker looks for due notifications (default 1s); BatchSize how
	// many it claims per transaction (default 200).
	Interval  time.Duration
	BatchSize int
	// Observe, when set, is told what each run did (metrics).
	Observe func(DeliverEmailsResult)
}

// Service is the notifications area.
type Service struct {
	eng *engine.Engine
	cfg Config

	mu   sync.Mutex
	stop context.CancelFunc
	done chan struct{}
}

// New returns the area's Service.
func New(eng *engine.Engine, cfg Config) *Service {
	if cfg.Interval <= 0 {
		cfg.Interval = defaultInterval
	}
	if cfg.BatchSize <= 0 {
		cfg.BatchSize = defaultBatchSize
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	if cfg.Online == nil {
		cfg.Online = func(users.ID) bool { return false }
	}
	return &Service{eng: eng, cfg: cfg}
}

// Start runs the worker in the background until Stop; a second Start does nothing.
func (s *Service) Start() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stop != nil {
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	s.stop, s.done = cancel, make(chan struct{})
	go func() {
		defer close(s.done)
		t := time.NewTicker(s.cfg.Interval)
		defer t.Stop()
		for {
			if _, err := s.QueueDigests(ctx, QueueDigestsParams{}); err != nil && ctx.Err() == nil {
				s.cfg.Log.Error("notify: queueing digest emails", "err", err)
			}
			if _, err := s.DeliverEmails(ctx, DeliverEmailsParams{}); err != nil && ctx.Err() == nil {
				s.cfg.Log.Error("notify: delivering missed-message emails", "err", err)
			}
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
	}()
}

// Stop ends the worker and waits for it.
func (s *Service) Stop() {
	s.mu.Lock()
	stop, done := s.stop, s.done
	s.stop = nil
	s.mu.Unlock()
	if stop != nil {
		stop()
		<-done
	}
}
