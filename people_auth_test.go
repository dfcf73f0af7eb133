package chat_test

import (
	"errors"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/google/go-cmp/cmp"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/ratelimit"
	"github.com/teamchat/chat/realms"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/storage/memory"
	"github.com/teamchat/chat/users"
)

func TestAuthenticateAPIKey(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	tests := []struct {
		name  string
		email string
		key   func() string
		setup func(t *testing.T, f *fixture)
		want  string // error message; "" for success
	}{
		{name: "valid key, email in another case", email: "member@EXAMPLE.com", key: func() string { return f.keys["member"] }},
		{name: "malformed key", email: "member@example.com", key: func() string { return "short" }, want: "Malformed API key"},
		{name: "key with a symbol", email: "member@example.com", key: func() string { return "abcdefghijklmnopqrstuvwxyz01234_" }, want: "Malformed API key"},
		{name: "unknown email", email: "nobody@example.com", key: func() string { return f.keys["member"] }, want: "Invalid API key"},
		{name: "another user's key", email: "admin@example.com", key: func() string { return f.keys["member"] }, want: "Invalid API key"},
		{name: "incoming webhook bot", email: "webhook@example.com", key: func() string { return f.keys["webhook"] }, want: "This API is not available to incoming webhook bots."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			actor, err := f.svc.AuthenticateAPIKey(ctx, tt.email, tt.key())
			if tt.want == "" {
				if err != nil || actor.UserID != f.ids["member"] {
					t.Fatalf("got %v, %v; want member", actor, err)
				}
				return
			}
			wantError(t, err, chat.CodeUnauthorized, 401, tt.want)
		})
	}
}

// TestAuthenticateWebhookAPIKey: the endpoints open to incoming webhook bots accept them, by
// email and key or by the key alone, and still refuse what AuthenticateAPIKey refuses.
func TestAuthenticateWebhookAPIKey(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	tests := []struct {
		name, email, user string
		key               func() string
		want              string // error message; "" for success as user
	}{
		{name: "incoming webhook bot", email: "webhook@example.com", user: "webhook", key: func() string { return f.keys["webhook"] }},
		{name: "incoming webhook bot by key alone", user: "webhook", key: func() string { return f.keys["webhook"] }},
		{name: "member", email: "member@example.com", user: "member", key: func() string { return f.keys["member"] }},
		{name: "member by key alone", user: "member", key: func() string { return f.keys["member"] }},
		{name: "another user's key", email: "admin@example.com", key: func() string { return f.keys["webhook"] }, want: "Invalid API key"},
		{name: "unknown key", key: func() string { return "abcdefghijklmnopqrstuvwxyz012345" }, want: "Invalid API key"},
		{name: "malformed key", key: func() string { return "short" }, want: "Malformed API key"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			actor, err := f.svc.AuthenticateWebhookAPIKey(ctx, tt.email, tt.key())
			if tt.want == "" {
				if err != nil || actor.UserID != f.ids[tt.user] {
					t.Fatalf("got %v, %v; want %s", actor, err, tt.user)
				}
				return
			}
			wantError(t, err, chat.CodeUnauthorized, 401, tt.want)
		})
	}
	// A webhook bot let in here (and cached under its key alone) is still refused by
	// AuthenticateAPIKey, which never takes a key alone.
	for range 2 {
		if _, err := f.svc.AuthenticateWebhookAPIKey(ctx, "", f.keys["webhook"]); err != nil {
			t.Fatal(err)
		}
	}
	_, err := f.svc.AuthenticateAPIKey(ctx, "webhook@example.com", f.keys["webhook"])
	wantError(t, err, chat.CodeUnauthorized, 401, "This API is not available to incoming webhook bots.")
	for _, who := range []string{"webhook", "member"} {
		_, err = f.svc.AuthenticateAPIKey(ctx, "", f.keys[who])
		wantError(t, err, chat.CodeUnauthorized, 401, "Invalid API key")
	}
	// Deactivating the bot (through the Service) drops its cached key.
	if _, err := f.svc.DeactivateBot(ctx, chat.Actor{UserID: f.ids["owner"]}, chat.BotParams{BotID: f.ids["webhook"]}); err != nil {
		t.Fatal(err)
	}
	_, err = f.svc.AuthenticateWebhookAPIKey(ctx, "", f.keys["webhook"])
	wantError(t, err, chat.CodeUnauthorized, 401, "Account is deactivated")
}

