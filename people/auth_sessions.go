package people

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"time"

	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// DefaultSessionAge is how long a web session lasts when Options.SessionAge is zero: Zulip's
// SESSION_COOKIE_AGE, two weeks from the login.
const DefaultSessionAge = 14 * 24 * time.Hour

// MaxSessionsPerUser bounds the live sessions of one user: a login beyond it ends the user's
// sessions that expire soonest (the oldest logins).
const MaxSessionsPerUser = 100

// SessionIDLength is the length of a session id: lowercase letters and digits, as Django's
// session keys (about 165 random bits).
const SessionIDLength = 32

const sessionIDAlphabet = "abcdefghijklmnopqrstuvwxyz0123456789"

// Session is a started web session: the id its cookie carries (returned once and never
// stored: the store keeps its SHA-256), its user and when it ends.
type Session struct {
	ID      string
	UserID  users.ID
	Expires time.Time
	// Age is how long the session lasts from its start (Options.SessionAge): a cookie's
	// Max-Age.
	Age time.Duration
}

// ValidSessionID reports whether id has the form of a session id. Anything else a cookie
// carries names no session, and the store is not asked.
func ValidSessionID(id string) bool {
	if len(id) != SessionIDLength {
		return false
	}
	for i := 0; i < len(id); i++ {
		if c := id[i]; (c < 'a' || c > 'z') && (c < '0' || c > '9') {
			return false
		}
	}
	return true
}

// SessionKey is what the store keeps of a session id.
func SessionKey(id string) string {
	sum := sha256.Sum256([]byte(id))
	return hex.EncodeToString(sum[:])
}

// hashSession is the SHA-256 of a session id, of which SessionKey is the hexadecimal form.
func hashSession(id string) sessionHash { return sha256.Sum256([]byte(id)) }

func (s *Service) sessionAge() time.Duration {
	if s.cfg.SessionAge > 0 {
		return s.cfg.SessionAge
	}
	return DefaultSessionAge
}

// StartSession starts a web session for actor, an active user whom a login already
// authenticated (dev_fetch_api_key logs the browser in this way, as Zulip's does). The
// session lasts Options.SessionAge from now. Expired sessions are swept in the same
// transaction, so the store keeps only live ones and those not yet swept, and a user keeps at
// most MaxSessionsPerUser.
func (s *Service) StartSession(ctx context.Context, actor engine.Actor) (Session, error) {
	if actor.Anonymous() {
		return Session{}, ErrNotLoggedIn()
	}
	id, err := randomString(SessionIDLength, sessionIDAlphabet)
	if err != nil {
		return Session{}, engine.InternalError(err)
	}
	var res Session
	err = s.eng.Mutate(ctx, actor, engine.SignedIn, func(o *engine.WriteOp) error {
		if n, err := o.Tx.Sessions().DeleteExpired(o.Now.Unix()); err != nil {
			return err
		} else if n > 0 {
			s.sessionsSwept(o.Ev, o.Now.Unix())
		}
		if err := s.endOldestSessions(o, o.Me.ID); err != nil {
			return err
		}
		expires := o.Now.Add(s.sessionAge()).Unix()
		if err := o.Tx.Sessions().Create(storage.Session{Key: SessionKey(id), UserID: o.Me.ID, Expires: expires}); err != nil {
			return err
		}
		res = Session{ID: id, UserID: o.Me.ID, Expires: time.Unix(expires, 0), Age: s.sessionAge()}
		return nil
	})
	return res, err
}

// StartSessionWithPassword is the password login of the web (Zulip's POST /accounts/login/):
// FetchAPIKey's checks, rate limits and errors, then StartSession for the user. The password
// is checked outside the write transaction (hashing is slow); StartSession checks again that
// the user is active.
func (s *Service) StartSessionWithPassword(ctx context.Context, p FetchAPIKeyParams) (Session, error) {
	res, err := s.FetchAPIKey(ctx, p)
	if err != nil {
		return Session{}, err
	}
	return s.StartSession(ctx, engine.Actor{UserID: res.UserID})
}

