package chat

import (
	"log/slog"
	"time"

	"github.com/teamchat/chat/blobs"
	"github.com/teamchat/chat/org"
	"github.com/teamchat/chat/ratelimit"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// Version, FeatureLevel and ServiceVersion are the server's release and API level, defined in
// package org (which reports them in server_settings): see org.Version.
const (
	Version        = org.Version
	FeatureLevel   = org.FeatureLevel
	ServiceVersion = org.ServiceVersion
)

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
	// WeakPasswords accepts any non-empty password, as Zulip's development server does
	// (PASSWORD_MIN_LENGTH and PASSWORD_MIN_GUESSES 0); register then reports both as 0.
	WeakPasswords bool
	// FakeEmailDomain is Zulip's FAKE_EMAIL_DOMAIN: the domain of bots' and hidden (user{id}@)
	// addresses when the realm URL's host forms none (an IP address, a port), as
	// realms.Realm.EmailDomain says. Zulip's development server uses "zulipdev.com".
	FakeEmailDomain string
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

	// RetentionInterval is how often the background retention pass (StartScheduler) archives
	// the messages past their message_retention_days (default retention.DefaultInterval);
	// RetentionBatchSize how many it archives per transaction (default
	// retention.DefaultBatchSize); RetentionGracePeriod how long archived messages stay
	// restorable before the pass purges them (default retention.DefaultGracePeriod).
	RetentionInterval    time.Duration
	RetentionBatchSize   int
	RetentionGracePeriod time.Duration

	// EmailGatewayPattern is Zulip's EMAIL_GATEWAY_PATTERN ("%s@chat.example.com"): the form of
	// channels' email addresses, whose mail EmailMirrorMessage posts; empty: no email gateway.
	EmailGatewayPattern string
	// NavigationTourVideoURL is the video of the navigation tour shown to new users (Zulip's
	// NAVIGATION_TOUR_VIDEO_URL, register's navigation_tour_video_url); empty disables it,
	// and its onboarding step is then never offered.
	NavigationTourVideoURL string

	// SessionAge is how long a web session lasts from its login (default DefaultSessionAge,
	// measured with Now).
	SessionAge time.Duration

	// AllowPrivateWebhookTargets lets outgoing webhooks call loopback, private and link-local
	// addresses (a development server, tests); by default they are refused at connect time.
	AllowPrivateWebhookTargets bool
	// OutgoingWebhookTimeout bounds one call of an outgoing webhook (default 10s, Zulip's);
	// OutgoingWebhookRetryDelay is the wait before another attempt after a timeout or a
	// connection error (default 0, as Zulip requeues at once).
	OutgoingWebhookTimeout    time.Duration
	OutgoingWebhookRetryDelay time.Duration
	// DrainTimeout is how long Close lets the mutations in flight finish, while it refuses new
	// ones with 503 SERVER_SHUTTING_DOWN (default 10s; negative: no wait, those not yet in
	// their transaction are refused too).
	DrainTimeout time.Duration
}
