package chat_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/users"
)

// withGateway is the option of a server with an email gateway at chat.example.com.
func withGateway(o *chat.Options) { o.EmailGatewayPattern = "%s@chat.example.com" }

// onEveryBackendWithGateway runs body on every backend, with an email gateway.
func onEveryBackendWithGateway(t *testing.T, body func(t *testing.T, f *fixture)) {
	t.Helper()
	for _, b := range testBackends() {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			body(t, newFixtureOn(t, b.open(t), withGateway))
		})
	}
}

// mustEmailAddress asks for a channel's email address as who, posting as sender (0: the Email
// Gateway bot).
func mustEmailAddress(t *testing.T, f *fixture, who string, c channels.ID, sender users.ID) string {
	t.Helper()
	p := chat.GetStreamEmailAddressParams{StreamID: c}
	if sender != 0 {
		p.SenderID = &sender
	}
	res, err := f.svc.GetStreamEmailAddress(t.Context(), f.actor(who), p)
	if err != nil {
		t.Fatalf("GetStreamEmailAddress: %v", err)
	}
	return res.Email
}

// TestStreamEmailAddress checks the addresses of GET /streams/{id}/email_address with a
// gateway: Zulip's form {channel slug}.{token}.show-sender@{gateway domain}, one token per
// channel, requester and sender, kept across requests and processes.
func TestStreamEmailAddress(t *testing.T) {
	t.Parallel()
	onEveryBackendWithGateway(t, func(t *testing.T, f *fixture) {
		lobby := mustChannel(t, f, "Launch Team", chat.NewChannelSettings{}, "member", "admin")
		indic := mustChannel(t, f, "शिव", chat.NewChannelSettings{}, "member")
		form := regexp.MustCompile(`^launch-team\.([0-9a-f]{32})\.show-sender@chat\.example\.com$`)
		first := mustEmailAddress(t, f, "member", lobby, 0)
		m := form.FindStringSubmatch(first)
		if m == nil {
			t.Fatalf("address %q, want the form %s", first, form)
		}
		if again := mustEmailAddress(t, f, "member", lobby, chat.EmailGatewayBotID); again != first {
			t.Errorf("a second request (sender_id the gateway bot) gave %q, want %q", again, first)
		}
		cold, err := chat.New(chat.Options{Store: f.store, Now: f.clock.Now, Logger: quietLogger(), EmailGatewayPattern: "%s@chat.example.com"})
		if err != nil {
			t.Fatal(err)
		}
		defer cold.Close()
		res, err := cold.GetStreamEmailAddress(t.Context(), f.actor("member"), chat.GetStreamEmailAddressParams{StreamID: lobby})
		if err != nil || res.Email != first {
			t.Errorf("a fresh process gave %q, %v; want %q", res.Email, err, first)
		}
		own := mustEmailAddress(t, f, "member", lobby, f.ids["member"])
		admins := mustEmailAddress(t, f, "admin", lobby, 0)
		if own == first || admins == first || own == admins || !form.MatchString(own) || !form.MatchString(admins) {
			t.Errorf("addresses of other senders and requesters: %q, %q (first %q)", own, admins, first)
		}
		if got := mustEmailAddress(t, f, "member", indic, 0); !regexp.MustCompile(`^channel\.[0-9a-f]{32}\.show-sender@chat\.example\.com$`).MatchString(got) {
			t.Errorf("a name with no ASCII slug: %q, want channel.{token}.show-sender@...", got)
		}
	})
}

// gatewayEmail is a raw email from Ada to address.
func gatewayEmail(address, subject, contentType, body string) []byte {
	return []byte(fmt.Sprintf("From: Ada Lovelace <ada@example.org>\r\nTo: Launch <%s>\r\nSubject: %s\r\nMIME-Version: 1.0\r\nContent-Type: %s\r\n\r\n%s",
		address, subject, contentType, strings.ReplaceAll(body, "\n", "\r\n")))
}

