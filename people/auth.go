package people

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"math"
	"slices"
	"strings"
	"unicode"

	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/internal/world"

	"github.com/golang-jwt/jwt/v5"

	"github.com/teamchat/chat/ratelimit"
	"github.com/teamchat/chat/realms"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// The messages of authentication failures, as Zulip words them.
const (
	msgNotLoggedIn       = engine.MsgNotLoggedIn
	msgMalformedKey      = "Malformed API key"
	msgInvalidKey        = engine.MsgInvalidKey
	msgUserDeactivated   = engine.MsgUserDeactivated
	msgRealmDeactivated  = "This organization has been deactivated"
	msgWebhookBot        = "This API is not available to incoming webhook bots."
	msgBadCredentials    = "Your username or password is incorrect"
	msgRateLimited       = "API usage exceeded rate limit"
	msgJWTDisabled       = "JWT authentication is not enabled for this organization"
	msgNoJWT             = "No JSON web token passed in request"
	msgBadJWT            = "Bad JSON web token"
	msgNoJWTEmail        = "No email specified in JSON web token claims"
	msgDevAuthDisabled   = "DevAuthBackend not enabled."
	msgPasswordAuthOff   = "Password authentication is disabled in this organization"
	msgInvalidEmailInput = "Enter a valid email address."
)

// ErrNotLoggedIn is the error for a request that needs credentials and carries none.
func ErrNotLoggedIn() *engine.Error { return engine.ErrNotLoggedIn() }

// AuthenticateAPIKey checks HTTP Basic credentials: the user's delivery email (compared
// case-insensitively) and API key (compared in constant time). Every failure is a 401
// UNAUTHORIZED error with Zulip's message. Credentials it has checked are answered from memory
// afterwards, without a store read (auth_cache.go). Incoming webhook bots are refused. Wrong
// keys count against the account's failure budget (auth_failures.go); AuthenticateAPIKeyFrom
// also counts them against the client's address.
func (s *Service) AuthenticateAPIKey(ctx context.Context, email, apiKey string) (engine.Actor, error) {
	return s.authenticateAPIKey(ctx, email, apiKey, "", false)
}

// AuthenticateAPIKeyFrom is AuthenticateAPIKey for a request from clientAddress, whose wrong
// keys also count against the address's failure budget.
func (s *Service) AuthenticateAPIKeyFrom(ctx context.Context, email, apiKey, clientAddress string) (engine.Actor, error) {
	return s.authenticateAPIKey(ctx, email, apiKey, clientAddress, false)
}

// AuthenticateWebhookAPIKey is AuthenticateAPIKey for the endpoints Zulip opens to incoming
// webhook bots (POST /messages and the integrations' /external/ URLs): it accepts them too.
// An empty email looks the key up alone (an integration URL's api_key parameter).
func (s *Service) AuthenticateWebhookAPIKey(ctx context.Context, email, apiKey string) (engine.Actor, error) {
	return s.authenticateAPIKey(ctx, email, apiKey, "", true)
}

// AuthenticateWebhookAPIKeyFrom is AuthenticateWebhookAPIKey for a request from
// clientAddress (see AuthenticateAPIKeyFrom).
func (s *Service) AuthenticateWebhookAPIKeyFrom(ctx context.Context, email, apiKey, clientAddress string) (engine.Actor, error) {
	return s.authenticateAPIKey(ctx, email, apiKey, clientAddress, true)
}

// authenticateAPIKey answers checked credentials from the cache; any other attempt passes the
// failure limits first and counts against them when its key is wrong.
func (s *Service) authenticateAPIKey(ctx context.Context, email, apiKey, addr string, webhooks bool) (engine.Actor, error) {
	keyOnly := webhooks && email == "" // only the webhook endpoints take a key alone
	norm := users.NormalizeEmail(email)
	if keyOnly {
		norm = keyOnlyCacheKey(apiKey)
	}
	if users.ValidAPIKey(apiKey) {
		if id, ok := s.creds.lookup(norm, apiKey); ok {
			return engine.Actor{UserID: id}, nil
		}
	}
	if err := s.keyFails.admit(email, addr); err != nil {
		return engine.Actor{}, err
	}
	actor, err := s.checkAPIKey(ctx, email, apiKey, norm, keyOnly, webhooks)
	s.keyFails.record(email, addr, err)
	return actor, err
}

