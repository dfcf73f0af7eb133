package ops_test

import (
	"io"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/teamchat/chat/ops"
)

// TestEmailsMetric: the emails counted through chat.EmailMonitor are scraped by kind and
// outcome.
func TestEmailsMetric(t *testing.T) {
	t.Parallel()
	m := ops.NewMetrics()
	m.EmailsDelivered("missed_message", 3, 1, 2)
	m.EmailsDelivered("digest", 2, 0, 0)
	m.EmailsDelivered("missed_message", 1, 0, 0)
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	body, _ := io.ReadAll(rec.Body)
	for _, want := range []string{
		`chat_emails_total{kind="missed_message",outcome="sent"} 4`,
		`chat_emails_total{kind="missed_message",outcome="failed"} 1`,
		`chat_emails_total{kind="missed_message",outcome="deferred"} 2`,
		`chat_emails_total{kind="digest",outcome="sent"} 2`,
	} {
		if !strings.Contains(string(body), want) {
			t.Errorf("metrics lack %s", want)
		}
	}
}