// TestEmailMirrorMessage checks that an email to a channel's address becomes a message, as
// Zulip's email mirror posts it: the subject without Re: as topic, the reply without the quoted
// message and the signature, the From line (show-sender), the Email Gateway bot or the chosen
// sender as sender; and that bad tokens, senders who lost the right to post, and addresses
// outside the gateway are refused.
func TestEmailMirrorMessage(t *testing.T) {
	t.Parallel()
	onEveryBackendWithGateway(t, func(t *testing.T, f *fixture) {
		ctx := t.Context()
		lobby := mustChannel(t, f, "lobby", chat.NewChannelSettings{}, "member", "admin")
		addr := mustEmailAddress(t, f, "member", lobby, 0)
		reply := "Sounds good, see you there.\n\nOn Mon, Jan 5, 2026 at 10:00 Bob wrote:\n> Launch is on Friday.\n> Bring cake.\n\n--\nAda\nAnalytical Engines Ltd."
		res, err := f.svc.EmailMirrorMessage(ctx, chat.EmailMirrorMessageParams{Message: gatewayEmail(addr, "Re: Launch plans", "text/plain; charset=utf-8", reply)})
		if err != nil {
			t.Fatal(err)
		}
		if res.ChannelID != lobby || res.Topic != "Launch plans" {
			t.Errorf("result %+v, want channel %d topic %q", res, lobby, "Launch plans")
		}
		got := fetch(t, f, "admin", chat.GetMessagesParams{Anchor: "newest", NumBefore: 1, ApplyMarkdown: ptr(false)}).Messages
		want := "From: Ada Lovelace <ada@example.org>\nSounds good, see you there."
		if len(got) != 1 || got[0].ID != res.MessageID || got[0].SenderID != chat.EmailGatewayBotID || got[0].Content != want ||
			got[0].Subject != "Launch plans" || got[0].SenderEmail != "emailgateway@zulip.com" {
			t.Fatalf("posted %+v, want the gateway bot's %q in Launch plans", got, want)
		}

		// An address for the member's own sender, with the options in the address, found in
		// the To header; an HTML-only email becomes Markdown.
		own := mustEmailAddress(t, f, "member", lobby, f.ids["member"])
		own = strings.Replace(own, ".show-sender@", ".include-footer@", 1)
		res, err = f.svc.EmailMirrorMessage(ctx, chat.EmailMirrorMessageParams{Message: gatewayEmail(own, "Fwd: Minutes", "text/html; charset=utf-8",
			"<html><head><style>p {}</style></head><body><p>The <b>minutes</b> are <a href=\"https://example.org/m\">here</a>.</p></body></html>")})
		if err != nil {
			t.Fatal(err)
		}
		got = fetch(t, f, "admin", chat.GetMessagesParams{Anchor: "newest", NumBefore: 1, ApplyMarkdown: ptr(false)}).Messages
		if len(got) != 1 || got[0].SenderID != f.ids["member"] || got[0].Subject != "Minutes" ||
			got[0].Content != "The **minutes** are [here](https://example.org/m)." {
			t.Errorf("posted %+v, want the member's Markdown of the HTML in Minutes", got)
		}

		for _, c := range []struct {
			name, to string
			msg      string
		}{
			{"an unknown token", "lobby.0123456789abcdef0123456789abcdef@chat.example.com", "Bad stream token from email recipient lobby.0123456789abcdef0123456789abcdef@chat.example.com"},
			{"another domain", "lobby.0123456789abcdef0123456789abcdef@example.org", "Address not recognized by gateway."},
		} {
			_, err := f.svc.EmailMirrorMessage(ctx, chat.EmailMirrorMessageParams{Recipient: c.to, Message: gatewayEmail(c.to, "Hello", "text/plain", "Hi")})
			wantError(t, err, chat.CodeBadRequest, 400, c.msg)
		}
		_, err = f.svc.EmailMirrorMessage(ctx, chat.EmailMirrorMessageParams{Message: gatewayEmail("someone@example.org", "Hello", "text/plain", "Hi")})
		wantError(t, err, chat.CodeBadRequest, 400, "Missing recipient in mirror email")

		// The member leaves and loses the right to post: the gateway bot's address they
		// made no longer posts.
		mustDo(t, "UpdateStream", errOf(f.svc.UpdateStream(ctx, f.actor("owner"), chat.UpdateStreamParams{
			StreamID: lobby, GroupSettings: map[string]chat.GroupSettingChange{"can_send_message_group": {New: ptr(users.Named(f.groupIDs(t)[users.GroupAdministrators]))}},
		})))
		before := f.messageCount(t)
		_, err = f.svc.EmailMirrorMessage(ctx, chat.EmailMirrorMessageParams{Recipient: addr, Message: gatewayEmail(addr, "Again", "text/plain", "Once more")})
		wantError(t, err, chat.CodeBadRequest, 400, "Not authorized to send to channel")
		if after := f.messageCount(t); after != before {
			t.Errorf("messages %d -> %d: a refused email posted", before, after)
		}
	})
}

// TestEmailMirrorWithoutGateway checks that a server without a gateway posts no email.
func TestEmailMirrorWithoutGateway(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	_, err := f.svc.EmailMirrorMessage(t.Context(), chat.EmailMirrorMessageParams{Message: gatewayEmail("x.y@chat.example.com", "Hi", "text/plain", "Hi")})
	wantError(t, err, chat.CodeBadRequest, 400, "This server has no email gateway")
}

// emailGatewayConsistencyCases cover the email gateway's posts.
func emailGatewayConsistencyCases() []consistencyCase {
	var addr string
	return []consistencyCase{
		{method: "EmailMirrorMessage", name: "an email to a public channel", options: withGateway, setup: func(t *testing.T, f *fixture) {
			c := mustChannel(t, f, "lobby", chat.NewChannelSettings{}, "member", "admin", "guest")
			addr = mustEmailAddress(t, f, "member", c, 0)
		}, run: func(t *testing.T, f *fixture) {
			mustDo(t, "EmailMirrorMessage", errOf(f.svc.EmailMirrorMessage(t.Context(), chat.EmailMirrorMessageParams{Recipient: addr, Message: gatewayEmail(addr, "Status", "text/plain", "All **green**.")})))
		}},
	}
}
