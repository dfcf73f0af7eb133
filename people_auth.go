package chat

import "context"

// API keys, logins and web sessions of the people area (package people).

// AuthenticateAPIKey checks HTTP Basic credentials: the user's delivery email (compared
// case-insensitively) and API key (compared in constant time). Every failure is a 401
// UNAUTHORIZED error with Zulip's message. Credentials it has checked are answered from memory
// afterwards, without a store read (auth_cache.go). Incoming webhook bots are refused.
func (s *Service) AuthenticateAPIKey(ctx context.Context, email, apiKey string) (Actor, error) {
	return s.people.AuthenticateAPIKey(ctx, email, apiKey)
}

// AuthenticateWebhookAPIKey is AuthenticateAPIKey for the endpoints Zulip opens to incoming
// webhook bots (POST /messages and the integrations' /external/ URLs): it accepts them too.
// An empty email looks the key up alone (an integration URL's api_key parameter).
func (s *Service) AuthenticateWebhookAPIKey(ctx context.Context, email, apiKey string) (Actor, error) {
	return s.people.AuthenticateWebhookAPIKey(ctx, email, apiKey)
}

// AuthenticateAPIKeyFrom is AuthenticateAPIKey for a request from clientAddress: its wrong
// keys count against the address's failure budget as well as the account's, and a spent
// budget answers RATE_LIMIT_HIT (429) without checking the key.
func (s *Service) AuthenticateAPIKeyFrom(ctx context.Context, email, apiKey, clientAddress string) (Actor, error) {
	return s.people.AuthenticateAPIKeyFrom(ctx, email, apiKey, clientAddress)
}

// AuthenticateWebhookAPIKeyFrom is AuthenticateWebhookAPIKey for a request from clientAddress
// (see AuthenticateAPIKeyFrom).
func (s *Service) AuthenticateWebhookAPIKeyFrom(ctx context.Context, email, apiKey, clientAddress string) (Actor, error) {
	return s.people.AuthenticateWebhookAPIKeyFrom(ctx, email, apiKey, clientAddress)
}

// CachedAPIKey answers API-key credentials from the credential cache alone (ok false when
// they were not checked before): no store read, nothing counted against the failure limits.
func (s *Service) CachedAPIKey(email, apiKey string) (Actor, bool) {
	return s.people.CachedAPIKey(email, apiKey)
}

// AuthenticationStats counts the API-key authentication failures of this process: wrong keys
// and attempts refused by the failure limits.
func (s *Service) AuthenticationStats() AuthenticationStats { return s.people.AuthenticationStats() }

// FetchAPIKey exchanges a username (email) and password for the user's API key. Attempts are
// rate limited per username and per client address before the password is checked; a
// successful login clears the username's failures.
func (s *Service) FetchAPIKey(ctx context.Context, p FetchAPIKeyParams) (FetchAPIKeyResult, error) {
	return s.people.FetchAPIKey(ctx, p)
}

// JWTFetchAPIKey exchanges a JWT signed with the configured HS256 key, carrying an `email`
// claim, for that user's API key. The algorithm is pinned, the signature checked, and exp,
// nbf and iat validated when present.
func (s *Service) JWTFetchAPIKey(ctx context.Context, p JWTFetchAPIKeyParams) (JWTFetchAPIKeyResult, error) {
	return s.people.JWTFetchAPIKey(ctx, p)
}

// DevFetchAPIKey returns any active user's API key without a password. It works only on a
// Service created with Options.Dev.
func (s *Service) DevFetchAPIKey(ctx context.Context, p DevFetchAPIKeyParams) (FetchAPIKeyResult, error) {
	return s.people.DevFetchAPIKey(ctx, p)
}

// DevListUsers lists active human users, administrators and owners apart, in Zulip's order:
// by the email clients see (Zulip sorts on that column), which is the placeholder
// user{id}@{host} for users who hide their address. It works only on a Service created with
// Options.Dev.
func (s *Service) DevListUsers(ctx context.Context) (DevListUsersResult, error) {
	return s.people.DevListUsers(ctx)
}

// RegenerateAPIKey replaces the actor's API key with a new random one. The old key stops
// authenticating at once.
func (s *Service) RegenerateAPIKey(ctx context.Context, actor Actor) (RegenerateAPIKeyResult, error) {
	return s.people.RegenerateAPIKey(ctx, actor)
}

// ForgetCredentials drops every cached credential. The Service keeps its cache exact for its
// own writes; a program that writes users or the organization into the store directly (not
// through the Service) calls it afterwards.
func (s *Service) ForgetCredentials() {
	s.people.ForgetCredentials()
}

// StartSession starts a web session for actor, an active user whom a login already
// authenticated (dev_fetch_api_key logs the browser in this way, as Zulip's does). The
// session lasts Options.SessionAge from now. Expired sessions are swept in the same
// transaction, so the store keeps only live ones and those not yet swept, and a user keeps at
// most MaxSessionsPerUser.
func (s *Service) StartSession(ctx context.Context, actor Actor) (Session, error) {
	return s.people.StartSession(ctx, actor)
}

// StartSessionWithPassword is the password login of the web (Zulip's POST /accounts/login/):
// FetchAPIKey's checks, rate limits and errors, then StartSession for the user. The password
// is checked outside the write transaction (hashing is slow); StartSession checks again that
// the user is active.
func (s *Service) StartSessionWithPassword(ctx context.Context, p FetchAPIKeyParams) (Session, error) {
	return s.people.StartSessionWithPassword(ctx, p)
}

// AuthenticateSession returns the actor of a session id. Every refusal (an id of the wrong
// form, unknown, expired, of a deactivated user or organization, of an incoming webhook bot)
// is ErrNotLoggedIn, as Django treats a dead session as no session: the caller may then try
// other credentials. Sessions it has checked are answered from memory afterwards, until they
// end by the Service clock, without a store read (auth_cache.go).
func (s *Service) AuthenticateSession(ctx context.Context, id string) (Actor, error) {
	return s.people.AuthenticateSession(ctx, id)
}

// EndSession ends a web session (logout). Ending an unknown or already ended session is no
// error: the browser is logged out either way.
func (s *Service) EndSession(ctx context.Context, id string) (EndSessionResult, error) {
	return s.people.EndSession(ctx, id)
}
