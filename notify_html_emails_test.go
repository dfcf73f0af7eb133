package chat_test

import (
	"strings"
	"testing"
	"time"

	"github.com/teamchat/chat"
	"github.com/teamchat/chat/internal/smtptest"
	"github.com/teamchat/chat/storage/memory"
)

// alternatives parses a received email and returns its text and HTML parts, failing unless it
// is multipart/alternative with both.
func alternatives(t *testing.T, m smtptest.Message) (text, html string) {
	t.Helper()
	_, multipart, bodies, err := m.Parts()
	if err != nil {
		t.Fatalf("parsing the email: %v\n%s", err, m.Data)
	}
	if multipart != "multipart/alternative" || bodies["text/plain"] == "" || bodies["text/html"] == "" {
		t.Fatalf("email is %q with parts %q, want multipart/alternative with text/plain and text/html", multipart, bodies)
	}
	return bodies["text/plain"], bodies["text/html"]
}

// wantAll reports each of wants that s lacks, and each of unwanted that it holds.
func wantAll(t *testing.T, what, s string, wants []string, unwanted ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(s, w) {
			t.Errorf("%s lacks %q:\n%s", what, w, s)
		}
	}
	for _, u := range unwanted {
		if strings.Contains(s, u) {
			t.Errorf("%s holds %q:\n%s", what, u, s)
		}
	}
}

// TestMissedMessageEmailHTML: a missed-message email is multipart/alternative, as Zulip's: the
// text part holds the messages' Markdown, the HTML part their rendered HTML (links made
// absolute) under their senders, with every other value escaped (the topic's markup, the
// raw HTML a message quotes), why it was sent, and the links to the conversation and the
// preferences.
func TestMissedMessageEmailHTML(t *testing.T) {
	t.Parallel()
	sc := newEmailScene(t, memory.New())
	c := mustChannel(t, sc.fixture, "general", chat.NewChannelSettings{}, "admin", "member")
	mustSendToChannel(t, sc.fixture, "admin", c, "<b>plans</b> & more", "@**Mia Member** see **this** <script>alert(1)</script> in #**general**")
	mustSendToChannel(t, sc.fixture, "admin", c, "<b>plans</b> & more", "@**Mia Member** and _that_")
	sc.clock.Advance(121 * time.Second)
	deliverEmails(t, sc.svc, chat.DeliverMissedMessageEmailsResult{Sent: 1})
	got := sc.smtp.Wait(1, 10*time.Second)
	if len(got) != 1 {
		t.Fatalf("%d emails, want 1", len(got))
	}
	text, html := alternatives(t, got[0])
	wantAll(t, "text part", text, []string{"Adam Admin:", "see **this** <script>alert(1)</script>", "and _that_",
		"You are receiving this because you were personally mentioned.", "https://chat.example.com/#narrow/channel/"})
	wantAll(t, "HTML part", html, []string{
		"<title>#general &gt; &lt;b&gt;plans&lt;/b&gt; &amp; more</title>",
		`<div class="message_sender" style="font-weight: bold;">Adam Admin</div>`,
		"<strong>this</strong>", "&lt;script&gt;", "<em>that</em>",
		`href="https://chat.example.com/#narrow/channel/`,
		"You are receiving this because you were personally mentioned.",
		`<a href="https://chat.example.com/#settings/notifications">manage email preferences</a>`,
	}, "<script>", "<b>plans</b>", `href="/#narrow`)
	if n := strings.Count(html, `class="message_sender"`); n != 1 {
		t.Errorf("HTML part has %d sender blocks, want 1 (both messages by one sender):\n%s", n, html)
	}
}

// TestMissedMessageEmailHTMLWithoutContent: without message content, the HTML part says so
// and shows none.
func TestMissedMessageEmailHTMLWithoutContent(t *testing.T) {
	t.Parallel()
	sc := newEmailScene(t, memory.New())
	sc.set(t, "member", map[string]any{"message_content_in_email_notifications": false})
	mustSendDirect(t, sc.fixture, "admin", "a **secret**", "member")
	sc.clock.Advance(121 * time.Second)
	deliverEmails(t, sc.svc, chat.DeliverMissedMessageEmailsResult{Sent: 1})
	_, html := alternatives(t, sc.smtp.Wait(1, 10*time.Second)[0])
	wantAll(t, "HTML part", html, []string{"does not include message content", "<title>DMs with Adam Admin</title>"}, "secret")
}

// TestDigestEmailHTML: the digest is multipart/alternative; its HTML part links each hot
// conversation and escapes what users wrote.
func TestDigestEmailHTML(t *testing.T) {
	t.Parallel()
	sc := newEmailScene(t, memory.New())
	sc.clock.Advance(6 * 24 * time.Hour)
	c := mustChannel(t, sc.fixture, "general", chat.NewChannelSettings{}, "admin", "member", "owner")
	mustSendToChannel(t, sc.fixture, "admin", c, "lunch & <dinner>", "where <i>shall</i> we eat?")
	mustDo(t, "UpdateRealm", errOf(sc.svc.UpdateRealm(t.Context(), sc.actor("owner"), chat.UpdateRealmParams{Settings: map[string]any{
		"digest_emails_enabled": true,
	}})))
	for _, name := range []string{"guest", "owner"} {
		sc.set(t, name, map[string]any{"enable_digest_emails": false})
	}
	r, err := sc.svc.QueueDigestEmails(t.Context(), chat.QueueDigestEmailsParams{Now: true})
	mustDo(t, "QueueDigestEmails", err)
	if r.Queued != 1 {
		t.Fatalf("queued %d digests, want 1", r.Queued)
	}
	deliverEmails(t, sc.svc, chat.DeliverMissedMessageEmailsResult{Sent: 1, Digests: 1})
	text, html := alternatives(t, sc.smtp.Wait(1, 10*time.Second)[0])
	wantAll(t, "text part", text, []string{"#general > lunch & <dinner> (1 messages)", "Adam Admin: where <i>shall</i> we eat?"})
	wantAll(t, "HTML part", html, []string{"<p>Hello Mia Member,</p>",
		`#general &gt; lunch &amp; &lt;dinner&gt;</a> (1 messages)`, "where &lt;i&gt;shall&lt;/i&gt; we eat?",
		`<a href="https://chat.example.com/#narrow/channel/`, "New channels: #general"}, "<dinner>", "<i>shall")
}

// TestLoginEmailHTML: the "new login" email is multipart/alternative, its HTML part escaping
// the User-Agent's device and the address.
func TestLoginEmailHTML(t *testing.T) {
	t.Parallel()
	sc := newEmailScene(t, memory.New())
	sc.clock.Advance(time.Minute + time.Second)
	mustDo(t, "FetchAPIKey", errOf(sc.svc.FetchAPIKey(t.Context(), chat.FetchAPIKeyParams{
		Username: "member@example.com", Password: testPassword, ClientAddress: "192.0.2.7",
		UserAgent: "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0",
	})))
	text, html := alternatives(t, sc.smtp.Wait(1, 10*time.Second)[0])
	wantAll(t, "text part", text, []string{"Device: Firefox on Linux", "IP address: 192.0.2.7"})
	wantAll(t, "HTML part", html, []string{"<li>Device: Firefox on Linux</li>", "<li>IP address: 192.0.2.7</li>",
		`<a href="mailto:Member@Example.com">Member@Example.com</a>`, "<p>Hello Mia Member,</p>",
		`<a href="https://chat.example.com/#settings/notifications">Manage email preferences</a>`})
}
