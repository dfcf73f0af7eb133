package httpapi_test

import (
	"bytes"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/httpapi"
	"github.com/teamchat/chat/storage/memory"
)

// lockedBuffer is a concurrency-safe log sink.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string { b.mu.Lock(); defer b.mu.Unlock(); return b.buf.String() }

// TestSecretsNeverLogged drives logins and authenticated requests, failing and succeeding, with
// debug logging on, and checks that no password, API key or JWT reaches the log.
func TestSecretsNeverLogged(t *testing.T) {
	t.Parallel()
	var logs lockedBuffer
	logger := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	store := memory.New()
	svc, err := chat.New(chat.Options{
		Store: store, Logger: logger, JWTKey: []byte("jwt-signing-secret-value"),
		PasswordHashing: chat.PasswordHashing{MemoryKiB: 64, Passes: 1, Threads: 1},
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	if _, err := svc.CreateOrganization(ctx, chat.CreateOrganizationParams{Name: "Logs", URL: "http://logs.test"}); err != nil {
		t.Fatal(err)
	}
	const password = "correct-horse-password"
	u, err := svc.ProvisionUser(ctx, chat.ProvisionUserParams{Email: "ada@logs.test", FullName: "Ada", Password: password})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(httpapi.New(svc, httpapi.Options{Logger: logger}))
	t.Cleanup(func() { srv.Close(); svc.Close(); store.Close() })

	post := func(path string, form url.Values, user, key string) {
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/api/v1/"+path, strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		if user != "" {
			req.SetBasicAuth(user, key)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	const wrongPassword = "wrong-password-value"
	const jwt = "eyJhbGciOiJIUzI1NiJ9.eyJlbWFpbCI6ImFkYUBsb2dzLnRlc3QifQ.c2lnbmF0dXJlLXZhbHVl"
	const badKey = "ZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZ"
	post("fetch_api_key", url.Values{"username": {"ada@logs.test"}, "password": {password}}, "", "")
	post("fetch_api_key", url.Values{"username": {"ada@logs.test"}, "password": {wrongPassword}}, "", "")
	post("jwt/fetch_api_key", url.Values{"token": {jwt}}, "", "")
	post("register", nil, "ada@logs.test", u.APIKey)
	post("register", nil, "ada@logs.test", badKey)
	post("users/me/api_key/regenerate", nil, "ada@logs.test", u.APIKey)

	// The request log line is written after the response, so it may trail the client a little.
	out := logs.String()
	for deadline := time.Now().Add(2 * time.Second); strings.Count(out, "msg=request") < 6 && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
		out = logs.String()
	}
	if n := strings.Count(out, "msg=request"); n != 6 {
		t.Fatalf("%d request log lines, want 6:\n%s", n, out)
	}
	for _, secret := range []string{password, wrongPassword, jwt, "jwt-signing-secret-value", u.APIKey, badKey} {
		if strings.Contains(out, secret) {
			t.Errorf("log contains the secret %q:\n%s", secret, out)
		}
	}
}
