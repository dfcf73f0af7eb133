package chat_test

import (
	"context"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/internal/smtptest"
	"github.com/teamchat/chat/mail"
	"github.com/teamchat/chat/users"
)

// outbox is a Mailer that keeps what it is given.
type outbox struct {
	mu   sync.Mutex
	sent []sentMail
}

type sentMail struct{ to, subject, body string }

func (o *outbox) Send(_ context.Context, to, subject, body string) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.sent = append(o.sent, sentMail{to, subject, body})
	return nil
}

func (o *outbox) all() []sentMail {
	o.mu.Lock()
	defer o.mu.Unlock()
	return append([]sentMail(nil), o.sent...)
}

// joinLink finds an invitation link in a mail's body.
var joinLink = regexp.MustCompile(`https?://\S+/join/[a-z2-7]{24}/`)

// TestEmailInvitationOverSMTP sends an invitation through a real SMTP server the test starts;
// the link in the message that arrives creates the account.
func TestEmailInvitationOverSMTP(t *testing.T) {
	t.Parallel()
	srv := smtptest.Start(t)
	smtp, err := mail.NewSMTP(mail.SMTPConfig{Host: srv.Host, Port: srv.Port, TLS: "none", From: "Test Org <noreply@chat.example.com>"})
	if err != nil {
		t.Fatal(err)
	}
	f := newFixture(t, func(o *chat.Options) { o.Mailer = smtp })
	ctx := t.Context()
	welcome := mustChannel(t, f, "welcome", chat.NewChannelSettings{}, "admin")
	mustDo(t, "SendInvites", errOf(f.svc.SendInvites(ctx, f.actor("admin"), chat.SendInvitesParams{
		InviteeEmails: "ada@example.org", StreamIDs: []channels.ID{welcome},
	})))
	got := srv.Wait(1, 10*time.Second)
	if len(got) != 1 || len(got[0].To) != 1 || got[0].To[0] != "ada@example.org" {
		t.Fatalf("messages at the SMTP server: %+v", got)
	}
	if !strings.Contains(got[0].Data, "Adam Admin invited you to join Test Org") {
		t.Errorf("message:\n%s", got[0].Data)
	}
	link := joinLink.FindString(strings.ReplaceAll(got[0].Data, "=\r\n", ""))
	if link == "" {
		t.Fatalf("no link in:\n%s", got[0].Data)
	}
	q := f.register(t, "admin", "message", "invites_changed")
	res, err := f.svc.RedeemInviteLink(ctx, chat.RedeemInviteLinkParams{Key: link, FullName: "Ada Lovelace", Password: "a long password"})
	mustDo(t, "RedeemInviteLink", err)
	u, err := f.svc.GetUser(ctx, f.actor("owner"), chat.GetUserParams{UserID: res.UserID})
	mustDo(t, "GetUser", err)
	if u.User.FullName != "Ada Lovelace" || u.User.DeliveryEmail == nil || *u.User.DeliveryEmail != "ada@example.org" {
		t.Errorf("new user %+v", u.User)
	}
	subs, err := f.svc.GetSubscriptions(ctx, chat.Actor{UserID: res.UserID}, chat.GetSubscriptionsParams{})
	mustDo(t, "GetSubscriptions", err)
	if len(subs.Subscriptions) != 1 || subs.Subscriptions[0].StreamID != welcome {
		t.Errorf("subscriptions %+v", subs.Subscriptions)
	}
	evs := eventJSON(t, f.poll(t, "admin", q, -1, true))
	var types []string
	for _, e := range evs {
		types = append(types, e["type"].(string))
	}
	if diff := cmp.Diff([]string{"invites_changed", "message"}, types); diff != "" {
		t.Errorf("admin's events (-want +got):\n%s", diff)
	}
	// The link works once.
	_, err = f.svc.RedeemInviteLink(ctx, chat.RedeemInviteLinkParams{Key: link, FullName: "Ada Again"})
	wantError(t, err, chat.CodeBadRequest, 400, "The invitation link has already been used.")
	if invites := f.mustInvites(t, "admin"); len(invites) != 0 {
		t.Errorf("invitations after use: %+v", invites)
	}
}

