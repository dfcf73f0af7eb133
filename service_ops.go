package chat

import (
	"context"
	"errors"
	"time"

	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// readOp is what the body of a reading operation works with (see read): its transaction, the
// acting user who passed the operation's gate, the operation's time and, read on first use,
// the world.
type readOp struct {
	tx  storage.ReadTx
	me  users.User // the zero User for a spectator or an operation without actor
	now time.Time  // read once per run of the transaction
	w   *world
}

// writeOp is what the body of a mutation works with (see mutate): a readOp over the writable
// transaction, which it also holds as tx, and the events to publish after commit.
type writeOp struct {
	readOp
	tx storage.Tx
	ev *events
}

// world returns the operation's world, reading it on first use. A failed read is the world's
// sticky error, which read and mutate return once the body returns.
func (o *readOp) world() *world {
	if o.w == nil {
		o.w = loadWorld(o.tx, o.now.Unix())
	}
	return o.w
}

// done is the outcome of a body that returned err: a failed read of the world comes first (the
// body decided on missing data), then the body's own error.
func (o *readOp) done(err error) error {
	if o.w != nil && o.w.err != nil {
		return o.w.err
	}
	return err
}

// read runs body in one read-only transaction for actor, who must pass g first. It reads the
// clock once per run, and returns the first failed read of the world, else body's error.
func (s *Service) read(ctx context.Context, actor Actor, g gate, body func(o *readOp) error) error {
	return s.view(ctx, func(tx storage.ReadTx) error {
		o := &readOp{tx: tx, now: s.now()}
		me, err := g(tx, actor)
		if err != nil {
			return err
		}
		o.me = me
		return o.done(body(o))
	})
}

// mutate runs body in one write transaction for actor, who must pass g first, and publishes
// the events body collected (o.ev) after the commit. The store may run body more than once
// (each run starts afresh): body does nothing but reads, writes and collecting events; any
// other side effect goes into o.ev.afterCommit or after mutate returns.
func (s *Service) mutate(ctx context.Context, actor Actor, g gate, body func(o *writeOp) error) error {
	return s.mutateWith(ctx, nil, actor, g, body)
}

// mutateWith is mutate with the store's transaction method run (see updateWith).
func (s *Service) mutateWith(ctx context.Context, run func(context.Context, func(storage.Tx) error) error, actor Actor, g gate, body func(o *writeOp) error) error {
	return s.updateWith(ctx, run, func(tx storage.Tx, ev *events) error {
		r := storage.ReadsOf(tx)
		o := &writeOp{readOp: readOp{tx: r, now: s.now()}, tx: tx, ev: ev}
		me, err := g(r, actor)
		if err != nil {
			return err
		}
		o.me = me
		return o.done(body(o))
	})
}

// gate is an operation's one access check: it loads the acting user inside the transaction (so
// a concurrent deactivation or demotion wins) and refuses those the operation is not for. The
// gates, from the most open:
//
//	noActor     operations without an acting user (logins, sign-ups): loads nobody
//	spectators  an authenticated user, or the anonymous actor where the organization allows
//	            spectator access (the zero User)
//	signedIn    an authenticated, active user
//	humans      signedIn, not a bot (Zulip's human_users_only)
//	members     humans, not a guest (require_member_or_admin)
//	admins      an organization administrator (or owner)
//
// An area may add its own gate built on these (draftsUsers).
type gate func(tx storage.ReadTx, actor Actor) (users.User, error)

func noActor(storage.ReadTx, Actor) (users.User, error) { return users.User{}, nil }

func spectators(tx storage.ReadTx, actor Actor) (users.User, error) {
	if !actor.Anonymous() {
		return signedIn(tx, actor)
	}
	realm, err := tx.Realm().Get()
	if err != nil {
		return users.User{}, err
	}
	if !realm.EnableSpectatorAccess {
		return users.User{}, ErrNotLoggedIn()
	}
	return users.User{}, nil
}

func signedIn(tx storage.ReadTx, actor Actor) (users.User, error) {
	if actor.Anonymous() {
		return users.User{}, ErrNotLoggedIn()
	}
	u, err := tx.Users().Get(actor.UserID)
	if errors.Is(err, storage.ErrNotFound) {
		return users.User{}, Errorf(CodeUnauthorized, msgInvalidKey)
	}
	if err != nil {
		return users.User{}, err
	}
	if !u.IsActive {
		return users.User{}, Errorf(CodeUnauthorized, msgUserDeactivated)
	}
	return u, nil
}

func humans(tx storage.ReadTx, actor Actor) (users.User, error) {
	u, err := signedIn(tx, actor)
	if err == nil && u.IsBot() {
		return users.User{}, badRequest(msgNoBots)
	}
	return u, err
}

func members(tx storage.ReadTx, actor Actor) (users.User, error) {
	u, err := humans(tx, actor)
	if err == nil && u.Role == users.RoleGuest {
		return users.User{}, badRequest(msgNotForGuests)
	}
	return u, err
}

func admins(tx storage.ReadTx, actor Actor) (users.User, error) {
	u, err := signedIn(tx, actor)
	if err == nil && !u.Role.IsAdmin() {
		return users.User{}, errMustBeAdmin()
	}
	return u, err
}

// notFound translates a storage.ErrNotFound from err into the area's error miss; other errors
// (and nil) pass unchanged. Each area names its translations once (errDraftNotFound,
// errChannelIDNotFound, ...) and passes them here.
func notFound[E error](err error, miss func() E) error {
	if errors.Is(err, storage.ErrNotFound) {
		return miss()
	}
	return err
}
