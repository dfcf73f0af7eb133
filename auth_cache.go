package chat

import (
	"crypto/subtle"
	"sync"

	"github.com/teamchat/chat/users"
)

// The credential cache: AuthenticateAPIKey answers from memory the credentials it has already
// checked against the store, so that a long-poll's wake-up and its next GET /events touch no
// database. It holds successes only (an email, its user and API key); a failure always asks
// the store.
//
// Exactness. A cached entry says "this email and key name this active user of an active
// organization, who is not an incoming webhook bot". Every mutation that changes one of those
// facts (a user's email, API key, password, activity; see credentialsChanged) drops the user's
// entry once its transaction commits: in this process right after the commit (before the
// mutation returns), and in the other processes sharing the store when the transaction's bus
// message reaches them (busMessage.Creds). A fill that raced with an invalidation is refused:
// each invalidation bumps a generation, and AuthenticateAPIKey fills only with the generation
// it read before opening its read transaction, so a read that may have seen the state from
// before a commit never lands after that commit's invalidation. With a Bus, the cache is off
// (nothing is filled, everything dropped) while the bus is not listening, since invalidations
// would not arrive; after a reconnection the bus replays what was missed. The organization's
// deactivation has no operation of the Service (it is a store-level change), which is why the
// store's direct writers call ForgetCredentials.

// maxCachedCredentials bounds the cache; past it, the cache starts over.
const maxCachedCredentials = 1 << 17

type credentialCache struct {
	mu      sync.RWMutex
	gen     uint64 // bumped by every invalidation
	off     bool   // with a Bus that is not listening: nothing is cached
	byEmail map[string]cachedCredential
	byUser  map[users.ID]string // the email key of each cached user
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

// forget drops the entries of the given users.
func (c *credentialCache) forget(ids []int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	for _, id := range ids {
		if email, ok := c.byUser[users.ID(id)]; ok {
			delete(c.byUser, users.ID(id))
			delete(c.byEmail, email)
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
}

// credentialsChanged records that the transaction changes what authenticates the given users
// (their email, API key, password or activity): their cached credentials are dropped once it
// commits, here and, through the bus, in every process.
func (s *Service) credentialsChanged(ev *events, ids ...users.ID) {
	list := make([]int64, len(ids))
	for i, id := range ids {
		list[i] = int64(id)
	}
	ev.creds = append(ev.creds, list...)
	ev.afterCommit(func() { s.creds.forget(list) })
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
func (s *Service) userRewritten(ev *events, old, u users.User) {
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
