package chattest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/ratelimit"
	"github.com/teamchat/chat/seeds"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/storage/memory"
	"github.com/teamchat/chat/users"
)

// DefaultURL is the organization's URL in fixtures without a server.
const DefaultURL = "http://chat.test"

// Option configures a fixture.
type Option func(*config)

type config struct {
	dev       bool
	seed      *seeds.Seed
	configure []func(*chat.Options)
}

// Dev gives the fixture the development organization of `chatserver serve --dev`
// (seeds.Dev with seeds.DevPassword: Iago the administrator, Desdemona the owner, Hamlet, ...,
// their channels and groups) and enables the development login endpoints. Without Dev or
// Seed, the organization is empty: create users with AddUser.
func Dev() Option { return func(c *config) { c.dev = true } }

// Seed gives the fixture the organization of s, applied through the Service for each fixture
// (the development organization of Dev is built once per process instead).
func Seed(s *seeds.Seed) Option { return func(c *config) { c.seed = s } }

// Configure adjusts the Service's options before chat.New. The fixture sets Store, Now,
// Logger, PasswordHashing (cheap), Dev (with Dev()) and unlimited API rate limits first.
func Configure(f func(*chat.Options)) Option {
	return func(c *config) { c.configure = append(c.configure, f) }
}

// Fixture is a Service on its own memory store, with an organization.
type Fixture struct {
	Service *chat.Service
	Store   *memory.Store
	// Clock is the Service's clock (Options.Now).
	Clock *Clock
	// URL is the organization's URL (its realm_url): the server's URL for a Server.
	URL string

	tb     testing.TB  // nil for Start
	logOff atomic.Bool // set by Close: the test may be over
	mu     sync.Mutex
	// passwords by normalized email, from the seed and AddUser (under mu).
	passwords map[string]string
	closeOnce sync.Once
	closeErr  error
}

// User is a user or bot of a fixture's organization.
type User struct {
	ID       users.ID
	Email    string
	FullName string
	Role     users.Role
	BotType  users.BotType
	APIKey   string
	// Password is the password given by the organization's seed (seeds.DevPassword for the
	// development organization); empty when the fixture does not know it.
	Password string
}

// Actor is the user as the acting user of a Service method.
func (u User) Actor() chat.Actor { return chat.Actor{UserID: u.ID} }

