package people

import (
	"errors"
	"sync/atomic"

	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/ratelimit"
	"github.com/teamchat/chat/users"
)

// Authentication failures of API keys are rate limited as Zulip limits failed logins
// (RATE_LIMITING_RULES "authenticate_by_username", 5 per 30 minutes, and a per-address rule):
// a wrong key counts one failure against the account (the email it named) and one against the
// client address; once either budget is spent, further attempts on it are refused with
// RATE_LIMIT_HIT (429) before any key is checked, until the oldest failure leaves the window.
// Only failures count, so a client using its right key is never limited here, and credentials
// already checked are answered from the credential cache before the limits are consulted:
// someone hammering an account with wrong keys does not lock out its clients that are already
// authenticated.

// maxFailureKeyLen bounds the part of an untrusted email a failure limiter keeps as its key.
const maxFailureKeyLen = 320

// keyFailures are the API-key failure limiters and the counts ops exports.
type keyFailures struct {
	byUser, byAddr *ratelimit.Limiter
	failed         atomic.Uint64
	refused        atomic.Uint64
}

func newKeyFailures(cfg Config) *keyFailures {
	return &keyFailures{
		byUser: ratelimit.New(cfg.LoginRateLimit, cfg.Now),
		byAddr: ratelimit.New(cfg.LoginAddressRateLimit, cfg.Now),
	}
}

// AuthenticationStats count the API-key authentication failures of this process.
type AuthenticationStats struct {
	// Failed is how many attempts had a wrong or malformed key (401).
	Failed uint64
	// RateLimited is how many attempts were refused unchecked because their account or their
	// client address had spent its failure budget (429).
	RateLimited uint64
}

// AuthenticationStats reports the API-key failures counted since the Service started.
func (s *Service) AuthenticationStats() AuthenticationStats {
	return AuthenticationStats{Failed: s.keyFails.failed.Load(), RateLimited: s.keyFails.refused.Load()}
}

// failureKeys are the limiters' keys of an attempt: the account's normalised email (or, for a
// key given alone, nothing) and the client address ("" when unknown).
func failureKeys(email, addr string) (user, address string) {
	if email != "" {
		user = "user:" + users.NormalizeEmail(email)
		if len(user) > maxFailureKeyLen {
			user = user[:maxFailureKeyLen]
		}
	}
	if addr != "" {
		address = "addr:" + addr
	}
	return user, address
}

// admit refuses an attempt whose account or address has spent its failure budget.
func (f *keyFailures) admit(email, addr string) error {
	user, address := failureKeys(email, addr)
	for _, k := range []struct {
		l   *ratelimit.Limiter
		key string
	}{{f.byAddr, address}, {f.byUser, user}} {
		if k.key == "" {
			continue
		}
		if err := RateLimited(k.l.Peek(k.key)); err != nil {
			f.refused.Add(1)
			return err
		}
	}
	return nil
}

// record counts err against the attempt's account and address when it says the key was wrong
// (an unknown email, a key that is not the account's, a malformed key). Refusals of a right
// key (a deactivated user or organization, a webhook bot on a closed endpoint) count nothing.
func (f *keyFailures) record(email, addr string, err error) {
	var e *engine.Error
	if !errors.As(err, &e) || e.Code != engine.CodeUnauthorized || (e.Msg != msgInvalidKey && e.Msg != msgMalformedKey) {
		return
	}
	f.failed.Add(1)
	user, address := failureKeys(email, addr)
	if user != "" {
		f.byUser.Allow(user)
	}
	if address != "" {
		f.byAddr.Allow(address)
	}
}

// CachedAPIKey answers credentials from the credential cache alone: ok is false when they
// were not checked before (or were invalidated since). It reads nothing and counts nothing, for
// a fast path that hands anything else to AuthenticateAPIKeyFrom.
func (s *Service) CachedAPIKey(email, apiKey string) (engine.Actor, bool) {
	if !users.ValidAPIKey(apiKey) {
		return engine.Actor{}, false
	}
	id, ok := s.creds.lookup(users.NormalizeEmail(email), apiKey)
	return engine.Actor{UserID: id}, ok
}
