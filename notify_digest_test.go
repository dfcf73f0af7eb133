package chat_test

import (
	"strings"
	"testing"
	"time"

	"github.com/teamchat/chat"
	"github.com/teamchat/chat/storage"
)

// TestDigestEmail: on the organization's digest weekday, a user away for five days gets a
// digest of the hot conversations, new channels and new users; an active user gets none, and
// the day is queued once, by one of two Services.
func TestDigestEmail(t *testing.T) {
	t.Parallel()
	onEveryBackendWith(t, func(t *testing.T, store storage.Storage) {
		sc := newEmailScene(t, store)
		ctx := t.Context()
		sc.clock.Advance(6 * 24 * time.Hour) // everyone has been away since the fixture
		c := mustChannel(t, sc.fixture, "general", chat.NewChannelSettings{}, "admin", "member", "owner")
		mustSendToChannel(t, sc.fixture, "admin", c, "lunch", "where shall we eat?")
		mustSendToChannel(t, sc.fixture, "owner", c, "lunch", "the usual place")
		// Not the digest weekday: nothing is queued.
		today := int64((sc.clock.Now().Weekday() + 6) % 7) // Monday is 0, as Zulip's
		mustDo(t, "UpdateRealm", errOf(sc.svc.UpdateRealm(ctx, sc.actor("owner"), chat.UpdateRealmParams{Settings: map[string]any{
			"digest_emails_enabled": true, "digest_weekday": (today + 1) % 7,
		}})))
		sc.set(t, "guest", map[string]any{"enable_digest_emails": false})
		queue := func(svc *chat.Service, now bool) int {
			t.Helper()
			r, err := svc.QueueDigestEmails(ctx, chat.QueueDigestEmailsParams{Now: now})
			mustDo(t, "QueueDigestEmails", err)
			return r.Queued
		}
		if n := queue(sc.svc, false); n != 0 {
			t.Errorf("queued %d digests on another weekday", n)
		}
		mustDo(t, "UpdateRealm", errOf(sc.svc.UpdateRealm(ctx, sc.actor("owner"), chat.UpdateRealmParams{Settings: map[string]any{
			"digest_weekday": today,
		}})))
		other, err := chat.New(chat.Options{Store: store, Now: sc.clock.Now, Logger: quietLogger(), Mailer: sc.opts(t)})
		if err != nil {
			t.Fatal(err)
		}
		defer other.Close()
		// member is the only human away with digests on (admin, owner sent messages; guest
		// turned digests off).
		if n := queue(sc.svc, false) + queue(other, false); n != 1 {
			t.Errorf("queued %d digests, want 1 (the day once)", n)
		}
		deliverEmails(t, other, chat.DeliverMissedMessageEmailsResult{Sent: 1, Digests: 1})
		got := sc.smtp.Wait(1, 10*time.Second)
		if len(got) != 1 || got[0].To[0] != "Member@Example.com" {
			t.Fatalf("emails: %+v", got)
		}
		body := unfold(got[0].Data)
		for _, want := range []string{"Subject: Test Org digest", "#general > lunch (2 messages)", "Adam Admin: where shall we eat?",
			"New channels: #general", "/#narrow/channel/"} {
			if !strings.Contains(body, want) {
				t.Errorf("digest lacks %q:\n%s", want, body)
			}
		}
		// The operator's pass now queues again, whatever the day; the member reads nothing new
		// in the meantime, so the digest goes out again.
		if n := queue(sc.svc, true); n != 1 {
			t.Errorf("operator's pass queued %d, want 1", n)
		}
	})
}
