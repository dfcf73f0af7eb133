package engine

import (
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/teamchat/chat/realms"
	"github.com/teamchat/chat/storage"
)

// Config configures an Engine.
type Config struct {
	Store storage.Storage
	// Now is the clock; every operation reads it once per run of its transaction.
	Now func() time.Time
	// Log receives storage failures.
	Log *slog.Logger
	// Publish hands the events of a committed mutation to the queues. The engine calls it
	// after the commit, in commit order, with no other commit or registration in between;
	// then it runs the mutation's After work.
	Publish func(ev *Events)
	// PublishInTx, when set, records a mutation's events inside its transaction, once its
	// body has succeeded (a bus that delivers them on commit). Sends do not overlap then.
	PublishInTx func(tx storage.Tx, ev *Events) error
	// FakeEmailDomain is the server's FAKE_EMAIL_DOMAIN: the domain of made-up addresses when
	// the realm URL's host forms none (realms.Realm.EmailDomain).
	FakeEmailDomain string
}

// Engine runs operations: each in one transaction, with its events published after the
// commit, in commit order (see the package documentation). It is safe for concurrent use.
type Engine struct {
	store       storage.Storage
	now         func() time.Time
	log         *slog.Logger
	publishHook func(*Events)
	publishInTx func(storage.Tx, *Events) error
	fakeDomain  string

	// writeMu orders commits and their events: a mutation (or a group of mutations sharing a
	// commit, commits.go) holds it exclusively from the start of its transaction until its
	// events are published, so events reach the queues in commit order; a registration holds
	// it shared while it creates its queue and reads the state, so no commit falls between
	// the two.
	writeMu sync.RWMutex
	// closed is set by Close (under writeMu): later mutations are refused, so the queues saved
	// by Close miss no committed event.
	closed bool
	// commits gathers concurrent mutations into shared commits (commits.go).
	commits commitGroups
	// overlap orders the events of sends that overlap (overlap.go).
	overlap *overlap
	// drain counts the mutations in flight and refuses new ones once Drain has begun
	// (drain.go).
	drain drain
	// stopping is set when Close begins: a mutation that gets the write lock after it is
	// refused, as after closed, so that Close, waiting for the lock, follows only the
	// mutations already inside a transaction.
	stopping atomic.Bool
}

// New returns an Engine on cfg.Store.
func New(cfg Config) *Engine {
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Publish == nil {
		cfg.Publish = func(*Events) {}
	}
	return &Engine{
		store:       cfg.Store,
		now:         cfg.Now,
		log:         cfg.Log,
		publishHook: cfg.Publish,
		publishInTx: cfg.PublishInTx,
		fakeDomain:  cfg.FakeEmailDomain,
		overlap:     newOverlap(),
	}
}

// EmailDomain is the domain of the addresses the server makes up in realm (bots' addresses,
// the placeholders of hidden addresses): realm.EmailDomain with the server's fake email domain.
// An operation with a world reads it from the world (world.World.EmailDomain).
func (e *Engine) EmailDomain(realm realms.Realm) string { return realm.EmailDomain(e.fakeDomain) }

// publish hands the events of a committed mutation on, then runs the work that follows its
// commit.
func (e *Engine) publish(ev *Events) {
	e.publishHook(ev)
	for _, fn := range ev.After {
		fn()
	}
}

// publishEventsInTx records ev inside tx where a bus carries the events.
func (e *Engine) publishEventsInTx(tx storage.Tx, ev *Events) error {
	if e.publishInTx == nil {
		return nil
	}
	return e.publishInTx(tx, ev)
}

// storageError is StorageError with the engine's log.
func (e *Engine) storageError(err error) error { return StorageError(e.log, err) }

// Registration runs fn while no mutation can commit or publish, and no overlapping send is
// inside: a registration reads its state and creates its queue in fn, so that the state plus
// the queue's events is the true state. Registrations run beside each other.
func (e *Engine) Registration(fn func() error) error {
	e.writeMu.RLock()
	defer e.writeMu.RUnlock()
	defer e.overlap.enterRegistration()()
	return fn()
}

// Exclusive runs fn while nothing else commits, publishes or registers (a bus delivering
// events to the queues). closed tells whether Close has begun.
func (e *Engine) Exclusive(fn func(closed bool)) {
	e.writeMu.Lock()
	defer e.writeMu.Unlock()
	fn(e.closed)
}

// Shared runs fn while no mutation publishes (it may run beside registrations).
func (e *Engine) Shared(fn func()) {
	e.writeMu.RLock()
	defer e.writeMu.RUnlock()
	fn()
}

// Close refuses every later mutation, and runs fn once the mutations inside a transaction have
// published (fn saves the queues, which then miss no committed event); the mutations still
// waiting for their transaction are refused (ErrShuttingDown). Drain first to let them finish.
func (e *Engine) Close(fn func() error) error {
	e.stopping.Store(true)
	e.writeMu.Lock()
	defer e.writeMu.Unlock()
	e.closed = true
	return fn()
}

// HoldWrites keeps every mutation from committing until the returned function runs;
// mutations started meanwhile wait for the next commit group. For tests.
func (e *Engine) HoldWrites() (release func()) {
	e.writeMu.Lock()
	return e.writeMu.Unlock
}

// CommitStats are figures of group commit (commits.go).
type CommitStats struct {
	// Waiting is how many mutations wait for a group to take them.
	Waiting int
	// Leading is whether a group is running (or waiting for the write lock).
	Leading bool
	// Shared counts the commits several mutations shared, Sharing the mutations in them.
	Shared, Sharing uint64
}

// Commits reports the figures of group commit.
func (e *Engine) Commits() CommitStats {
	g := &e.commits
	g.mu.Lock()
	defer g.mu.Unlock()
	return CommitStats{Waiting: len(g.waiting), Leading: g.leading, Shared: g.shared, Sharing: g.sharing}
}
