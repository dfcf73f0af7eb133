package chat_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/teamchat/chat"
	"github.com/teamchat/chat/internal/smtptest"
	"github.com/teamchat/chat/mail"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/storage/memory"
	"github.com/teamchat/chat/topics"
)

// emailScene is a fixture on one backend whose Mailer is a real SMTP client talking to an
// in-process SMTP server.
type emailScene struct {
	*fixture
	smtp *smtptest.Server
}

func newEmailScene(t *testing.T, store storage.Storage, opts ...func(*chat.Options)) emailScene {
	t.Helper()
	srv := smtptest.Start(t)
	m, err := mail.NewSMTP(mail.SMTPConfig{Host: srv.Host, Port: srv.Port, TLS: "none", From: "Test Org <noreply@chat.example.com>"})
	if err != nil {
		t.Fatal(err)
	}
	all := append([]func(*chat.Options){func(o *chat.Options) { o.Mailer = m; o.Logger = quietLogger() }}, opts...)
	return emailScene{newFixtureOn(t, store, all...), srv}
}

// set changes the named user's settings.
func (sc emailScene) set(t *testing.T, name string, values map[string]any) {
	t.Helper()
	mustDo(t, "UpdateSettings", errOf(sc.svc.UpdateSettings(t.Context(), sc.actor(name), chat.UpdateSettingsParams{Values: values})))
}

// deliver runs one pass of the missed-message email worker on svc and checks what it did.
func deliverEmails(t *testing.T, svc *chat.Service, want chat.DeliverMissedMessageEmailsResult) {
	t.Helper()
	got, err := svc.DeliverMissedMessageEmails(t.Context(), chat.DeliverMissedMessageEmailsParams{})
	mustDo(t, "DeliverMissedMessageEmails", err)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("DeliverMissedMessageEmails (-want +got):\n%s", diff)
	}
}

// unfold undoes the quoted-printable soft line breaks of a message's data.
func unfold(data string) string { return strings.ReplaceAll(data, "=\r\n", "") }

// TestMissedMessageEmailDirect: a direct message to a user with no client open is emailed once,
// after the user's batching period, with the sender's name, the content and a link to the
// conversation.
func TestMissedMessageEmailDirect(t *testing.T) {
	t.Parallel()
	onEveryBackendWith(t, func(t *testing.T, store storage.Storage) {
		sc := newEmailScene(t, store)
		sc.set(t, "member", map[string]any{"email_notifications_batching_period_seconds": int64(60)})
		mustSendDirect(t, sc.fixture, "admin", "are you there?", "member")
		sc.clock.Advance(59 * time.Second)
		deliverEmails(t, sc.svc, chat.DeliverMissedMessageEmailsResult{})
		sc.clock.Advance(time.Second)
		deliverEmails(t, sc.svc, chat.DeliverMissedMessageEmailsResult{Sent: 1})
		got := sc.smtp.Wait(1, 10*time.Second)
		if len(got) != 1 || len(got[0].To) != 1 || got[0].To[0] != "Member@Example.com" {
			t.Fatalf("messages at the SMTP server: %+v", got)
		}
		body := unfold(got[0].Data)
		for _, want := range []string{"Subject: DMs with Adam Admin", "Adam Admin:", "are you there?",
			fmt.Sprintf("https://chat.example.com/#narrow/dm/%d-Adam.20Admin", sc.ids["admin"])} {
			if !strings.Contains(body, want) {
				t.Errorf("email lacks %q:\n%s", want, body)
			}
		}
		sc.clock.Advance(time.Hour)
		deliverEmails(t, sc.svc, chat.DeliverMissedMessageEmailsResult{})
		if n := len(sc.smtp.Messages()); n != 1 {
			t.Errorf("%d emails, want 1", n)
		}
	})
}

// TestMissedMessageEmailNotSent: a message read before the period ends, and a message to a
// user with a client open, are not emailed.
func TestMissedMessageEmailNotSent(t *testing.T) {
	t.Parallel()
	onEveryBackendWith(t, func(t *testing.T, store storage.Storage) {
		sc := newEmailScene(t, store)
		id := mustSendDirect(t, sc.fixture, "admin", "read me soon", "member")
		mustDo(t, "UpdateMessageFlags", errOf(sc.svc.UpdateMessageFlags(t.Context(), sc.actor("member"),
			chat.UpdateMessageFlagsParams{Messages: []messages.ID{id}, Op: "add", Flag: "read"})))
		sc.register(t, "owner", "message")
		mustSendDirect(t, sc.fixture, "admin", "you are online", "owner")
		sc.clock.Advance(121 * time.Second) // the default period is 120 seconds
		deliverEmails(t, sc.svc, chat.DeliverMissedMessageEmailsResult{Dropped: 2})
		if got := sc.smtp.Messages(); len(got) != 0 {
			t.Errorf("emails sent: %+v", got)
		}
	})
}