// checkAPIKey reads the account of the credentials and checks them.
func (s *Service) checkAPIKey(ctx context.Context, email, apiKey, norm string, keyOnly, webhooks bool) (engine.Actor, error) {
	if !users.ValidAPIKey(apiKey) {
		return engine.Actor{}, engine.Errorf(engine.CodeUnauthorized, msgMalformedKey)
	}
	if strings.ContainsFunc(email, unicode.IsControl) {
		return engine.Actor{}, engine.Errorf(engine.CodeUnauthorized, msgInvalidKey) // no user has such an address
	}
	gen := s.creds.generation() // before the read: see credentialCache
	var actor engine.Actor
	cacheable := false
	err := s.eng.Read(ctx, engine.Actor{}, engine.NoActor, func(o *engine.ReadOp) error {
		tx := o.Tx
		var u users.User
		var err error
		if keyOnly {
			u, err = tx.Users().GetByAPIKey(apiKey)
		} else {
			u, err = tx.Users().GetByEmail(email)
		}
		if errors.Is(err, storage.ErrNotFound) {
			return engine.Errorf(engine.CodeUnauthorized, msgInvalidKey)
		}
		if err != nil {
			return err
		}
		if subtle.ConstantTimeCompare([]byte(u.APIKey), []byte(apiKey)) != 1 {
			return engine.Errorf(engine.CodeUnauthorized, msgInvalidKey)
		}
		realm, err := tx.Realm().Get()
		if err != nil {
			return err
		}
		switch {
		case realm.Deactivated:
			return engine.Errorf(engine.CodeUnauthorized, msgRealmDeactivated)
		case !u.IsActive:
			return engine.Errorf(engine.CodeUnauthorized, msgUserDeactivated)
		case u.BotType == users.BotIncomingWebhook && !webhooks:
			return engine.Errorf(engine.CodeUnauthorized, msgWebhookBot)
		}
		actor = engine.Actor{UserID: u.ID}
		// An incoming webhook bot is cached only under its key alone, which
		// AuthenticateAPIKey never looks up (see credentialCache).
		cacheable = keyOnly == (u.BotType == users.BotIncomingWebhook)
		return nil
	})
	if err == nil && cacheable {
		s.creds.fill(gen, norm, actor.UserID, apiKey)
	}
	return actor, err
}

// keyOnlyCacheKey is the credential cache's key of an API key checked without an email: a
// control character no email address has, then the key's SHA-256.
func keyOnlyCacheKey(apiKey string) string {
	sum := sha256.Sum256([]byte(apiKey))
	return "\x00key:" + hex.EncodeToString(sum[:])
}

// FetchAPIKeyParams are the parameters of POST /fetch_api_key.
type FetchAPIKeyParams struct {
	Username string
	Password string
	// ClientAddress is the caller's network address, for rate limiting and the login email;
	// UserAgent the caller's User-Agent, named in the login email.
	ClientAddress string
	UserAgent     string
}

// FetchAPIKeyResult is the answer of a successful password login.
type FetchAPIKeyResult struct {
	APIKey string   `json:"api_key"`
	Email  string   `json:"email"`
	UserID users.ID `json:"user_id"`
}