// AuthenticateSession returns the actor of a session id. Every refusal (an id of the wrong
// form, unknown, expired, of a deactivated user or organization, of an incoming webhook bot)
// is ErrNotLoggedIn, as Django treats a dead session as no session: the caller may then try
// other credentials. Sessions it has checked are answered from memory afterwards, until they
// end by the Service clock, without a store read (auth_cache.go).
func (s *Service) AuthenticateSession(ctx context.Context, id string) (engine.Actor, error) {
	if !ValidSessionID(id) {
		return engine.Actor{}, ErrNotLoggedIn()
	}
	h := hashSession(id)
	if actor, ok := s.creds.session(h, s.now().Unix()); ok {
		return actor, nil
	}
	gen := s.creds.generation() // before the read: see credentialCache
	key := hex.EncodeToString(h[:])
	var actor engine.Actor
	var expires int64
	err := s.eng.Read(ctx, engine.Actor{}, engine.NoActor, func(o *engine.ReadOp) error {
		sess, err := o.Tx.Sessions().Get(key)
		if errors.Is(err, storage.ErrNotFound) {
			return ErrNotLoggedIn()
		}
		if err != nil {
			return err
		}
		if sess.Expires <= o.Now.Unix() {
			return ErrNotLoggedIn()
		}
		u, err := o.Tx.Users().Get(sess.UserID)
		if errors.Is(err, storage.ErrNotFound) {
			return ErrNotLoggedIn()
		}
		if err != nil {
			return err
		}
		realm, err := o.Tx.Realm().Get()
		if err != nil {
			return err
		}
		if realm.Deactivated || !u.IsActive || u.BotType == users.BotIncomingWebhook {
			return ErrNotLoggedIn()
		}
		actor, expires = engine.SessionActor(u.ID, key), sess.Expires
		return nil
	})
	if err != nil {
		return engine.Actor{}, err
	}
	s.creds.fillSession(gen, h, cachedSession{user: actor.UserID, expires: expires, key: key})
	return actor, nil
}

// EndSessionResult is EndSession's answer: nothing beyond success.
type EndSessionResult struct{}

// EndSession ends a web session (logout). Ending an unknown or already ended session is no
// error: the browser is logged out either way.
func (s *Service) EndSession(ctx context.Context, id string) (EndSessionResult, error) {
	if !ValidSessionID(id) {
		return EndSessionResult{}, nil
	}
	key := SessionKey(id)
	return EndSessionResult{}, s.eng.Mutate(ctx, engine.Actor{}, engine.NoActor, func(o *engine.WriteOp) error {
		sess, err := o.Tx.Sessions().Get(key)
		if errors.Is(err, storage.ErrNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		if err := o.Tx.Sessions().Delete(key); err != nil && !errors.Is(err, storage.ErrNotFound) {
			return err
		}
		s.credentialsChanged(o.Ev, sess.UserID)
		return nil
	})
}

// endSessions ends every web session of a user but the one whose store key is keep ("" keeps
// none), and drops the user's cached credentials once the transaction commits.
func (s *Service) endSessions(tx storage.Tx, ev *engine.Events, user users.ID, keep string) error {
	if _, err := tx.Sessions().DeleteUser(user, keep); err != nil {
		return err
	}
	s.credentialsChanged(ev, user)
	return nil
}

// endOtherSessions ends every web session of a user but the actor's own (Django keeps the
// session that changed the password logged in): what a password change and a new API key do.
func (s *Service) endOtherSessions(o *engine.WriteOp, actor engine.Actor, user users.ID) error {
	keep := ""
	if actor.UserID == user {
		keep = actor.SessionKey()
	}
	return s.endSessions(o.Tx, o.Ev, user, keep)
}

// endOldestSessions makes room for one more session of a user under MaxSessionsPerUser.
func (s *Service) endOldestSessions(o *engine.WriteOp, user users.ID) error {
	list, err := o.Tx.Sessions().ListUser(user)
	if err != nil {
		return err
	}
	for i := 0; i <= len(list)-MaxSessionsPerUser; i++ {
		if err := o.Tx.Sessions().Delete(list[i].Key); err != nil {
			return err
		}
	}
	if len(list) >= MaxSessionsPerUser {
		s.credentialsChanged(o.Ev, user)
	}
	return nil
}
