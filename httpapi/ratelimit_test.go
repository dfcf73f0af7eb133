package httpapi_test

import (
	"net/http"
	"strconv"
	"testing"
	"time"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/ratelimit"
)

func TestAPIRateLimit(t *testing.T) {
	t.Parallel()
	s := newServer(t, func(o *chat.Options) {
		o.APIRateLimit = &ratelimit.Rule{Window: time.Minute, Max: 3}
		o.AnonymousAPIRateLimit = &ratelimit.Rule{Window: time.Minute, Max: 2}
	})
	for i := range 3 {
		status, h, body := s.call(t, http.MethodPost, "/api/v1/register", "hamlet@zulip.com", nil)
		if status != http.StatusOK || body["result"] != "success" {
			t.Fatalf("request %d: %d %v", i, status, body)
		}
		if h.Get("X-RateLimit-Limit") != "3" || h.Get("X-RateLimit-Remaining") != strconv.Itoa(2-i) {
			t.Errorf("request %d: X-RateLimit-Limit %q Remaining %q", i, h.Get("X-RateLimit-Limit"), h.Get("X-RateLimit-Remaining"))
		}
		if reset, err := strconv.ParseInt(h.Get("X-RateLimit-Reset"), 10, 64); err != nil || reset < time.Now().Unix() {
			t.Errorf("request %d: X-RateLimit-Reset %q", i, h.Get("X-RateLimit-Reset"))
		}
	}
	status, h, body := s.call(t, http.MethodGet, "/api/v1/events", "hamlet@zulip.com", nil)
	wantErr(t, status, body, http.StatusTooManyRequests, "RATE_LIMIT_HIT", "API usage exceeded rate limit")
	retry, _ := body["retry-after"].(float64)
	if retry <= 0 || retry > 60 || h.Get("Retry-After") == "" || h.Get("X-RateLimit-Remaining") != "0" {
		t.Errorf("429: retry-after %v, Retry-After %q, Remaining %q", body["retry-after"], h.Get("Retry-After"), h.Get("X-RateLimit-Remaining"))
	}

	// Another user has a budget of their own.
	if status, _, body := s.call(t, http.MethodPost, "/api/v1/register", "iago@zulip.com", nil); status != http.StatusOK {
		t.Errorf("other user: %d %v", status, body)
	}

	// Unauthenticated requests count per client address.
	for range 2 {
		if status, _, body := s.call(t, http.MethodGet, "/api/v1/server_settings", "", nil); status != http.StatusOK {
			t.Fatalf("server_settings: %d %v", status, body)
		}
	}
	status, _, body = s.call(t, http.MethodGet, "/api/v1/server_settings", "", nil)
	wantErr(t, status, body, http.StatusTooManyRequests, "RATE_LIMIT_HIT", "")
}

func TestAPIRateLimitDisabled(t *testing.T) {
	t.Parallel()
	s := newServer(t, func(o *chat.Options) { o.APIRateLimit = &ratelimit.Rule{} })
	for i := range 5 {
		status, h, body := s.call(t, http.MethodPost, "/api/v1/register", "hamlet@zulip.com", nil)
		if status != http.StatusOK || h.Get("X-RateLimit-Limit") != "" {
			t.Fatalf("request %d with limits off: %d %v, X-RateLimit-Limit %q", i, status, body, h.Get("X-RateLimit-Limit"))
		}
	}
}

func TestRegenerateAPIKey(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	old := s.keys["hamlet@zulip.com"]
	status, _, body := s.call(t, http.MethodPost, "/api/v1/users/me/api_key/regenerate", "hamlet@zulip.com", nil)
	key, _ := body["api_key"].(string)
	if status != http.StatusOK || len(key) != 32 || key == old {
		t.Fatalf("regenerate: %d %v", status, body)
	}
	status, _, body = s.call(t, http.MethodPost, "/api/v1/register", "hamlet@zulip.com", nil)
	wantErr(t, status, body, http.StatusUnauthorized, "UNAUTHORIZED", "Invalid API key")
	s.keys["hamlet@zulip.com"] = key
	if status, _, body := s.call(t, http.MethodPost, "/api/v1/register", "hamlet@zulip.com", nil); status != http.StatusOK {
		t.Fatalf("new key: %d %v", status, body)
	}
	status, _, body = s.call(t, http.MethodPost, "/api/v1/users/me/api_key/regenerate", "", nil)
	wantErr(t, status, body, http.StatusUnauthorized, "UNAUTHORIZED", "")
}

// TestWrongAPIKeysRateLimited: the probe that sent 300 wrong keys got 300 x 401; now the
// account's failure budget (5 per 30 minutes) is spent after 5 and the rest get 429 with
// Retry-After, while a client already authenticated keeps working.
func TestWrongAPIKeysRateLimited(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	if status, _, body := s.call(t, http.MethodGet, "/api/v1/users/me", "hamlet@zulip.com", nil); status != http.StatusOK {
		t.Fatalf("right key: %d %v", status, body)
	}
	counts := map[int]int{}
	for range 300 {
		req, _ := http.NewRequest(http.MethodGet, s.URL+"/api/v1/users/me", nil)
		req.SetBasicAuth("hamlet@zulip.com", "abcdefghijklmnopqrstuvwxyz012345")
		status, h, body := do(t, req)
		counts[status]++
		if status == http.StatusTooManyRequests && (h.Get("Retry-After") == "" || body["code"] != "RATE_LIMIT_HIT") {
			t.Fatalf("429 without Retry-After or RATE_LIMIT_HIT: %v %v", h, body)
		}
	}
	if counts[http.StatusUnauthorized] != 5 || counts[http.StatusTooManyRequests] != 295 {
		t.Errorf("statuses %v, want 5 x 401 and 295 x 429", counts)
	}
	if status, _, body := s.call(t, http.MethodGet, "/api/v1/users/me", "hamlet@zulip.com", nil); status != http.StatusOK {
		t.Errorf("authenticated client under attack: %d %v", status, body)
	}
	if got := s.svc.AuthenticationStats(); got.Failed != 5 || got.RateLimited != 295 {
		t.Errorf("AuthenticationStats = %+v, want 5 failed, 295 rate limited", got)
	}
}
