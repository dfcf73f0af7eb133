package chat_test

import (
	"slices"
	"strings"
	"testing"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/users"
)

// welcomeMessages lists the Welcome Bot's messages viewer can read, oldest first.
func welcomeMessages(t *testing.T, f *fixture, viewer string) []chat.MessageRecord {
	t.Helper()
	res := fetch(t, f, viewer, chat.GetMessagesParams{Anchor: "oldest", NumAfter: 1000, ApplyMarkdown: ptr(false)})
	var out []chat.MessageRecord
	for _, m := range res.Messages {
		if m.SenderID == chat.WelcomeBotID {
			out = append(out, m)
		}
	}
	return out
}

// TestWelcomeBotCustomMessage checks POST /realm/test_welcome_bot_custom_message as Zulip's
// test_welcome_bot_custom_message does: the administrator receives one direct message from
// welcome-bot@zulip.com holding the text, whose id the call returns; an empty text and a
// non-administrator are refused.
func TestWelcomeBotCustomMessage(t *testing.T) {
	t.Parallel()
	onEveryBackend(t, func(t *testing.T, f *fixture) {
		ctx := t.Context()
		const text = "Welcome Bot custom message for testing"
		res, err := f.svc.TestWelcomeBotCustomMessage(ctx, f.actor("admin"), chat.TestWelcomeBotCustomMessageParams{WelcomeMessageCustomText: text})
		if err != nil {
			t.Fatal(err)
		}
		got := welcomeMessages(t, f, "admin")
		if len(got) != 1 || got[0].ID != res.MessageID || got[0].Type != "private" || !strings.Contains(got[0].Content, text) ||
			got[0].SenderEmail != "welcome-bot@zulip.com" || got[0].SenderFullName != "Welcome Bot" {
			t.Fatalf("the admin's Welcome Bot messages = %+v, want one with id %d holding %q", got, res.MessageID, text)
		}
		if n := len(welcomeMessages(t, f, "member")); n != 0 {
			t.Errorf("the member sees %d Welcome Bot messages, want 0", n)
		}
		wantError(t, errOf(f.svc.TestWelcomeBotCustomMessage(ctx, f.actor("admin"), chat.TestWelcomeBotCustomMessageParams{})),
			chat.CodeBadRequest, 400, "Message must not be empty")
		wantError(t, errOf(f.svc.TestWelcomeBotCustomMessage(ctx, f.actor("admin"), chat.TestWelcomeBotCustomMessageParams{WelcomeMessageCustomText: strings.Repeat("x", 8001)})),
			chat.CodeBadRequest, 400, "welcome_message_custom_text is too long (limit: 8000 characters)")
		if err := errOf(f.svc.TestWelcomeBotCustomMessage(ctx, f.actor("member"), chat.TestWelcomeBotCustomMessageParams{WelcomeMessageCustomText: text})); err == nil {
			t.Error("a member sent the test message")
		}
	})
}

// TestWelcomeBotInCrossRealmBots checks that register lists Zulip's three cross-realm bots.
func TestWelcomeBotInCrossRealmBots(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	st, err := f.svc.RegisterQueue(t.Context(), f.actor("member"), chat.RegisterQueueParams{FetchEventTypes: []string{"realm_user"}})
	if err != nil {
		t.Fatal(err)
	}
	var emails []string
	for _, b := range st.CrossRealmBots {
		emails = append(emails, b.Email)
		if !b.IsSystemBot || !b.IsBot {
			t.Errorf("cross_realm_bots %s: is_system_bot %v, is_bot %v", b.Email, b.IsSystemBot, b.IsBot)
		}
	}
	want := "emailgateway@zulip.com notification-bot@zulip.com welcome-bot@zulip.com"
	if got := strings.Join(emails, " "); got != want {
		t.Errorf("cross_realm_bots = %s, want %s", got, want)
	}
}

// TestWelcomeMessageToNewUsers checks that a user created through the API receives the Welcome
// Bot's custom message: the organization's welcome_message_custom_text, or the invitation's,
// whose empty text sends none.
func TestWelcomeMessageToNewUsers(t *testing.T) {
	t.Parallel()
	onEveryBackend(t, func(t *testing.T, f *fixture) {
		ctx := t.Context()
		f.setUser(t, "admin", func(u *users.User) { u.CanCreateUsers = true })
		mustDo(t, "UpdateRealm", errOf(f.svc.UpdateRealm(ctx, f.actor("admin"), chat.UpdateRealmParams{Settings: map[string]any{"welcome_message_custom_text": "Read #**general** first."}})))
		created, err := f.svc.CreateUser(ctx, f.actor("admin"), chat.CreateUserParams{Email: "made@example.com", Password: "long enough", FullName: "Made User"})
		if err != nil {
			t.Fatal(err)
		}
		f.ids["made"] = created.UserID
		// The greeting first (Zulip's send_initial_direct_message, starred), then the custom text.
		got := welcomeMessages(t, f, "made")
		if len(got) != 2 || got[0].Content != welcomeGreeting || got[1].Content != "Read #**general** first." {
			t.Fatalf("the new user's Welcome Bot messages = %+v, want the greeting and the organization's text", got)
		}
		if !slices.Contains(*got[0].Flags, "starred") || slices.Contains(*got[1].Flags, "starred") {
			t.Errorf("flags of the greeting %v and of the custom message %v, want the greeting alone starred", *got[0].Flags, *got[1].Flags)
		}
		for _, c := range []struct {
			name, email string
			text        *string
			want        []string
		}{
			{"invitation text", "joiner@example.com", ptr("Hello from the invitation."), []string{welcomeGreeting, "Hello from the invitation."}},
			{"empty invitation text", "quiet@example.com", ptr(""), []string{welcomeGreeting}},
		} {
			link, err := f.svc.CreateInviteLink(ctx, f.actor("admin"), chat.CreateInviteLinkParams{WelcomeMessageCustomText: c.text})
			if err != nil {
				t.Fatal(err)
			}
			res, err := f.svc.RedeemInviteLink(ctx, chat.RedeemInviteLinkParams{Key: link.InviteLink, Email: c.email, FullName: "Joiner"})
			if err != nil {
				t.Fatal(err)
			}
			f.ids[c.email] = res.UserID
			var got []string
			for _, m := range welcomeMessages(t, f, c.email) {
				got = append(got, m.Content)
			}
			if strings.Join(got, "|") != strings.Join(c.want, "|") {
				t.Errorf("%s: Welcome Bot messages %q, want %q", c.name, got, c.want)
			}
		}
	})
}

// welcomeGreeting is the Welcome Bot's greeting to a new member, as Zulip words it (its
// trailing space dropped, as every message's content).
const welcomeGreeting = "Hello, and welcome to Zulip!👋 \n\n\nTo learn more, check out our " +
	"[getting started guide](https://zulip.com/help/getting-started-with-zulip)!"

// welcomeConsistencyCases cover the Welcome Bot's messages.
func welcomeConsistencyCases() []consistencyCase {
	return []consistencyCase{
		{method: "TestWelcomeBotCustomMessage", name: "to the acting administrator", run: func(t *testing.T, f *fixture) {
			mustDo(t, "TestWelcomeBotCustomMessage", errOf(f.svc.TestWelcomeBotCustomMessage(t.Context(), f.actor("admin"), chat.TestWelcomeBotCustomMessageParams{WelcomeMessageCustomText: "Welcome, **all**!"})))
		}},
	}
}
