package chat

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/teamchat/chat/blobs"
	"github.com/teamchat/chat/compose"
	"github.com/teamchat/chat/emoji"
	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/org"
	"github.com/teamchat/chat/people"
	"github.com/teamchat/chat/queue"
	"github.com/teamchat/chat/ratelimit"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/uploads"
	"github.com/teamchat/chat/users"
)

// Version is this project's release.
const Version = "0.1.0"

// FeatureLevel is the Zulip API feature level the Service implements.
const FeatureLevel = 481

// ServiceVersion is reported as service_version (and zulip_version). It starts with the Zulip
// release whose API it follows so that clients parsing a version number read a sensible one.
const ServiceVersion = "12.0-teamchat-" + Version

// Options configure a Service. Only Store is required.
type Options struct {
	Store storage.Storage
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Logger receives the Service's logs; nil means slog.Default().
	Logger *slog.Logger

	// JWTKey enables POST /jwt/fetch_api_key with this HS256 secret; nil disables it.
	JWTKey []byte
	// Dev enables the development login endpoints (dev_fetch_api_key, dev_list_users).
	Dev bool
	// PushNotificationsEnabled is reported by server_settings.
	PushNotificationsEnabled bool
	// EmailChangeRequested is called after PATCH /settings started an email change, with the
	// key that ConfirmEmailChange takes (the server would mail a confirmation link). Nil
	// drops the request silently.
	EmailChangeRequested func(user users.ID, newEmail, key string)

	// Monitor, when set, receives figures of the Service's work (events fanned out to the
	// queues); QueueStats reports the rest. Nil: none.
	Monitor Monitor

	// HeartbeatWait is how long a blocking GET /events waits before answering with a heartbeat
	// (default 50s).
	HeartbeatWait time.Duration
	// QueueIdleTimeout is the default lifetime of an idle event queue (default 600s).
	QueueIdleTimeout time.Duration
	// QueueGCInterval is how often idle queues are collected (default 60s).
	QueueGCInterval time.Duration
	// MaxEventsPerQueue bounds a queue's unacknowledged events (default 10000); a queue that
	// overflows is discarded and its client re-registers.
	MaxEventsPerQueue int
	// MaxQueuesPerUser bounds the queues one user may hold (default 100).
	MaxQueuesPerUser int

	// LoginRateLimit limits password attempts per username (default 5 per 30 minutes).
	LoginRateLimit *ratelimit.Rule
	// LoginAddressRateLimit limits password attempts per client address (default 100 per 30
	// minutes).
	LoginAddressRateLimit *ratelimit.Rule

	// APIRateLimit limits the API requests of each authenticated user (default
	// DefaultAPIRateLimit); a Rule with Max 0 disables it.
	APIRateLimit *ratelimit.Rule
	// AnonymousAPIRateLimit limits unauthenticated API requests per client address (default
	// DefaultAnonymousAPIRateLimit); a Rule with Max 0 disables it.
	AnonymousAPIRateLimit *ratelimit.Rule

	// TopicDeleteBatchSize is how many messages one round of DeleteTopic deletes (default 100);
	// TopicDeleteBudget how long DeleteTopic may run before answering complete=false (default
	// 50s, measured with Now).
	TopicDeleteBatchSize int
	TopicDeleteBudget    time.Duration

	// PasswordHashing sets the argon2id cost; zero values take the defaults (64 MiB, 1 pass).
	// Tests lower it.
	PasswordHashing PasswordHashing

	// Bus shares events between several processes on one store (see Bus); nil keeps them in
	// this process. With a Bus, Close saves this node's queues and a Service started later
	// with the same NodeID continues them with every event committed in between.
	Bus Bus
	// NodeID names this process among those sharing the store; its queue ids are
	// "NodeID:UUID", so that any process can tell which one holds a queue. Empty: plain UUIDs.
	NodeID string
	// InvitationLinkValidity is the lifetime of a reusable invitation link created without
	// invite_expires_in_minutes (default 14400 minutes, Zulip's INVITATION_LINK_VALIDITY_MINUTES).
	InvitationLinkValidity time.Duration
	// Blobs stores uploaded files, their thumbnails and avatars (blobs/disk, blobs/s3,
	// blobs/memory); nil refuses uploads.
	Blobs blobs.Store
	// MaxFileUploadSizeMiB bounds one uploaded file (default 25, register's
	// max_file_upload_size_mib).
	MaxFileUploadSizeMiB int
	// UploadQuotaMiB bounds the organization's uploaded files together (register's
	// realm_upload_quota_mib); 0 means no quota.
	UploadQuotaMiB int
	// CreateMultiuseInviteGroup names the system group whose members may create reusable
	// invitation links (Zulip's create_multiuse_invite_group; default role:administrators).
	CreateMultiuseInviteGroup string
	// Mailer delivers the server's emails (email invitations); nil logs and drops them.
	Mailer Mailer
	// MarkReadBatchSize is how many messages MarkAllAsRead marks per transaction (default
	// DefaultMarkReadBatchSize); MarkReadBudget how long it runs before answering
	// complete=false (default DefaultMarkReadBudget, measured with Now).
	MarkReadBatchSize int
	MarkReadBudget    time.Duration
	// EmojiImages stores the images of custom emoji (see EmojiImageStore); nil refuses
	// uploads of custom emoji.
	EmojiImages EmojiImageStore
	// TypingExpiryInterval is how often typing notifications whose start expired (TypingExpiry,
	// read with Now) get their stop (default 1s).
	TypingExpiryInterval time.Duration

	// SchedulerInterval is how often the background scheduler (StartScheduler) looks for due
	// scheduled messages (default 1s); SchedulerBatchSize how many it sends per transaction
	// (default 500: 10,000 messages due at once go out in 20 transactions, each holding this
	// process's writers back for its duration).
	SchedulerInterval  time.Duration
	SchedulerBatchSize int

	// NavigationTourVideoURL is the video of the navigation tour shown to new users (Zulip's
	// NAVIGATION_TOUR_VIDEO_URL, register's navigation_tour_video_url); empty disables it,
	// and its onboarding step is then never offered.
	NavigationTourVideoURL string

	// SessionAge is how long a web session lasts from its login (default DefaultSessionAge,
	// measured with Now).
	SessionAge time.Duration

	// DrainTimeout is how long Close lets the mutations in flight finish, while it refuses new
	// ones with 503 SERVER_SHUTTING_DOWN (default 10s; negative: no wait, those not yet in
	// their transaction are refused too).
	DrainTimeout time.Duration
}

