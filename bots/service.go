package bots

import (
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// Defaults of Config.
const (
	// DefaultTimeout is Zulip's OUTGOING_WEBHOOK_TIMEOUT_SECONDS.
	DefaultTimeout   = 10 * time.Second
	defaultInterval  = time.Second
	defaultBatchSize = 100
	defaultWorkers   = 4
	// leaseMargin is how long a claimed job stays leased beyond its call's timeout.
	leaseMargin = 30 * time.Second
)

// Config is what the bots area needs to know of the server.
type Config struct {
	// Store is the engine's store: claims of due jobs use its read-committed transactions
	// (storage.UpdateReadCommitted).
	Store storage.Storage
	// Send is package chat's send path (see Sender); required for delivery. React adds a
	// bot's reaction (see Reactor); nil ignores the reactions of webhooks' answers.
	Send  Sender
	React Reactor
	// Timeout bounds one call of an outgoing webhook (default DefaultTimeout).
	Timeout time.Duration
	// RetryDelay is how long a job waits before its next attempt after a timeout or a
	// connection error (default 0: due at once, as Zulip requeues it).
	RetryDelay time.Duration
	// Interval is how often the worker looks for due jobs (default 1s).
	Interval time.Duration
	// BatchSize bounds the jobs one claim takes (default 100); Workers the calls made at once
	// (default 4).
	BatchSize, Workers int
	// AllowPrivateTargets lets outgoing webhooks call loopback, private and link-local
	// addresses (a development server, tests); by default they are refused.
	AllowPrivateTargets bool
	// UserAgent is sent with every call ("ZulipOutgoingWebhook/<version>").
	UserAgent string
	// MaxResponseBytes bounds the response read from a webhook (default 1 MiB).
	MaxResponseBytes int64
	// Log receives the worker's logs; nil means slog.Default().
	Log *slog.Logger
}

// Service is the bots area's operations. It is safe for concurrent use.
type Service struct {
	eng    *engine.Engine
	cfg    Config
	log    *slog.Logger
	client *http.Client

	mu       sync.Mutex
	handlers map[users.ID]Handler

	worker worker
}

// New returns the bots area's operations, run by eng.
func New(eng *engine.Engine, cfg Config) *Service {
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.Interval <= 0 {
		cfg.Interval = defaultInterval
	}
	if cfg.BatchSize <= 0 {
		cfg.BatchSize = defaultBatchSize
	}
	if cfg.Workers <= 0 {
		cfg.Workers = defaultWorkers
	}
	if cfg.MaxResponseBytes <= 0 {
		cfg.MaxResponseBytes = 1 << 20
	}
	if cfg.UserAgent == "" {
		cfg.UserAgent = "ZulipOutgoingWebhook"
	}
	log := cfg.Log
	if log == nil {
		log = slog.Default()
	}
	return &Service{eng: eng, cfg: cfg, log: log, client: newClient(cfg), handlers: map[users.ID]Handler{}}
}