func TestAuthenticateDeactivated(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	t.Run("user", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t)
		f.setUser(t, "member", func(u *users.User) { u.IsActive = false })
		_, err := f.svc.AuthenticateAPIKey(ctx, "member@example.com", f.keys["member"])
		wantError(t, err, chat.CodeUnauthorized, 401, "Account is deactivated")
	})
	t.Run("organization", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t)
		err := f.store.Update(ctx, func(tx storage.Tx) error {
			r, err := tx.Realm().Get()
			if err != nil {
				return err
			}
			r.Deactivated = true
			return tx.Realm().Put(r)
		})
		if err != nil {
			t.Fatal(err)
		}
		_, err = f.svc.AuthenticateAPIKey(ctx, "member@example.com", f.keys["member"])
		wantError(t, err, chat.CodeUnauthorized, 401, "This organization has been deactivated")
		_, err = f.svc.FetchAPIKey(ctx, chat.FetchAPIKeyParams{Username: "member@example.com", Password: testPassword})
		wantError(t, err, chat.CodeRealmDeactivated, 401, "This organization has been deactivated")
	})
}

func TestFetchAPIKey(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	f.setUser(t, "guest", func(u *users.User) { u.IsActive = false })
	tests := []struct {
		name     string
		username string
		password string
		code     chat.Code
		status   int
		msg      string
	}{
		{"wrong password", "member@example.com", "wrong", chat.CodeAuthenticationFailed, 401, "Your username or password is incorrect"},
		{"empty password", "member@example.com", "", chat.CodeAuthenticationFailed, 401, "Your username or password is incorrect"},
		{"unknown user", "stranger@example.com", testPassword, chat.CodeAuthenticationFailed, 401, "Your username or password is incorrect"},
		{"bot has no password", "bot@example.com", testPassword, chat.CodeAuthenticationFailed, 401, "Your username or password is incorrect"},
		{"deactivated user with the right password", "guest@example.com", testPassword, chat.CodeUserDeactivated, 401, "Account is deactivated"},
		{"deactivated user with a wrong password", "guest@example.com", "nope", chat.CodeUserDeactivated, 401, "Account is deactivated"},
		{"not an email", "member", testPassword, chat.CodeBadRequest, 400, "Enter a valid email address."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := f.svc.FetchAPIKey(ctx, chat.FetchAPIKeyParams{Username: tt.username, Password: tt.password})
			wantError(t, err, tt.code, tt.status, tt.msg)
		})
	}
	t.Run("right password", func(t *testing.T) {
		got, err := f.svc.FetchAPIKey(ctx, chat.FetchAPIKeyParams{Username: "MEMBER@example.com", Password: testPassword})
		if err != nil {
			t.Fatal(err)
		}
		want := chat.FetchAPIKeyResult{APIKey: f.keys["member"], Email: "Member@Example.com", UserID: f.ids["member"]}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("FetchAPIKey (-want +got):\n%s", diff)
		}
	})
}