// FetchAPIKey exchanges a username (email) and password for the user's API key. Attempts are
// rate limited per username and per client address before the password is checked; a
// successful login clears the username's failures.
func (s *Service) FetchAPIKey(ctx context.Context, p FetchAPIKeyParams) (FetchAPIKeyResult, error) {
	if err := users.CheckEmail(p.Username); err != nil {
		return FetchAPIKeyResult{}, engine.BadRequest(msgInvalidEmailInput)
	}
	userKey := "user:" + users.NormalizeEmail(p.Username)
	if err := RateLimited(s.loginByUser.Allow(userKey)); err != nil {
		return FetchAPIKeyResult{}, err
	}
	if p.ClientAddress != "" {
		if err := RateLimited(s.loginByAddr.Allow("addr:" + p.ClientAddress)); err != nil {
			return FetchAPIKeyResult{}, err
		}
	}
	var (
		res    FetchAPIKeyResult
		notice *loginNotice
	)
	err := s.eng.Read(ctx, engine.Actor{}, engine.NoActor, func(o *engine.ReadOp) error {
		tx := o.Tx
		realm, err := tx.Realm().Get()
		if err != nil {
			return err
		}
		u, err := tx.Users().GetByEmail(p.Username)
		if errors.Is(err, storage.ErrNotFound) {
			s.hashing.burn(p.Password) // as costly as checking a known user's password
			return engine.Errorf(engine.CodeAuthenticationFailed, msgBadCredentials)
		}
		if err != nil {
			return err
		}
		if err := loginAllowed(realm, u); err != nil {
			return err
		}
		if !realm.PasswordAuthEnabled {
			return engine.Errorf(engine.CodePasswordAuthDisabled, msgPasswordAuthOff)
		}
		if u.PasswordHash == "" || p.Password == "" || !checkPassword(u.PasswordHash, p.Password) {
			return engine.Errorf(engine.CodeAuthenticationFailed, msgBadCredentials)
		}
		res = FetchAPIKeyResult{APIKey: u.APIKey, Email: u.Email, UserID: u.ID}
		notice, err = newLoginNotice(tx, realm, u, o.Now, p.UserAgent, p.ClientAddress)
		return err
	})
	if err != nil {
		return FetchAPIKeyResult{}, err
	}
	s.loginByUser.Reset(userKey)
	s.sendLoginNotice(ctx, notice) // auth_login_email.go
	return res, nil
}

// loginAllowed refuses deactivated users and organizations, in Zulip's order.
func loginAllowed(realm realms.Realm, u users.User) error {
	if !u.IsActive {
		return engine.Errorf(engine.CodeUserDeactivated, msgUserDeactivated)
	}
	if realm.Deactivated {
		return engine.Errorf(engine.CodeRealmDeactivated, msgRealmDeactivated)
	}
	return nil
}

// RateLimited turns a refusal into the RATE_LIMIT_HIT error (HTTP 429) with retry-after.
func RateLimited(d ratelimit.Decision) error {
	if d.Allowed {
		return nil
	}
	secs := math.Ceil(d.RetryAfter.Seconds()*1000) / 1000
	return engine.Errorf(engine.CodeRateLimitHit, msgRateLimited).With("retry-after", secs)
}

// JWTFetchAPIKeyParams are the parameters of POST /jwt/fetch_api_key.
type JWTFetchAPIKeyParams struct {
	Token          string
	IncludeProfile bool
}

// JWTFetchAPIKeyResult is the answer of a JWT login. User is set when IncludeProfile was.
type JWTFetchAPIKeyResult struct {
	APIKey string      `json:"api_key"`
	Email  string      `json:"email"`
	User   *UserRecord `json:"user,omitempty"`
}

// JWTFetchAPIKey exchanges a JWT signed with the configured HS256 key, carrying an `email`
// claim, for that user's API key. The algorithm is pinned, the signature checked, and exp,
// nbf and iat validated when present.
func (s *Service) JWTFetchAPIKey(ctx context.Context, p JWTFetchAPIKeyParams) (JWTFetchAPIKeyResult, error) {
	if len(s.cfg.JWTKey) == 0 {
		return JWTFetchAPIKeyResult{}, engine.BadRequest(msgJWTDisabled)
	}
	if p.Token == "" {
		return JWTFetchAPIKeyResult{}, engine.BadRequest(msgNoJWT)
	}
	claims := jwt.MapClaims{}
	_, err := jwt.ParseWithClaims(p.Token, claims, func(*jwt.Token) (any, error) { return s.cfg.JWTKey, nil },
		jwt.WithValidMethods([]string{"HS256"}), jwt.WithTimeFunc(s.now), jwt.WithIssuedAt())
	if err != nil {
		return JWTFetchAPIKeyResult{}, engine.BadRequest(msgBadJWT)
	}
	email, ok := claims["email"].(string)
	if !ok || email == "" {
		return JWTFetchAPIKeyResult{}, engine.BadRequest(msgNoJWTEmail)
	}
	var res JWTFetchAPIKeyResult
	err = s.eng.Read(ctx, engine.Actor{}, engine.NoActor, func(o *engine.ReadOp) error {
		tx := o.Tx
		realm, err := tx.Realm().Get()
		if err != nil {
			return err
		}
		u, err := tx.Users().GetByEmail(email)
		if errors.Is(err, storage.ErrNotFound) {
			return engine.Errorf(engine.CodeAuthenticationFailed, msgBadCredentials)
		}
		if err != nil {
			return err
		}
		if err := loginAllowed(realm, u); err != nil {
			return err
		}
		res = JWTFetchAPIKeyResult{APIKey: u.APIKey, Email: u.Email}
		if p.IncludeProfile {
			rec := userRecord(s.EmailDomain(realm), u, u, recordOptions{})
			res.User = &rec
		}
		return nil
	})
	return res, err
}

