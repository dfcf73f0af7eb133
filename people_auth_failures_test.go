package chat_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	chat "github.com/teamchat/chat"
)

// TestAPIKeyFailureRateLimit: wrong API keys are limited as Zulip limits failed logins
// (authenticate_by_username, 5 per 30 minutes per account; 100 per 30 minutes per address).
// Before, 300 wrong keys in a row all answered 401.
func TestAPIKeyFailureRateLimit(t *testing.T) {
	t.Parallel()
	const wrongKey = "abcdefghijklmnopqrstuvwxyz012345"
	onEveryBackend(t, func(t *testing.T, f *fixture) {
		ctx := t.Context()
		// The member authenticates once: checked credentials are served from the cache.
		if _, err := f.svc.AuthenticateAPIKeyFrom(ctx, "member@example.com", f.keys["member"], "10.0.0.9"); err != nil {
			t.Fatalf("right key: %v", err)
		}
		tests := []struct {
			name, email, key, addr string
			code                   chat.Code
		}{
			{"1st wrong key", "admin@example.com", wrongKey, "10.0.0.1", chat.CodeUnauthorized},
			{"2nd, another address", "ADMIN@example.com", wrongKey, "10.0.0.2", chat.CodeUnauthorized},
			{"3rd, malformed", "admin@example.com", "short", "10.0.0.3", chat.CodeUnauthorized},
			{"4th", "admin@example.com", wrongKey, "10.0.0.4", chat.CodeUnauthorized},
			{"5th", "admin@example.com", wrongKey, "10.0.0.5", chat.CodeUnauthorized},
			{"6th: the account's budget is spent", "admin@example.com", wrongKey, "10.0.0.6", chat.CodeRateLimitHit},
			{"even the right key is not checked", "admin@example.com", f.keys["admin"], "10.0.0.7", chat.CodeRateLimitHit},
			{"another account is not limited", "owner@example.com", wrongKey, "10.0.0.1", chat.CodeUnauthorized},
		}
		for _, tt := range tests {
			_, err := f.svc.AuthenticateAPIKeyFrom(ctx, tt.email, tt.key, tt.addr)
			if e := chat.AsError(err); err == nil || e.Code != tt.code {
				t.Fatalf("%s: got %v, want %s", tt.name, err, tt.code)
			}
		}
		// A client already authenticated keeps working while its account is under attack.
		for range 10 {
			_, _ = f.svc.AuthenticateAPIKeyFrom(ctx, "member@example.com", wrongKey, "10.0.0.66")
		}
		if actor, err := f.svc.AuthenticateAPIKeyFrom(ctx, "member@example.com", f.keys["member"], "10.0.0.9"); err != nil || actor.UserID != f.ids["member"] {
			t.Errorf("cached right key under attack: %v, %v", actor, err)
		}
		// 429 carries retry-after: the oldest failure leaves the 30-minute window.
		_, err := f.svc.AuthenticateAPIKeyFrom(ctx, "admin@example.com", f.keys["admin"], "10.0.0.8")
		e := wantError(t, err, chat.CodeRateLimitHit, 429, "API usage exceeded rate limit")
		if retry, _ := e.Extra["retry-after"].(float64); retry != 1800 {
			t.Errorf("retry-after = %v, want 1800", e.Extra["retry-after"])
		}
		f.clock.Advance(30*time.Minute + time.Second)
		if actor, err := f.svc.AuthenticateAPIKeyFrom(ctx, "admin@example.com", f.keys["admin"], "10.0.0.8"); err != nil || actor.UserID != f.ids["admin"] {
			t.Errorf("after the window: %v, %v", actor, err)
		}

		// Per address: 100 failures on different accounts from one address, then 429 for
		// any account from there; another address is not limited.
		for i := range 100 {
			email := "nobody" + string(rune('a'+i%26)) + string(rune('a'+i/26)) + "@example.com"
			_, err := f.svc.AuthenticateWebhookAPIKeyFrom(ctx, email, wrongKey, "192.0.2.1")
			if e := chat.AsError(err); e.Code != chat.CodeUnauthorized {
				t.Fatalf("address failure %d: %v", i, err)
			}
		}
		_, err = f.svc.AuthenticateAPIKeyFrom(ctx, "guest@example.com", f.keys["guest"], "192.0.2.1")
		wantError(t, err, chat.CodeRateLimitHit, 429, "")
		if _, err := f.svc.AuthenticateAPIKeyFrom(ctx, "guest@example.com", f.keys["guest"], "192.0.2.2"); err != nil {
			t.Errorf("another address: %v", err)
		}
		// A refusal of a right key (a webhook bot on a closed endpoint) counts nothing.
		for range 10 {
			_, err := f.svc.AuthenticateAPIKeyFrom(ctx, "webhook@example.com", f.keys["webhook"], "198.51.100.1")
			wantError(t, err, chat.CodeUnauthorized, 401, "This API is not available to incoming webhook bots.")
		}
		// Failed: admin 5, owner 1, member 5 (its next 5 refused), the address 100. RateLimited:
		// admin 3, member 5, guest 1.
		want := chat.AuthenticationStats{Failed: 5 + 1 + 5 + 100, RateLimited: 3 + 5 + 1}
		if diff := cmp.Diff(want, f.svc.AuthenticationStats()); diff != "" {
			t.Errorf("AuthenticationStats (-want +got):\n%s", diff)
		}
	})
}
