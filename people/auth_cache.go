package people

import (
	"crypto/sha256"
	"crypto/subtle"
	"sync"

	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/users"
)

// The credential cache: AuthenticateAPIKey and AuthenticateSession answer from memory the
// credentials they have already checked against the store, so that a long-poll's wake-up and
// its next GET /events touch no database. It holds successes only (an email, its user and API
// key; a web session's key, its user and expiry); a failure always asks the store.
//
// Exactness. A cached API key says "this email and key name this active user of an active
// organization, who is not an incoming webhook bot", or, under keyOnlyCacheKey (which no email
// matches, and which only AuthenticateWebhookAPIKey looks up), "this key alone names this active
// incoming webhook bot of an active organization"; a cached session says "this session key names a
// session of this user (such a user) that ends at this time", and is answered only before that time
// by the Service clock. Every mutation that changes one of those facts (a user's email, API key,
// password, activity, sessions; see credentialsChanged) drops the user's entries once its
// transaction commits: in this process right after the commit (before the mutation returns), and in
// the other processes sharing the store when the transaction's bus message reaches them
// (busMessage's authChanges). A login that sweeps expired sessions drops, the same way, the cached
// sessions that expired by its clock (sessionsSwept), since another process's clock may be behind.
// A fill that raced with an invalidation is refused: each invalidation bumps a generation, and the
// authentication fills only with the generation it read before opening its read transaction, so a
// read that may have seen the state from before a commit never lands after that commit's
// invalidation. With a Bus, the cache is off (nothing is filled, everything dropped) while the bus
// is not listening, since invalidations would not arrive; after a reconnection the bus replays what
// was missed. The organization's deactivation has no operation of the Service (it is a store-level
// change), which is why the store's direct writers call ForgetCredentials.

// maxCachedCredentials bounds each table of the cache; past it, the table starts over.
const maxCachedCredentials = 1 << 17

type credentialCache struct {
	mu      sync.RWMutex
	gen     uint64 // bumped by every invalidation
	off     bool   // with a Bus that is not listening: nothing is cached
	byEmail map[string]cachedCredential
	byUser  map[users.ID]string // the email key of each cached user
	// sessions holds checked web sessions by the SHA-256 of their id; userSessions lists
	// each user's.
	sessions     map[sessionHash]cachedSession
	userSessions map[users.ID][]sessionHash
}

// sessionHash is the SHA-256 of a session id (SessionKey is its hexadecimal form).
type sessionHash [sha256.Size]byte

type cachedSession struct {
	user    users.ID
	expires int64  // Unix seconds: answered only before
	key     string // the store's key (engine.Actor.session)
}

type cachedCredential struct {
	user users.ID
	key  string
}

// lookup returns the user whose cached email is email (normalized) and key apiKey.
func (c *credentialCache) lookup(email, apiKey string) (users.ID, bool) {
	c.mu.RLock()
	e, ok := c.byEmail[email]
	c.mu.RUnlock()
	if !ok || subtle.ConstantTimeCompare([]byte(e.key), []byte(apiKey)) != 1 {
		return 0, false
	}
	return e.user, true
}

// generation is read before a store read whose result may fill the cache.
func (c *credentialCache) generation() uint64 {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.gen
}

// fill caches a checked credential, unless an invalidation happened since gen was read.
func (c *credentialCache) fill(gen uint64, email string, user users.ID, key string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gen != gen || c.off {
		return
	}
	if c.byEmail == nil || len(c.byEmail) >= maxCachedCredentials {
		c.byEmail = map[string]cachedCredential{}
		c.byUser = map[users.ID]string{}
	}
	if old, ok := c.byUser[user]; ok && old != email {
		delete(c.byEmail, old)
	}
	c.byEmail[email] = cachedCredential{user: user, key: key}
	c.byUser[user] = email
}

// session returns the actor of a cached session that has not ended at now (Unix seconds).
func (c *credentialCache) session(h sessionHash, now int64) (engine.Actor, bool) {
	c.mu.RLock()
	e, ok := c.sessions[h]
	c.mu.RUnlock()
	if !ok || e.expires <= now {
		return engine.Actor{}, false
	}
	return engine.SessionActor(e.user, e.key), true
}