// DevFetchAPIKeyParams are the parameters of POST /dev_fetch_api_key.
type DevFetchAPIKeyParams struct {
	Username string
	// ClientAddress and UserAgent are named in the login email.
	ClientAddress string
	UserAgent     string
}

// DevFetchAPIKey returns any active user's API key without a password. It works only on a
// Service created with Options.Dev.
func (s *Service) DevFetchAPIKey(ctx context.Context, p DevFetchAPIKeyParams) (FetchAPIKeyResult, error) {
	if !s.cfg.Dev {
		return FetchAPIKeyResult{}, engine.BadRequest(msgDevAuthDisabled)
	}
	if err := users.CheckEmail(p.Username); err != nil {
		return FetchAPIKeyResult{}, engine.BadRequest(msgInvalidEmailInput)
	}
	var (
		res    FetchAPIKeyResult
		notice *loginNotice
	)
	err := s.eng.Read(ctx, engine.Actor{}, engine.NoActor, func(o *engine.ReadOp) error {
		tx := o.Tx
		realm, err := tx.Realm().Get()
		if err != nil {
			return err
		}
		u, err := tx.Users().GetByEmail(p.Username)
		if errors.Is(err, storage.ErrNotFound) {
			return engine.Errorf(engine.CodeAuthenticationFailed, msgBadCredentials)
		}
		if err != nil {
			return err
		}
		if err := loginAllowed(realm, u); err != nil {
			return err
		}
		res = FetchAPIKeyResult{APIKey: u.APIKey, Email: u.Email, UserID: u.ID}
		notice, err = newLoginNotice(tx, realm, u, o.Now, p.UserAgent, p.ClientAddress)
		return err
	})
	if err != nil {
		return FetchAPIKeyResult{}, err
	}
	s.sendLoginNotice(ctx, notice) // auth_login_email.go
	return res, nil
}

// DevUser is one entry of dev_list_users: the delivery email and the organization's URL
// (realm_url, as current Zulip names it; older versions said realm_uri).
type DevUser struct {
	Email    string `json:"email"`
	RealmURL string `json:"realm_url"`
}

// DevListUsersResult lists the active humans for a development login page.
type DevListUsersResult struct {
	DirectAdmins []DevUser `json:"direct_admins"`
	DirectUsers  []DevUser `json:"direct_users"`
}

// DevListUsers lists active human users, administrators and owners apart, in Zulip's order:
// by the email clients see (Zulip sorts on that column), which is the placeholder
// user{id}@{host} for users who hide their address. It works only on a Service created with
// Options.Dev.
func (s *Service) DevListUsers(ctx context.Context) (DevListUsersResult, error) {
	if !s.cfg.Dev {
		return DevListUsersResult{}, engine.BadRequest(msgDevAuthDisabled)
	}
	res := DevListUsersResult{DirectAdmins: []DevUser{}, DirectUsers: []DevUser{}}
	err := s.eng.Read(ctx, engine.Actor{}, engine.NoActor, func(o *engine.ReadOp) error {
		tx := o.Tx
		realm, err := tx.Realm().Get()
		if err != nil {
			return err
		}
		all, err := tx.Users().List()
		if err != nil {
			return err
		}
		listed := make([]users.User, 0, len(all)) // a copy: the store's list may be shared
		for _, u := range all {
			if u.IsActive && !u.IsBot() {
				listed = append(listed, u)
			}
		}
		slices.SortStableFunc(listed, func(a, b users.User) int {
			return strings.Compare(strings.ToLower(world.APIEmail(s.EmailDomain(realm), a)), strings.ToLower(world.APIEmail(s.EmailDomain(realm), b)))
		})
		for _, u := range listed {
			d := DevUser{Email: u.Email, RealmURL: realm.URL}
			if u.Role.IsAdmin() {
				res.DirectAdmins = append(res.DirectAdmins, d)
			} else {
				res.DirectUsers = append(res.DirectUsers, d)
			}
		}
		return nil
	})
	return res, err
}