func TestFetchAPIKeyRateLimit(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	t.Run("per username", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t)
		login := func(password string) error {
			_, err := f.svc.FetchAPIKey(ctx, chat.FetchAPIKeyParams{Username: "admin@example.com", Password: password, ClientAddress: "192.0.2.1"})
			return err
		}
		for range 5 {
			wantError(t, login("wrong"), chat.CodeAuthenticationFailed, 401, "")
		}
		// The sixth attempt is refused before the password is checked, even a right one.
		e := wantError(t, login(testPassword), chat.CodeRateLimitHit, 429, "API usage exceeded rate limit")
		if retry, ok := e.Extra["retry-after"].(float64); !ok || retry <= 0 || retry > 1800 {
			t.Errorf("retry-after = %v, want seconds in (0, 1800]", e.Extra["retry-after"])
		}
		f.clock.Advance(31 * time.Minute)
		if err := login(testPassword); err != nil {
			t.Fatalf("after the window: %v", err)
		}
		// A success clears the failures: five more wrong attempts are counted afresh, the sixth
		// is refused.
		for range 5 {
			wantError(t, login("wrong"), chat.CodeAuthenticationFailed, 401, "")
		}
		wantError(t, login("wrong"), chat.CodeRateLimitHit, 429, "")
	})
	t.Run("per client address", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t, func(o *chat.Options) {
			o.LoginAddressRateLimit = &ratelimit.Rule{Window: time.Hour, Max: 3}
		})
		for _, name := range []string{"a", "b", "c"} {
			_, err := f.svc.FetchAPIKey(ctx, chat.FetchAPIKeyParams{Username: name + "@example.com", Password: "x", ClientAddress: "192.0.2.9"})
			wantError(t, err, chat.CodeAuthenticationFailed, 401, "")
		}
		_, err := f.svc.FetchAPIKey(ctx, chat.FetchAPIKeyParams{Username: "member@example.com", Password: testPassword, ClientAddress: "192.0.2.9"})
		wantError(t, err, chat.CodeRateLimitHit, 429, "")
		if _, err := f.svc.FetchAPIKey(ctx, chat.FetchAPIKeyParams{Username: "member@example.com", Password: testPassword, ClientAddress: "192.0.2.10"}); err != nil {
			t.Fatalf("another address: %v", err)
		}
	})
}