// New returns a fixture for the test: a Service on a fresh memory store with an organization
// (empty, or as opts choose), closed by t.Cleanup. It fails the test when it cannot start.
func New(t testing.TB, opts ...Option) *Fixture {
	t.Helper()
	f, err := start(DefaultURL, t, opts)
	if err != nil {
		t.Fatalf("chattest: %v", err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// Start is New for code that has no testing.TB (Example functions, TestMain, programs): the
// caller closes the fixture.
func Start(opts ...Option) (*Fixture, error) { return start(DefaultURL, nil, opts) }

// start builds a fixture whose organization lives at url.
func start(url string, tb testing.TB, opts []Option) (*Fixture, error) {
	var cfg config
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.dev && cfg.seed != nil {
		return nil, errors.New("Dev and Seed exclude each other")
	}
	ctx := context.Background() // Start: no test, the caller closes the fixture
	if tb != nil {
		ctx = tb.Context()
	}
	f := &Fixture{Clock: NewClock(Epoch()), URL: url, tb: tb, passwords: map[string]string{}}
	var accounts []seeds.Account
	if cfg.dev {
		tmpl, err := devTemplate()
		if err != nil {
			return nil, err
		}
		if f.Store, err = tmpl.store.Clone(); err != nil {
			return nil, fmt.Errorf("copy the development organization: %w", err)
		}
		if err := setURL(ctx, f.Store, url); err != nil {
			return nil, err
		}
		accounts = tmpl.accounts
	} else {
		f.Store = memory.New()
	}
	svc, err := chat.New(f.serviceOptions(cfg))
	if err != nil {
		f.Store.Close()
		return nil, err
	}
	f.Service = svc
	if !cfg.dev {
		seed := cfg.seed
		if seed == nil {
			seed = &seeds.Seed{Organization: seeds.Organization{Name: "Test organization"}}
		}
		if accounts, err = seed.Apply(ctx, svc, url); err != nil {
			f.Close()
			return nil, err
		}
	}
	for _, a := range accounts {
		f.rememberPassword(a.Email, a.Password)
	}
	return f, nil
}

// serviceOptions are the Options of the fixture's Service.
func (f *Fixture) serviceOptions(cfg config) chat.Options {
	o := chat.Options{
		Store:                 f.Store,
		Now:                   f.Clock.Now,
		Logger:                f.logger(),
		Dev:                   cfg.dev,
		PasswordHashing:       cheapHashing(),
		APIRateLimit:          &ratelimit.Rule{},
		AnonymousAPIRateLimit: &ratelimit.Rule{},
	}
	for _, c := range cfg.configure {
		c(&o)
	}
	return o
}

// cheapHashing is argon2id's smallest cost: a password hash takes microseconds.
func cheapHashing() chat.PasswordHashing {
	return chat.PasswordHashing{MemoryKiB: 8, Passes: 1, Threads: 1}
}

// setURL moves the organization of store to url.
func setURL(ctx context.Context, store storage.Storage, url string) error {
	return store.Update(ctx, func(tx storage.Tx) error {
		r, err := tx.Realm().Get()
		if err != nil {
			return err
		}
		if r.URL == url {
			return nil
		}
		r.URL = url
		return tx.Realm().Put(r)
	})
}

// Close closes the Service (ending its long-polls) and the store. New's cleanup calls it; it
// may be called earlier, and more than once.
func (f *Fixture) Close() error {
	f.closeOnce.Do(func() {
		f.logOff.Store(true)
		if f.Service != nil {
			f.closeErr = f.Service.Close()
		}
		f.closeErr = errors.Join(f.closeErr, f.Store.Close())
	})
	return f.closeErr
}

// User returns the user or bot with this email (case-insensitively), as stored now. An
// unknown email fails the test (for a fixture from Start: LookupUser reports it instead).
func (f *Fixture) User(email string) User {
	if f.tb != nil {
		f.tb.Helper()
	}
	u, err := f.LookupUser(email)
	if err != nil {
		if f.tb == nil {
			panic("chattest: " + err.Error())
		}
		f.tb.Fatalf("chattest: %v", err)
	}
	return u
}

// Actor is f.User(email).Actor().
func (f *Fixture) Actor(email string) chat.Actor {
	if f.tb != nil {
		f.tb.Helper()
	}
	return f.User(email).Actor()
}

// LookupUser returns the user or bot with this email (case-insensitively).
func (f *Fixture) LookupUser(email string) (User, error) {
	var u users.User
	err := f.Store.View(context.Background(), func(tx storage.ReadTx) (err error) {
		u, err = tx.Users().GetByEmail(email)
		return err
	})
	if errors.Is(err, storage.ErrNotFound) {
		return User{}, fmt.Errorf("no user with email %q in the organization", email)
	}
	if err != nil {
		return User{}, err
	}
	return f.user(u), nil
}

// Users lists the organization's users and bots (deactivated ones included), by id.
func (f *Fixture) Users() []User {
	var list []users.User
	err := f.Store.View(context.Background(), func(tx storage.ReadTx) (err error) {
		list, err = tx.Users().List()
		return err
	})
	if err != nil && f.tb != nil {
		f.tb.Fatalf("chattest: list users: %v", err)
	}
	out := make([]User, len(list))
	for i, u := range list {
		out[i] = f.user(u)
	}
	return out
}

// AddUser provisions a user or bot (chat.Service.ProvisionUser) and returns it; its password,
// if any, is remembered in User.Password. A failure fails the test (for a fixture from Start,
// use the Service).
func (f *Fixture) AddUser(p chat.ProvisionUserParams) User {
	if f.tb == nil {
		panic("chattest: AddUser needs a fixture from New; call Service.ProvisionUser")
	}
	f.tb.Helper()
	res, err := f.Service.ProvisionUser(context.Background(), p)
	if err != nil {
		f.tb.Fatalf("chattest: AddUser(%s): %v", p.Email, err)
	}
	f.rememberPassword(p.Email, p.Password)
	u := f.User(p.Email)
	if u.ID != res.UserID {
		f.tb.Fatalf("chattest: AddUser(%s): created user %d, found %d", p.Email, res.UserID, u.ID)
	}
	return u
}

func (f *Fixture) rememberPassword(email, password string) {
	if password == "" {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.passwords[users.NormalizeEmail(email)] = password
}

func (f *Fixture) user(u users.User) User {
	f.mu.Lock()
	defer f.mu.Unlock()
	return User{ID: u.ID, Email: u.Email, FullName: u.FullName, Role: u.Role, BotType: u.BotType,
		APIKey: u.APIKey, Password: f.passwords[users.NormalizeEmail(u.Email)]}
}

// logger sends the Service's warnings and errors to the test's log until Close (discarded for
// Start).
func (f *Fixture) logger() *slog.Logger {
	if f.tb == nil {
		return slog.New(slog.DiscardHandler)
	}
	return slog.New(slog.NewTextHandler(testLog{f}, &slog.HandlerOptions{Level: slog.LevelWarn}))
}

// testLog writes log lines to the fixture's test log.
type testLog struct{ f *Fixture }

func (w testLog) Write(p []byte) (int, error) {
	if !w.f.logOff.Load() {
		w.f.tb.Logf("%s", bytes.TrimSuffix(p, []byte("\n")))
	}
	return len(p), nil
}
