package chat_test

import (
	"errors"
	"sync"
	"testing"
	"time"

	blobmemory "github.com/teamchat/chat/blobs/memory"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/storage/memory"
	"github.com/teamchat/chat/users"
)

// clock is a settable test clock.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock { return &clock{t: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)} }

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }

func (c *clock) Advance(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

// fixture is a Service on the memory store with an organization and a few users.
type fixture struct {
	svc   *chat.Service
	store storage.Storage
	clock *clock
	// Users by short name: owner, admin, member, guest, bot, webhook.
	ids  map[string]users.ID
	keys map[string]string
	// emailKeys holds the confirmation key of each user's latest email change.
	emailKeys *sync.Map
}

const testPassword = "correct horse battery"

// newFixture builds a fixture; opts may adjust the Options before New.
func newFixture(t *testing.T, opts ...func(*chat.Options)) *fixture {
	t.Helper()
	return newFixtureOn(t, memory.New(), opts...)
}

func newFixtureOn(t *testing.T, store storage.Storage, opts ...func(*chat.Options)) *fixture {
	t.Helper()
	c := newClock()
	o := chat.Options{
		Store:           store,
		Now:             c.Now,
		HeartbeatWait:   50 * time.Millisecond,
		PasswordHashing: chat.PasswordHashing{MemoryKiB: 64, Passes: 1, Threads: 1},
		JWTKey:          []byte("test-secret-key"),
		EmojiImages:     &memEmojiImages{},
		Dev:             true,
		Blobs:           blobmemory.New(),
	}
	emailKeys := &sync.Map{}
	o.EmailChangeRequested = func(u users.ID, _, key string) { emailKeys.Store(u, key) }
	for _, f := range opts {
		f(&o)
	}
	svc, err := chat.New(o)
	if err != nil {
		t.Fatalf("chat.New: %v", err)
	}
	t.Cleanup(func() { svc.Close(); store.Close() })
	f := &fixture{svc: svc, store: store, clock: c, ids: map[string]users.ID{}, keys: map[string]string{}, emailKeys: emailKeys}
	ctx := t.Context()
	if _, err := svc.CreateOrganization(ctx, chat.CreateOrganizationParams{
		Name: "Test Org", Description: "A **test** organization.", URL: "https://chat.example.com/",
		EmailVisibility: users.EmailVisibleAdmins,
	}); err != nil {
		t.Fatalf("CreateOrganization: %v", err)
	}
	for _, u := range []struct {
		name string
		p    chat.ProvisionUserParams
	}{
		{"owner", chat.ProvisionUserParams{Email: "owner@example.com", FullName: "Olive Owner", Role: users.RoleOwner, Password: testPassword}},
		{"admin", chat.ProvisionUserParams{Email: "admin@example.com", FullName: "Adam Admin", Role: users.RoleAdministrator, Password: testPassword}},
		{"member", chat.ProvisionUserParams{Email: "Member@Example.com", FullName: "Mia Member", Password: testPassword, Timezone: "Europe/Paris"}},
		{"guest", chat.ProvisionUserParams{Email: "guest@example.com", FullName: "Gus Guest", Role: users.RoleGuest, Password: testPassword}},
		{"bot", chat.ProvisionUserParams{Email: "bot@example.com", FullName: "Bot", BotType: users.BotGeneric}},
		{"webhook", chat.ProvisionUserParams{Email: "webhook@example.com", FullName: "Hook", BotType: users.BotIncomingWebhook}},
	} {
		if u.p.BotType != users.NotBot {
			u.p.BotOwnerID = f.ids["owner"]
		}
		res, err := svc.ProvisionUser(ctx, u.p)
		if err != nil {
			t.Fatalf("ProvisionUser(%s): %v", u.name, err)
		}
		f.ids[u.name] = res.UserID
		f.keys[u.name] = res.APIKey
	}
	return f
}

// onEveryBackend runs body in parallel subtests, each with a fresh fixture on one backend of
// testBackends (memory, SQLite and, when configured, PostgreSQL).
func onEveryBackend(t *testing.T, body func(t *testing.T, f *fixture)) {
	t.Helper()
	for _, b := range testBackends() {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			body(t, newFixtureOn(t, b.open(t)))
		})
	}
}

func (f *fixture) actor(name string) chat.Actor { return chat.Actor{UserID: f.ids[name]} }

// coldService starts a second Service on f's store, with nothing cached: what a fresh process
// would answer. The caller closes it.
func (f *fixture) coldService(t *testing.T) *chat.Service {
	t.Helper()
	cold, err := chat.New(chat.Options{Store: f.store, Now: f.clock.Now, Logger: quietLogger()})
	if err != nil {
		t.Fatal(err)
	}
	return cold
}

// setUser changes a stored user directly (for states no operation reaches yet).
func (f *fixture) setUser(t *testing.T, name string, change func(*users.User)) {
	t.Helper()
	err := f.store.Update(t.Context(), func(tx storage.Tx) error {
		u, err := tx.Users().Get(f.ids[name])
		if err != nil {
			return err
		}
		change(&u)
		return tx.Users().Update(u)
	})
	if err != nil {
		t.Fatalf("setUser: %v", err)
	}
	f.svc.ForgetCredentials() // a write behind the Service's back
}

// userCount counts the stored users.
func (f *fixture) userCount(t *testing.T) int {
	t.Helper()
	var n int
	err := f.store.View(t.Context(), func(tx storage.ReadTx) error {
		all, err := tx.Users().List()
		n = len(all)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// wantError checks that err is an *chat.Error with the code, status and message.
func wantError(t *testing.T, err error, code chat.Code, status int, msg string) *chat.Error {
	t.Helper()
	var e *chat.Error
	if !errors.As(err, &e) {
		t.Fatalf("error = %v, want *chat.Error %s", err, code)
	}
	if e.Code != code || e.HTTPStatus() != status || (msg != "" && e.Msg != msg) {
		t.Fatalf("error = %s %d %q, want %s %d %q", e.Code, e.HTTPStatus(), e.Msg, code, status, msg)
	}
	return e
}