// TestMissedMessageEmailSettings: mentions, wildcard mentions and followed topics are emailed as
// the recipient's settings say, and message content only where both the user and the
// organization allow it.
func TestMissedMessageEmailSettings(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		settings map[string]any
		follow   bool
		content  string
		emailed  bool
	}{
		{"mention", nil, false, "hi @**Mia Member**", true},
		{"mention, offline emails off", map[string]any{"enable_offline_email_notifications": false}, false, "hi @**Mia Member**", false},
		{"wildcard", nil, false, "hi @**all**", true},
		{"wildcard, wildcard_mentions_notify off", map[string]any{"wildcard_mentions_notify": false}, false, "hi @**all**", false},
		{"no mention", nil, false, "hi everyone", false},
		{"followed topic", nil, true, "hi everyone", true},
		{"followed topic, its emails off", map[string]any{"enable_followed_topic_email_notifications": false}, true, "hi everyone", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			sc := newEmailScene(t, memory.New())
			c := mustChannel(t, sc.fixture, "general", chat.NewChannelSettings{}, "admin", "member")
			if tc.settings != nil {
				sc.set(t, "member", tc.settings)
			}
			if tc.follow {
				mustDo(t, "UpdateUserTopic", errOf(sc.svc.UpdateUserTopic(t.Context(), sc.actor("member"), chat.UpdateUserTopicParams{
					StreamID: c, Topic: "lunch", VisibilityPolicy: topics.PolicyFollowed})))
			}
			mustSendToChannel(t, sc.fixture, "admin", c, "lunch", tc.content)
			sc.clock.Advance(121 * time.Second)
			want := chat.DeliverMissedMessageEmailsResult{}
			if tc.emailed {
				want.Sent = 1
			}
			deliverEmails(t, sc.svc, want)
			got := sc.smtp.Messages()
			if len(got) != want.Sent {
				t.Fatalf("%d emails, want %d", len(got), want.Sent)
			}
			if tc.emailed && !strings.Contains(unfold(got[0].Data), "Subject: #general > lunch") {
				t.Errorf("email:\n%s", got[0].Data)
			}
		})
	}
}

// TestMissedMessageEmailBatching: the messages of one batching period go out together, one
// email per conversation; without content when the user turned it off.
func TestMissedMessageEmailBatching(t *testing.T) {
	t.Parallel()
	sc := newEmailScene(t, memory.New())
	c := mustChannel(t, sc.fixture, "general", chat.NewChannelSettings{}, "admin", "member")
	sc.set(t, "member", map[string]any{"message_content_in_email_notifications": false})
	mustSendDirect(t, sc.fixture, "admin", "secret one", "member")
	sc.clock.Advance(100 * time.Second)
	mustSendDirect(t, sc.fixture, "admin", "secret two", "member")
	mustSendToChannel(t, sc.fixture, "admin", c, "plans", "secret @**Mia Member**")
	sc.clock.Advance(21 * time.Second) // the first message's period ends: all three go
	deliverEmails(t, sc.svc, chat.DeliverMissedMessageEmailsResult{Sent: 2})
	got := sc.smtp.Messages()
	if len(got) != 2 {
		t.Fatalf("%d emails, want 2", len(got))
	}
	for _, m := range got {
		body := unfold(m.Data)
		if strings.Contains(body, "secret") || !strings.Contains(body, "does not include message content") {
			t.Errorf("email shows content:\n%s", body)
		}
	}
	if body := unfold(got[0].Data); strings.Count(body, "New message from Adam Admin") != 2 {
		t.Errorf("first email does not hold both direct messages:\n%s", body)
	}
}

// failingMailer fails its first n sends, then passes them to next.
type failingMailer struct {
	mu   sync.Mutex
	n    int
	next chat.Mailer
}

func (m *failingMailer) Send(ctx context.Context, to, subject, body string) error {
	m.mu.Lock()
	fail := m.n > 0
	m.n--
	m.mu.Unlock()
	if fail {
		return errors.New("connection refused")
	}
	return m.next.Send(ctx, to, subject, body)
}

