package people

import (
	"log/slog"
	"time"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/internal/world"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/org"
	"github.com/teamchat/chat/ratelimit"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// Config is what the people area needs to know of the server.
type Config struct {
	// Now is the clock of what happens outside an operation's transaction (rate limits, the
	// expiry of cached sessions); operations read their transaction's time.
	Now func() time.Time
	// Log receives the area's logs (emails not sent).
	Log *slog.Logger
	// NavigationTourVideoURL is the video of the navigation tour shown to new users (Zulip's
	// NAVIGATION_TOUR_VIDEO_URL); empty disables it, and its onboarding step is never offered.
	NavigationTourVideoURL string
	// Dev enables the development logins (dev_fetch_api_key, dev_list_users).
	Dev bool
	// WeakPasswords drops the password strength policy to Zulip's development settings
	// (PASSWORD_MIN_LENGTH and PASSWORD_MIN_GUESSES 0): any non-empty password is accepted.
	WeakPasswords bool
	// JWTKey enables POST /jwt/fetch_api_key with this HS256 secret; nil disables it.
	JWTKey []byte
	// SessionAge is how long a web session lasts from its login.
	SessionAge time.Duration
	// EmailChangeRequested is called after an email change started, with the key that
	// ConfirmEmailChange takes; nil drops the request.
	EmailChangeRequested func(user users.ID, newEmail, key string)
	// CreateMultiuseInviteGroup names the system group whose members may create reusable
	// invitation links.
	CreateMultiuseInviteGroup string
	// InvitationLinkValidity is the lifetime of a reusable invitation link created without
	// an expiry.
	InvitationLinkValidity time.Duration
	// Mailer delivers invitations; nil logs and drops them.
	Mailer Mailer
	// EmailSent, when set, is told of each email sent (err nil) or failed, by kind (login).
	EmailSent func(kind string, err error)
	// LoginRateLimit and LoginAddressRateLimit limit password attempts per username and per
	// client address, and (separately) wrong API keys per account and per address.
	LoginRateLimit, LoginAddressRateLimit ratelimit.Rule
	// PasswordHashing sets the argon2id cost; zero values take the defaults.
	PasswordHashing PasswordHashing
	// CredentialsOff starts the credential cache off (a Bus that does not listen yet).
	CredentialsOff bool
	// Org is the org area, whose custom emoji statuses name.
	Org *org.Service
	// Hooks are the operations of the areas above this one that people's operations take
	// part in.
	Hooks Hooks
}

// Hooks are the steps of people's operations that belong to the areas above it (the
// conversations): package chat's New sets each to its own operation, so that people needs no
// import of them. Each runs inside the calling operation's transaction.
type Hooks struct {
	// SubscribeNewUser subscribes a user being created to the channels want chooses.
	SubscribeNewUser func(o *engine.WriteOp, id users.ID, want func(channels.Channel) bool) error
	// DeleteMessages deletes messages as me (the message actions of a deactivation).
	DeleteMessages func(tx storage.Tx, ev *engine.Events, w *world.World, me users.User, ids []messages.ID) error
	// NotifyUser sends the notification bot's direct message to a user.
	NotifyUser func(tx storage.Tx, ev *engine.Events, w *world.World, to users.ID, content string) error
	// MessagesRead announces to user the messages marked read for them (muting a sender).
	MessagesRead func(ev *engine.Events, user users.ID, ids []messages.ID)
	// WelcomeNewUser sends a new user the Welcome Bot's greeting, starred, then its custom
	// message with text (nothing when text is empty).
	WelcomeNewUser func(tx storage.Tx, ev *engine.Events, w *world.World, to users.ID, greeting, text string) error
}

// welcomeNewUser sends the Welcome Bot's messages to u, a user just created through the
// API, as Zulip's process_new_human_user does: the greeting (welcomeGreeting), then the custom
// message, the invitation's welcome_message_custom_text when it has one (an empty one sends
// nothing), else the organization's.
func (s *Service) welcomeNewUser(o *engine.WriteOp, u users.User, invited *string) error {
	if s.hooks.WelcomeNewUser == nil {
		return nil
	}
	w := o.World()
	realm := w.Org()
	text := realm.String("welcome_message_custom_text")
	if invited != nil {
		text = *invited
	}
	greeting := welcomeGreeting(realm, u, s.cfg.NavigationTourVideoURL)
	return s.hooks.WelcomeNewUser(o.Tx, o.Ev, w, u.ID, greeting, text)
}

// Service is the people area's operations. It is safe for concurrent use.
type Service struct {
	eng   *engine.Engine
	cfg   Config
	now   func() time.Time
	log   *slog.Logger
	org   *org.Service
	hooks Hooks

	loginByUser *ratelimit.Limiter
	loginByAddr *ratelimit.Limiter
	// keyFails limits wrong API keys per account and per address (auth_failures.go).
	keyFails *keyFailures
	hashing  PasswordHashing
	// creds caches checked API keys and sessions (auth_cache.go).
	creds credentialCache
	// userRecords keeps register's user records (users_record_cache.go).
	userRecords userRecordCache
	// groupRecords keeps register's user group records (groups_record_cache.go).
	groupRecords groupRecordCache
}

// New returns the people area's operations, run by eng.
func New(eng *engine.Engine, cfg Config) *Service {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	s := &Service{
		eng: eng, cfg: cfg, now: cfg.Now, log: cfg.Log, org: cfg.Org, hooks: cfg.Hooks,
		loginByUser: ratelimit.New(cfg.LoginRateLimit, cfg.Now),
		loginByAddr: ratelimit.New(cfg.LoginAddressRateLimit, cfg.Now),
		hashing:     cfg.PasswordHashing.withDefaults(),
		keyFails:    newKeyFailures(cfg),
	}
	s.creds.off = cfg.CredentialsOff
	return s
}