// Service is the chat engine. It is safe for concurrent use.
type Service struct {
	store  storage.Storage
	now    func() time.Time
	log    *slog.Logger
	opts   Options
	queues *queue.Manager
	fanout fanout
	// emoji indexes the unicode emoji (read-only), built on first use: most Services (a
	// test's) never check an emoji, and the index is nearly all of New's allocations.
	emoji func() *emoji.Index
	// typing holds the started typing notifications; typingStop and typingDone stop and wait
	// for their janitor.
	typing     typists
	typingStop chan struct{}
	typingDone chan struct{}
	// recordJSON reuses the JSON of channel records that did not change (GET
	// /users/me/subscriptions).
	recordJSON recordJSONCache
	// recordArrays holds records arrays handed back by GetSubscriptionsResult.Release.
	recordArrays sync.Pool
	// subscriptionReads holds what finished GetSubscriptions reads leave for the next one
	// (*subscriptionsScratch).
	subscriptionReads sync.Pool

	// eng runs the operations: transactions, gates, and events published in commit order
	// (internal/engine).
	eng *engine.Engine
	// compose is the compose area: drafts, saved snippets, navigation views.
	compose *compose.Service
	// people is the people area: alert words, push devices, onboarding steps, presence.
	people *people.Service
	// org is the org area: video calls, realm domains, code playgrounds, linkifiers.
	org *org.Service

	// bus is Options.Bus; busUp (under the engine's Exclusive) says whether it is listening,
	// busPos (likewise) is the id of the last message delivered. busStop and busDone stop and
	// wait for the listener.
	bus     Bus
	busUp   bool
	busPos  uint64
	busStop context.CancelFunc
	busDone chan struct{}

	loginByUser *ratelimit.Limiter
	loginByAddr *ratelimit.Limiter
	apiByUser   *ratelimit.Limiter
	apiByAddr   *ratelimit.Limiter
	hashing     PasswordHashing
	// generation is server_generation: when this Service started (Unix seconds).
	generation int64
	// watchers are the owners of all_public_streams queues in this process.
	watchers publicWatchers
	// creds caches checked API keys (auth_cache.go).
	creds credentialCache
	// userRecords keeps register's user records (users_record_cache.go).
	userRecords userRecordCache
	// groupRecords keeps register's user group records (groups_record_cache.go).
	groupRecords groupRecordCache

	closeOnce sync.Once

	// uploadKey caches the secret of temporary upload URLs.
	uploadKey uploadKeyCache

	// schedOnce starts the background scheduler once; schedStop and schedDone stop it and
	// wait for it (scheduled_deliver.go).
	schedOnce sync.Once
	schedStop context.CancelFunc
	schedDone chan struct{}

	// linkifiers is the organization's linkifiers as the last send read them, for the early
	// renderings of sends waiting for their group (messages_prerender.go); nil before the first.
	linkifiers atomic.Pointer[linkifierSnapshot]
	// prerendered counts the early renderings finished, and taken by their sends.
	prerendered struct{ finished, taken atomic.Uint64 }
}

// fanout delivers committed events to the queues of their recipients. The in-process
// implementation is the queue manager; several processes can share events through another
// implementation.
type fanout interface {
	Publish(owners []int64, typ string, payload any)
}

