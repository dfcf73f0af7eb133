package chat_test

import (
	"strings"
	"testing"
	"time"

	"github.com/teamchat/chat"
	"github.com/teamchat/chat/storage"
)

// recordingEmailMonitor is a chat.Monitor and chat.EmailMonitor that keeps the email counts.
type recordingEmailMonitor struct {
	sent map[string]int
}

func (*recordingEmailMonitor) EventPublished(int, time.Duration)   {}
func (*recordingEmailMonitor) ScheduledMessagesDelivered(int, int) {}
func (*recordingEmailMonitor) FileUploaded(int64)                  {}
func (m *recordingEmailMonitor) EmailsDelivered(kind string, sent, _, _ int) {
	m.sent[kind] += sent
}

// TestLoginEmail: a password or development login sends Zulip's "new login" email, naming the
// browser and system, unless the user turned enable_login_emails off or the account is new.
func TestLoginEmail(t *testing.T) {
	t.Parallel()
	onEveryBackendWith(t, func(t *testing.T, store storage.Storage) {
		// (The monitor is only read after the logins, from this goroutine.)
		mon := &recordingEmailMonitor{sent: map[string]int{}}
		sc := newEmailScene(t, store, func(o *chat.Options) { o.Monitor = mon })
		ctx := t.Context()
		login := func() {
			t.Helper()
			mustDo(t, "FetchAPIKey", errOf(sc.svc.FetchAPIKey(ctx, chat.FetchAPIKeyParams{
				Username: "member@example.com", Password: testPassword, ClientAddress: "192.0.2.7",
				UserAgent: "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0",
			})))
		}
		login() // the account is seconds old: no email
		sc.clock.Advance(time.Minute + time.Second)
		login()
		got := sc.smtp.Wait(1, 10*time.Second)
		if len(got) != 1 || got[0].To[0] != "Member@Example.com" {
			t.Fatalf("emails: %+v", got)
		}
		body := unfold(got[0].Data)
		for _, want := range []string{"Subject: New login from Firefox on Linux", "192.0.2.7", "Test Org"} {
			if !strings.Contains(body, want) {
				t.Errorf("email lacks %q:\n%s", want, body)
			}
		}
		mustDo(t, "DevFetchAPIKey", errOf(sc.svc.DevFetchAPIKey(ctx, chat.DevFetchAPIKeyParams{Username: "admin@example.com"})))
		sc.smtp.Wait(2, 10*time.Second)
		sc.set(t, "member", map[string]any{"enable_login_emails": false})
		login()
		if n := len(sc.smtp.Messages()); n != 2 {
			t.Errorf("%d emails, want 2 (none after enable_login_emails off)", n)
		}
		if mon.sent["login"] != 2 {
			t.Errorf("login emails counted: %d, want 2", mon.sent["login"])
		}
	})
}