func signJWT(t *testing.T, method jwt.SigningMethod, key any, claims jwt.MapClaims) string {
	t.Helper()
	s, err := jwt.NewWithClaims(method, claims).SignedString(key)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestJWTFetchAPIKey(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	key := []byte("test-secret-key")
	now := f.clock.Now()
	good := jwt.MapClaims{"email": "member@example.com", "exp": now.Add(time.Minute).Unix()}
	tests := []struct {
		name   string
		token  string
		code   chat.Code
		status int
		msg    string
	}{
		{"empty token", "", chat.CodeBadRequest, 400, "No JSON web token passed in request"},
		{"garbage", "not.a.jwt", chat.CodeBadRequest, 400, "Bad JSON web token"},
		{"wrong key", signJWT(t, jwt.SigningMethodHS256, []byte("other"), good), chat.CodeBadRequest, 400, "Bad JSON web token"},
		{"other algorithm", signJWT(t, jwt.SigningMethodHS512, key, good), chat.CodeBadRequest, 400, "Bad JSON web token"},
		{"unsigned", signJWT(t, jwt.SigningMethodNone, jwt.UnsafeAllowNoneSignatureType, good), chat.CodeBadRequest, 400, "Bad JSON web token"},
		{"expired", signJWT(t, jwt.SigningMethodHS256, key, jwt.MapClaims{"email": "member@example.com", "exp": now.Add(-time.Minute).Unix()}), chat.CodeBadRequest, 400, "Bad JSON web token"},
		{"no email claim", signJWT(t, jwt.SigningMethodHS256, key, jwt.MapClaims{"sub": "x"}), chat.CodeBadRequest, 400, "No email specified in JSON web token claims"},
		{"unknown user", signJWT(t, jwt.SigningMethodHS256, key, jwt.MapClaims{"email": "who@example.com"}), chat.CodeAuthenticationFailed, 401, "Your username or password is incorrect"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := f.svc.JWTFetchAPIKey(ctx, chat.JWTFetchAPIKeyParams{Token: tt.token})
			wantError(t, err, tt.code, tt.status, tt.msg)
		})
	}
	t.Run("valid without profile", func(t *testing.T) {
		got, err := f.svc.JWTFetchAPIKey(ctx, chat.JWTFetchAPIKeyParams{Token: signJWT(t, jwt.SigningMethodHS256, key, good)})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(chat.JWTFetchAPIKeyResult{APIKey: f.keys["member"], Email: "Member@Example.com"}, got); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
	t.Run("valid with profile", func(t *testing.T) {
		got, err := f.svc.JWTFetchAPIKey(ctx, chat.JWTFetchAPIKeyParams{Token: signJWT(t, jwt.SigningMethodHS256, key, good), IncludeProfile: true})
		if err != nil {
			t.Fatal(err)
		}
		if got.User == nil || got.User.UserID != f.ids["member"] || got.User.DeliveryEmail == nil ||
			*got.User.DeliveryEmail != "Member@Example.com" || got.User.AvatarURL == nil || got.User.Role != users.RoleMember {
			t.Errorf("user = %+v, want the member's own record with delivery email and avatar URL", got.User)
		}
	})
	t.Run("disabled without a key", func(t *testing.T) {
		f2 := newFixture(t, func(o *chat.Options) { o.JWTKey = nil })
		_, err := f2.svc.JWTFetchAPIKey(ctx, chat.JWTFetchAPIKeyParams{Token: signJWT(t, jwt.SigningMethodHS256, key, good)})
		wantError(t, err, chat.CodeBadRequest, 400, "JWT authentication is not enabled for this organization")
	})
}

func TestDevEndpoints(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	f := newFixture(t)
	got, err := f.svc.DevFetchAPIKey(ctx, chat.DevFetchAPIKeyParams{Username: "admin@example.com"})
	if err != nil || got.APIKey != f.keys["admin"] || got.UserID != f.ids["admin"] {
		t.Fatalf("DevFetchAPIKey = %+v, %v", got, err)
	}
	list, err := f.svc.DevListUsers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// Ordered by the emails clients see: the fixture hides addresses, so by user1@, user2@, ...
	want := chat.DevListUsersResult{
		DirectAdmins: []chat.DevUser{{Email: "owner@example.com", RealmURL: "https://chat.example.com"}, {Email: "admin@example.com", RealmURL: "https://chat.example.com"}},
		DirectUsers:  []chat.DevUser{{Email: "Member@Example.com", RealmURL: "https://chat.example.com"}, {Email: "guest@example.com", RealmURL: "https://chat.example.com"}},
	}
	if diff := cmp.Diff(want, list); diff != "" {
		t.Errorf("DevListUsers (-want +got):\n%s", diff)
	}

	prod := newFixture(t, func(o *chat.Options) { o.Dev = false })
	_, err = prod.svc.DevFetchAPIKey(ctx, chat.DevFetchAPIKeyParams{Username: "admin@example.com"})
	wantError(t, err, chat.CodeBadRequest, 400, "DevAuthBackend not enabled.")
	_, err = prod.svc.DevListUsers(ctx)
	wantError(t, err, chat.CodeBadRequest, 400, "DevAuthBackend not enabled.")
}

func TestServerSettings(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	got, err := f.svc.GetServerSettings(t.Context(), chat.GetServerSettingsParams{UserAgent: "ZulipMobile/27.100 (Android 14)"})
	if err != nil {
		t.Fatal(err)
	}
	if got.ZulipFeatureLevel != 484 || got.ServiceFeatureLevel != 484 || got.ZulipVersion != got.ServiceVersion ||
		got.RealmURL != "https://chat.example.com" || got.RealmURI != got.RealmURL || got.RealmName != "Test Org" ||
		got.RealmDescription != "<p>A <strong>test</strong> organization.</p>" || !got.IsIncompatible ||
		!got.AuthenticationMethods["password"] || !got.AuthenticationMethods["dev"] || got.RealmIcon == "" {
		t.Errorf("GetServerSettings = %+v", got)
	}
	for ua, want := range map[string]bool{"ZulipInvalid/1.0": true, "ZulipMobile/27.192": false, "ZulipPython/0.9": false, "": false} {
		got, _ := f.svc.GetServerSettings(t.Context(), chat.GetServerSettingsParams{UserAgent: ua})
		if got.IsIncompatible != want {
			t.Errorf("is_incompatible for %q = %v, want %v", ua, got.IsIncompatible, want)
		}
	}
}

func TestProvisionUserRefusals(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	before := f.userCount(t)
	for _, p := range []chat.ProvisionUserParams{
		{Email: "member@example.com", FullName: "Duplicate"},
		{Email: "not-an-email", FullName: "Someone"},
		{Email: "x@example.com", FullName: "Hx|15"},
		{Email: "x@example.com", FullName: "Bad @ name"},
		{Email: "x@example.com", FullName: "Someone", Role: 250},
		{Email: "x@example.com", FullName: "Someone", Timezone: "Mars/Olympus"},
		{Email: "x@example.com", FullName: "Someone", BotType: 9},
		{Email: "x@example.com", FullName: "Someone", BotType: users.BotGeneric, BotOwnerID: 9999},
		{Email: "x@example.com", FullName: "Someone", APIKey: "short"},
	} {
		_, err := f.svc.ProvisionUser(ctx, p)
		wantError(t, err, chat.CodeBadRequest, 400, "")
	}
	if got := f.userCount(t); got != before {
		t.Errorf("%d users after refusals, want %d", got, before)
	}
	_, err := f.svc.CreateOrganization(ctx, chat.CreateOrganizationParams{Name: "Again"})
	if err == nil || !errors.Is(err, chat.ErrOrganizationExists) {
		t.Errorf("second CreateOrganization: %v, want ErrOrganizationExists", err)
	}
	var realm realms.Realm
	_ = f.store.View(ctx, func(tx storage.ReadTx) (err error) { realm, err = tx.Realm().Get(); return })
	if realm.Name != "Test Org" {
		t.Errorf("realm renamed to %q", realm.Name)
	}
}

// TestCreateOrganizationReservedUserIDs checks that reserved ids stay unused and that an
// out-of-range reservation is refused before anything is stored.
func TestCreateOrganizationReservedUserIDs(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	for _, bad := range []users.ID{-1, chat.MaxReservedUserIDs + 1} {
		store := memory.New()
		svc, err := chat.New(chat.Options{Store: store})
		if err != nil {
			t.Fatal(err)
		}
		_, err = svc.CreateOrganization(ctx, chat.CreateOrganizationParams{Name: "Org", ReservedUserIDs: bad})
		wantError(t, err, chat.CodeBadRequest, 400, "Invalid reserved_user_ids: must be 0 to 1048576")
		if err := store.View(ctx, func(tx storage.ReadTx) error { _, err := tx.Realm().Get(); return err }); !errors.Is(err, storage.ErrNotFound) {
			t.Errorf("a refused organization was stored (%v)", err)
		}
		svc.Close()
		store.Close()
	}
	store := memory.New()
	svc, err := chat.New(chat.Options{Store: store})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { svc.Close(); store.Close() })
	if _, err := svc.CreateOrganization(ctx, chat.CreateOrganizationParams{Name: "Org", ReservedUserIDs: 5}); err != nil {
		t.Fatal(err)
	}
	res, err := svc.ProvisionUser(ctx, chat.ProvisionUserParams{Email: "first@example.com", FullName: "First", Role: users.RoleOwner})
	if err != nil || res.UserID != 6 {
		t.Errorf("first user = %+v, %v; want id 6", res, err)
	}
}