// New returns a Service on opts.Store. Close it to stop its background work.
func New(opts Options) (*Service, error) {
	if opts.Store == nil {
		return nil, errors.New("chat: Options.Store is required")
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.EmojiImages == nil && opts.Blobs != nil {
		opts.EmojiImages = blobEmojiImages{opts.Blobs}
	}
	if opts.MaxFileUploadSizeMiB <= 0 {
		opts.MaxFileUploadSizeMiB = uploads.DefaultMaxFileUploadSizeMiB
	}
	if opts.HeartbeatWait <= 0 {
		opts.HeartbeatWait = 50 * time.Second
	}
	if opts.LoginRateLimit == nil {
		opts.LoginRateLimit = &ratelimit.Rule{Window: 30 * time.Minute, Max: 5}
	}
	if opts.APIRateLimit == nil {
		opts.APIRateLimit = &DefaultAPIRateLimit
	}
	if opts.AnonymousAPIRateLimit == nil {
		opts.AnonymousAPIRateLimit = &DefaultAnonymousAPIRateLimit
	}
	if opts.LoginAddressRateLimit == nil {
		opts.LoginAddressRateLimit = &ratelimit.Rule{Window: 30 * time.Minute, Max: 100}
	}
	s := &Service{
		generation: opts.Now().Unix(),
		store:      opts.Store,
		now:        opts.Now,
		log:        opts.Logger,
		opts:       opts,
		queues: queue.New(queue.Options{
			Now:                opts.Now,
			HeartbeatWait:      opts.HeartbeatWait,
			DefaultIdleTimeout: opts.QueueIdleTimeout,
			GCInterval:         opts.QueueGCInterval,
			MaxEventsPerQueue:  opts.MaxEventsPerQueue,
			MaxQueuesPerOwner:  opts.MaxQueuesPerUser,
			Filter:             adaptForQueue,
			IDPrefix:           nodePrefix(opts.NodeID),
			Observe:            observeFanout(opts.Monitor),
		}),
		loginByUser: ratelimit.New(*opts.LoginRateLimit, opts.Now),
		loginByAddr: ratelimit.New(*opts.LoginAddressRateLimit, opts.Now),
		apiByUser:   ratelimit.New(*opts.APIRateLimit, opts.Now),
		apiByAddr:   ratelimit.New(*opts.AnonymousAPIRateLimit, opts.Now),
		hashing:     opts.PasswordHashing.withDefaults(),
		emoji:       sync.OnceValue(emoji.NewIndex),
	}
	s.fanout = s.queues
	s.bus = opts.Bus
	cfg := engine.Config{Store: opts.Store, Now: opts.Now, Log: opts.Logger, Publish: s.publish}
	if s.bus != nil {
		cfg.PublishInTx = s.publishInTx
	}
	s.eng = engine.New(cfg)
	s.creds.off = s.bus != nil // until the bus listens
	s.compose = compose.New(s.eng)
	s.people = people.New(s.eng, people.Config{NavigationTourVideoURL: opts.NavigationTourVideoURL})
	// The key that signs the BigBlueButton call links this process gives out.
	callKey := make([]byte, 32)
	_, _ = rand.Read(callKey) // crypto/rand.Read does not fail
	s.org = org.New(s.eng, org.Config{CallKey: callKey})
	after, err := s.restoreQueues(context.Background())
	if err != nil {
		s.queues.Close()
		return nil, fmt.Errorf("chat: restoring event queues: %w", err)
	}
	if s.bus != nil {
		if err := s.startBus(after); err != nil {
			s.queues.Close()
			return nil, err
		}
	}
	interval := opts.TypingExpiryInterval
	if interval <= 0 {
		interval = time.Second
	}
	s.typingStop, s.typingDone = make(chan struct{}), make(chan struct{})
	go s.typingJanitor(interval, s.typingStop, s.typingDone)
	return s, nil
}

// Now is the time on the Service's clock (Options.Now), the time its operations act at.
func (s *Service) Now() time.Time { return s.now() }

// Close ends every waiting long-poll, stops the Service's background work and saves the event
// queues in the store, so that a Service started later on the same store (with a Bus: with the
// same NodeID) continues them. It does not close the store, which belongs to the caller.
// Mutations that start once Close has begun are refused (503 SERVER_SHUTTING_DOWN, with
// retry-after); those in flight finish first, for up to Options.DrainTimeout.
func (s *Service) Close() error {
	var err error
	s.closeOnce.Do(func() {
		close(s.typingStop)
		<-s.typingDone
		s.stopScheduler()
		s.eng.Drain(s.opts.DrainTimeout)
		err = s.eng.Close(func() error {
			s.queues.Close()
			return s.saveQueues()
		})
	})
	s.stopBus()
	return err
}

// publish hands the events of a committed mutation to the queues and ends the queues ev
// names (without a Bus; with one the bus delivers them). The engine calls it in commit order.
func (s *Service) publish(ev *events) {
	if s.bus != nil {
		return
	}
	for _, p := range ev.List {
		s.fanout.Publish(s.recipientsOf(p), p.Type, p.Payload)
	}
	for _, owner := range ev.End {
		s.queues.DeleteOwner(owner)
	}
}

// storageError passes *Error values through, keeps context errors recognisable and turns
// anything else into a logged internal error.
func (s *Service) storageError(err error) error { return engine.StorageError(s.log, err) }

// nodePrefix is the queue id prefix of a node.
func nodePrefix(node string) string {
	if node == "" {
		return ""
	}
	return node + ":"
}
