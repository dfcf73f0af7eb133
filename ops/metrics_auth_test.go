package ops_test

import (
	"io"
	"net/http/httptest"
	"strings"
	"testing"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/ops"
	"github.com/teamchat/chat/storage/memory"
)

// TestAuthenticationMetrics: wrong API keys and the attempts their limits refuse show in
// chat_authentication_failures_total and chat_authentication_rate_limited_total, read from a
// real Service at each scrape.
func TestAuthenticationMetrics(t *testing.T) {
	t.Parallel()
	store := memory.New()
	svc, err := chat.New(chat.Options{Store: store})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { svc.Close(); store.Close() })
	if _, err := svc.CreateOrganization(t.Context(), chat.CreateOrganizationParams{Name: "Org", URL: "http://chat.test"}); err != nil {
		t.Fatal(err)
	}
	m := ops.NewMetrics()
	m.WatchAuthentication(svc.AuthenticationStats)
	for range 7 { // 5 failures spend the account's budget, then 2 refusals
		_, _ = svc.AuthenticateAPIKeyFrom(t.Context(), "someone@example.com", "abcdefghijklmnopqrstuvwxyz012345", "192.0.2.7")
	}
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	body, _ := io.ReadAll(rec.Body)
	for _, want := range []string{"chat_authentication_failures_total 5\n", "chat_authentication_rate_limited_total 2\n"} {
		if !strings.Contains(string(body), want) {
			t.Errorf("metrics lack %q", want)
		}
	}
}