// fillSession caches a checked session, unless an invalidation happened since gen was read.
func (c *credentialCache) fillSession(gen uint64, h sessionHash, s cachedSession) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gen != gen || c.off {
		return
	}
	if c.sessions == nil || len(c.sessions) >= maxCachedCredentials {
		c.sessions = map[sessionHash]cachedSession{}
		c.userSessions = map[users.ID][]sessionHash{}
	}
	if _, ok := c.sessions[h]; !ok {
		c.userSessions[s.user] = append(c.userSessions[s.user], h)
	}
	c.sessions[h] = s
}

// apply drops what a committed transaction invalidated (here or, through the bus, in another
// process).
func (c *credentialCache) apply(a engine.CredentialChanges) {
	if len(a.Users) == 0 && a.Swept == 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	for _, id := range a.Users {
		c.forgetUser(users.ID(id))
	}
	if a.Swept != 0 {
		c.sweep(a.Swept)
	}
}

// forgetUser drops a user's entries. c.mu must be held.
func (c *credentialCache) forgetUser(id users.ID) {
	if email, ok := c.byUser[id]; ok {
		delete(c.byUser, id)
		delete(c.byEmail, email)
	}
	for _, h := range c.userSessions[id] {
		delete(c.sessions, h)
	}
	delete(c.userSessions, id)
}

// sweep drops the sessions that end at or before t (Unix seconds). c.mu must be held.
func (c *credentialCache) sweep(t int64) {
	for id, list := range c.userSessions {
		keep := list[:0]
		for _, h := range list {
			if c.sessions[h].expires <= t {
				delete(c.sessions, h)
			} else {
				keep = append(keep, h)
			}
		}
		if len(keep) == 0 {
			delete(c.userSessions, id)
		} else {
			c.userSessions[id] = keep
		}
	}
}

// reset drops every entry; off says whether the cache stays empty until the next reset.
func (c *credentialCache) reset(off bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	c.off = off
	c.byEmail, c.byUser = nil, nil
	c.sessions, c.userSessions = nil, nil
}

// credentialsChanged records that the transaction changes what authenticates the given users
// (their email, API key, password, activity or web sessions): their cached credentials are
// dropped once it commits, here and, through the bus, in every process.
func (s *Service) credentialsChanged(ev *engine.Events, ids ...users.ID) {
	list := make([]int64, len(ids))
	for i, id := range ids {
		list[i] = int64(id)
	}
	ev.Creds.Users = append(ev.Creds.Users, list...)
	ev.AfterCommit(func() { s.creds.apply(engine.CredentialChanges{Users: list}) })
}

// sessionsSwept records that the transaction deleted the sessions that end at or before t
// (Unix seconds): the cached ones are dropped once it commits, here and in every process.
func (s *Service) sessionsSwept(ev *engine.Events, t int64) {
	ev.Creds.Swept = max(ev.Creds.Swept, t)
	ev.AfterCommit(func() { s.creds.apply(engine.CredentialChanges{Swept: t}) })
}

// credentialsOf is what a cached credential depends on of a user.
type credentialFields struct {
	email, apiKey, passwordHash string
	active                      bool
	botType                     users.BotType
}

func credentialsOf(u users.User) credentialFields {
	return credentialFields{email: u.Email, apiKey: u.APIKey, passwordHash: u.PasswordHash, active: u.IsActive, botType: u.BotType}
}

// userRewritten calls credentialsChanged when the write of a user from old to u changes its
// credentials.
func (s *Service) userRewritten(ev *engine.Events, old, u users.User) {
	if credentialsOf(old) != credentialsOf(u) {
		s.credentialsChanged(ev, u.ID)
	}
}

// ForgetCredentials drops every cached credential. The Service keeps its cache exact for its
// own writes; a program that writes users or the organization into the store directly (not
// through the Service) calls it afterwards.
func (s *Service) ForgetCredentials() { s.creds.reset(s.creds.isOff()) }

func (c *credentialCache) isOff() bool {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.off
}

// ResetCredentials drops every cached credential; off keeps the cache from caching until the
// next reset (a Bus that stopped listening: invalidations from other processes no longer
// arrive).
func (s *Service) ResetCredentials(off bool) { s.creds.reset(off) }

// ApplyCredentialChanges drops the cached credentials another process changed.
func (s *Service) ApplyCredentialChanges(c engine.CredentialChanges) { s.creds.apply(c) }
