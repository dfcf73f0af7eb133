package chat_test

import (
	"testing"

	chat "github.com/teamchat/chat"
	blobmemory "github.com/teamchat/chat/blobs/memory"
	"github.com/teamchat/chat/seeds"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// TestMadeUpAddressesDomain checks Zulip's get_fake_email_domain for both kinds of made-up
// addresses, on every backend: the placeholder of a hidden address (user{id}@) and a new
// bot's address are at the realm URL's host when it forms email addresses, else at the
// server's FakeEmailDomain (zulipdev.com under chatserver serve --dev, whose realm is at
// 127.0.0.1 with a port), else at zulip.invalid. The placeholder names its user when looked
// up, a message's sender_email is the placeholder too, and the bot authenticates with its
// address.
func TestMadeUpAddressesDomain(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, url, fake, domain string
	}{
		{"dev", "http://127.0.0.1:9991/", seeds.DevFakeEmailDomain, "zulipdev.com"},
		{"realm host", "https://chat.example.com/", seeds.DevFakeEmailDomain, "chat.example.com"},
		{"no fake domain", "http://127.0.0.1:9991/", "", "zulip.invalid"},
	}
	for _, b := range testBackends() {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			for _, c := range cases {
				t.Run(c.name, func(t *testing.T) {
					checkMadeUpAddresses(t, b.open(t), c.url, c.fake, c.domain)
				})
			}
		})
	}
}

func checkMadeUpAddresses(t *testing.T, store storage.Storage, url, fake, domain string) {
	t.Helper()
	ctx := t.Context()
	svc, err := chat.New(chat.Options{Store: store, Now: newClock().Now, FakeEmailDomain: fake, Dev: true,
		PasswordHashing: chat.PasswordHashing{MemoryKiB: 64, Passes: 1, Threads: 1}, Blobs: blobmemory.New()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { svc.Close(); store.Close() })
	if _, err := svc.CreateOrganization(ctx, chat.CreateOrganizationParams{Name: "Dev", URL: url,
		EmailVisibility: users.EmailVisibleAdmins}); err != nil {
		t.Fatal(err)
	}
	ids := map[string]users.ID{}
	for _, u := range []chat.ProvisionUserParams{
		{Email: "iago@zulip.com", FullName: "Iago", Role: users.RoleOwner},
		{Email: "hamlet@zulip.com", FullName: "King Hamlet"},
	} {
		res, err := svc.ProvisionUser(ctx, u)
		if err != nil {
			t.Fatal(err)
		}
		ids[u.FullName] = res.UserID
	}
	hamlet, iago := chat.Actor{UserID: ids["King Hamlet"]}, chat.Actor{UserID: ids["Iago"]}
	placeholder := "user" + itoa(int64(iago.UserID)) + "@" + domain
	got, err := svc.GetUser(ctx, hamlet, chat.GetUserParams{UserID: iago.UserID})
	if err != nil {
		t.Fatal(err)
	}
	if got.User.Email != placeholder {
		t.Errorf("hidden address = %q, want %q", got.User.Email, placeholder)
	}
	byEmail, err := svc.GetUserByEmail(ctx, hamlet, chat.GetUserByEmailParams{Email: placeholder})
	if err != nil || byEmail.User.UserID != iago.UserID {
		t.Errorf("GetUserByEmail(%s) = %+v, %v", placeholder, byEmail.User, err)
	}
	if _, err := svc.SendMessage(ctx, iago, chat.SendMessageParams{Type: "private",
		Emails: []string{"hamlet@zulip.com"}, Content: "hi"}); err != nil {
		t.Fatal(err)
	}
	msgs, err := svc.GetMessages(ctx, hamlet, chat.GetMessagesParams{Anchor: "newest", NumBefore: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(msgs.Messages) != 1 || msgs.Messages[0].SenderEmail != placeholder {
		t.Errorf("sender_email of the direct message = %+v, want %q", msgs.Messages, placeholder)
	}
	bot, err := svc.CreateBot(ctx, hamlet, chat.CreateBotParams{FullName: "Test bot", ShortName: "test-bot-1"})
	if err != nil {
		t.Fatal(err)
	}
	botEmail := "test-bot-1-bot@" + domain
	rec, err := svc.GetUser(ctx, hamlet, chat.GetUserParams{UserID: bot.UserID})
	if err != nil {
		t.Fatal(err)
	}
	if rec.User.Email != botEmail {
		t.Errorf("bot address = %q, want %q", rec.User.Email, botEmail)
	}
	actor, err := svc.AuthenticateAPIKey(ctx, botEmail, bot.APIKey)
	if err != nil || actor.UserID != bot.UserID {
		t.Errorf("AuthenticateAPIKey(%s) = %+v, %v", botEmail, actor, err)
	}
}