func TestSendInvites(t *testing.T) {
	t.Parallel()
	box := &outbox{}
	f := newFixture(t, func(o *chat.Options) { o.Mailer = box })
	ctx := t.Context()
	f.setUser(t, "guest", func(u *users.User) { u.IsActive = false })
	_, err := f.svc.SendInvites(ctx, f.actor("member"), chat.SendInvitesParams{InviteeEmails: "new1@example.org,\n admin@example.com , guest@example.com,new1@example.org"})
	e := wantError(t, err, chat.CodeInvitationFailed, 400, "Some of those addresses are already using Zulip, so we didn't send them an invitation. We did send invitations to everyone else!")
	want := [][]any{{"admin@example.com", "Already has an account.", false}, {"guest@example.com", "Account has been deactivated.", true}}
	if diff := cmp.Diff(want, e.Extra["errors"]); diff != "" || e.Extra["sent_invitations"] != true {
		t.Errorf("errors (-want +got):\n%s\nsent_invitations %v", diff, e.Extra["sent_invitations"])
	}
	if sent := box.all(); len(sent) != 1 || sent[0].to != "new1@example.org" || !joinLink.MatchString(sent[0].body) {
		t.Fatalf("sent %+v", sent)
	}
	invites := f.mustInvites(t, "member")
	if len(invites) != 1 || invites[0].Email != "new1@example.org" || invites[0].IsMultiuse || invites[0].LinkURL != "" || !invites[0].NotifyReferrerOnJoin {
		t.Fatalf("member's invitations %+v", invites)
	}
	id := invites[0].ID
	first := joinLink.FindString(box.all()[0].body)
	mustDo(t, "ResendEmailInvite", errOf(f.svc.ResendEmailInvite(ctx, f.actor("admin"), chat.EmailInviteParams{InviteID: id})))
	second := joinLink.FindString(box.all()[1].body)
	if second == "" || second == first {
		t.Errorf("resent link %q (first %q)", second, first)
	}
	_, err = f.svc.RedeemInviteLink(ctx, chat.RedeemInviteLinkParams{Key: first, FullName: "Old Link"})
	wantError(t, err, chat.CodeBadRequest, 400, "The invitation link is not valid.")
	_, err = f.svc.RedeemInviteLink(ctx, chat.RedeemInviteLinkParams{Key: second, Email: "someone.else@example.org", FullName: "Someone Else"})
	wantError(t, err, chat.CodeBadRequest, 400, "The invitation link is not valid.")
	mustDo(t, "RevokeEmailInvite", errOf(f.svc.RevokeEmailInvite(ctx, f.actor("member"), chat.EmailInviteParams{InviteID: id})))
	_, err = f.svc.RedeemInviteLink(ctx, chat.RedeemInviteLinkParams{Key: second, FullName: "Too Late"})
	wantError(t, err, chat.CodeBadRequest, 400, "The invitation link has been revoked.")
}

func TestSendInvitesRefusals(t *testing.T) {
	t.Parallel()
	box := &outbox{}
	f := newFixture(t, func(o *chat.Options) { o.Mailer = box })
	ctx := t.Context()
	mustDo(t, "SendInvites", errOf(f.svc.SendInvites(ctx, f.actor("owner"), chat.SendInvitesParams{InviteeEmails: "kept@example.org"})))
	id := f.mustInvites(t, "owner")[0].ID
	send := func(who string, p chat.SendInvitesParams) func() error {
		return func() error { return errOf(f.svc.SendInvites(ctx, f.actor(who), p)) }
	}
	checkRefusals(t, f, []refusal{
		{"no address", send("member", chat.SendInvitesParams{InviteeEmails: " , \n"}), "", "You must specify at least one email address."},
		{"an invalid address", send("member", chat.SendInvitesParams{InviteeEmails: "good@example.org, not-an-address"}), chat.CodeInvitationFailed, "Some emails did not validate, so we didn't send any invitations."},
		{"everyone has an account", send("member", chat.SendInvitesParams{InviteeEmails: "admin@example.com"}), chat.CodeInvitationFailed, "We weren't able to invite anyone."},
		{"a guest", send("guest", chat.SendInvitesParams{InviteeEmails: "x@example.org"}), "", "Not allowed for guest users"},
		{"an administrator role from a member", send("member", chat.SendInvitesParams{InviteeEmails: "x@example.org", InviteAs: ptr(users.RoleAdministrator)}), chat.CodeUnauthorizedPrincipal, "Must be an organization administrator"},
		{"an unknown channel", send("member", chat.SendInvitesParams{InviteeEmails: "x@example.org", StreamIDs: []channels.ID{999}}), "", "Invalid channel ID 999. No invites were sent."},
		{"revoke someone else's", func() error {
			return errOf(f.svc.RevokeEmailInvite(ctx, f.actor("member"), chat.EmailInviteParams{InviteID: id}))
		}, chat.CodeUnauthorizedPrincipal, "Must be an organization administrator"},
		{"resend an unknown one", func() error {
			return errOf(f.svc.ResendEmailInvite(ctx, f.actor("admin"), chat.EmailInviteParams{InviteID: 999}))
		}, "", "No such invitation"},
	})
	if n := len(box.all()); n != 1 {
		t.Errorf("%d mails sent, want only the first", n)
	}
}

// emailInvitesConsistencyCases are the consistency cases of email invitations.
func emailInvitesConsistencyCases() []consistencyCase {
	invited := func(t *testing.T, f *fixture) {
		mustDo(t, "SendInvites", errOf(f.svc.SendInvites(t.Context(), f.actor("member"), chat.SendInvitesParams{InviteeEmails: "new@example.org"})))
	}
	first := func(t *testing.T, f *fixture) chat.EmailInviteParams {
		return chat.EmailInviteParams{InviteID: f.mustInvites(t, "admin")[0].ID}
	}
	return []consistencyCase{
		{method: "SendInvites", name: "two addresses", run: func(t *testing.T, f *fixture) {
			mustDo(t, "SendInvites", errOf(f.svc.SendInvites(t.Context(), f.actor("member"), chat.SendInvitesParams{InviteeEmails: "a@example.org, b@example.org"})))
		}},
		{method: "ResendEmailInvite", name: "by an administrator", setup: invited, run: func(t *testing.T, f *fixture) {
			mustDo(t, "ResendEmailInvite", errOf(f.svc.ResendEmailInvite(t.Context(), f.actor("admin"), first(t, f))))
		}},
		{method: "RevokeEmailInvite", name: "by the inviter", setup: invited, run: func(t *testing.T, f *fixture) {
			mustDo(t, "RevokeEmailInvite", errOf(f.svc.RevokeEmailInvite(t.Context(), f.actor("member"), first(t, f))))
		}},
	}
}