// TestMissedMessageEmailRestart: pending notifications survive a restart, and an email whose
// sending failed is tried again when its lease ends; nothing is lost or sent twice.
func TestMissedMessageEmailRestart(t *testing.T) {
	t.Parallel()
	onEveryBackendWith(t, func(t *testing.T, store storage.Storage) {
		sc := newEmailScene(t, store)
		mustSendDirect(t, sc.fixture, "admin", "before the restart", "member")
		mustDo(t, "Close", sc.svc.Close())
		m, err := mail.NewSMTP(mail.SMTPConfig{Host: sc.smtp.Host, Port: sc.smtp.Port, TLS: "none", From: "noreply@chat.example.com"})
		if err != nil {
			t.Fatal(err)
		}
		flaky := &failingMailer{n: 1, next: m}
		svc, err := chat.New(chat.Options{Store: store, Now: sc.clock.Now, Logger: quietLogger(), Mailer: flaky})
		if err != nil {
			t.Fatal(err)
		}
		defer svc.Close()
		sc.clock.Advance(121 * time.Second)
		deliverEmails(t, svc, chat.DeliverMissedMessageEmailsResult{Deferred: 1})
		deliverEmails(t, svc, chat.DeliverMissedMessageEmailsResult{}) // leased
		sc.clock.Advance(time.Minute)
		deliverEmails(t, svc, chat.DeliverMissedMessageEmailsResult{Sent: 1})
		sc.clock.Advance(time.Hour)
		deliverEmails(t, svc, chat.DeliverMissedMessageEmailsResult{})
		if got := sc.smtp.Messages(); len(got) != 1 || !strings.Contains(got[0].Data, "before the restart") {
			t.Errorf("emails: %+v", got)
		}
	})
}

// TestMissedMessageEmailOneProcess: two Services on one store deliver at once; each email is
// sent by one of them.
func TestMissedMessageEmailOneProcess(t *testing.T) {
	t.Parallel()
	onEveryBackendWith(t, func(t *testing.T, store storage.Storage) {
		sc := newEmailScene(t, store)
		const n = 10
		for i := range n {
			// Each pair of users is its own conversation: n emails.
			to := []string{"member", "guest", "owner"}[i%3]
			mustSendDirect(t, sc.fixture, "admin", fmt.Sprintf("m%02d", i), to)
			if i < 3 {
				continue
			}
			c := mustChannel(t, sc.fixture, fmt.Sprintf("c%02d", i), chat.NewChannelSettings{}, "admin", to)
			mustSendToChannel(t, sc.fixture, "admin", c, "t", fmt.Sprintf("@**all** c%02d", i))
		}
		other, err := chat.New(chat.Options{Store: store, Now: sc.clock.Now, Logger: quietLogger(), Mailer: sc.opts(t)})
		if err != nil {
			t.Fatal(err)
		}
		defer other.Close()
		sc.clock.Advance(121 * time.Second)
		var wg sync.WaitGroup
		sent := make([]int, 2)
		for i, svc := range []*chat.Service{sc.svc, other} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r, err := svc.DeliverMissedMessageEmails(t.Context(), chat.DeliverMissedMessageEmailsParams{})
				if err != nil {
					t.Error(err)
				}
				sent[i] = r.Sent
			}()
		}
		wg.Wait()
		const want = 3 + 7 // three direct conversations, seven channel topics
		if sent[0]+sent[1] != want {
			t.Errorf("sent %v, want %d in all", sent, want)
		}
		seen := map[string]int{}
		for _, m := range sc.smtp.Messages() {
			for _, line := range strings.Split(unfold(m.Data), "\r\n") {
				if strings.HasPrefix(line, "Subject: ") {
					seen[m.To[0]+" "+line]++
				}
			}
		}
		if len(seen) != want {
			t.Errorf("%d distinct emails, want %d: %v", len(seen), want, seen)
		}
		for k, c := range seen {
			if c != 1 {
				t.Errorf("%s sent %d times", k, c)
			}
		}
	})
}

// opts is another SMTP client to the scene's server.
func (sc emailScene) opts(t *testing.T) chat.Mailer {
	m, err := mail.NewSMTP(mail.SMTPConfig{Host: sc.smtp.Host, Port: sc.smtp.Port, TLS: "none", From: "noreply@chat.example.com"})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestSendTestEmail: the operator's test email goes through the Mailer; a bad address is refused.
func TestSendTestEmail(t *testing.T) {
	t.Parallel()
	sc := newEmailScene(t, memory.New())
	_, err := sc.svc.SendTestEmail(t.Context(), chat.SendTestEmailParams{To: "not an address"})
	wantError(t, err, chat.CodeBadRequest, 400, "Invalid email address")
	mustDo(t, "SendTestEmail", errOf(sc.svc.SendTestEmail(t.Context(), chat.SendTestEmailParams{To: "ops@example.com"})))
	if got := sc.smtp.Wait(1, 10*time.Second); len(got) != 1 || got[0].To[0] != "ops@example.com" {
		t.Errorf("emails: %+v", got)
	}
}
