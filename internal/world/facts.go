package world

import (
	"strconv"
	"time"

	"github.com/teamchat/chat/linkifiers"
	"github.com/teamchat/chat/markdown"
	"github.com/teamchat/chat/users"
	"strings"
)

// NotificationBotID is the id of the notification bot, Zulip's cross-realm system bot that
// posts the server's own notices (new channels, subscriptions by others). It is not stored
// with the organization's users: it is listed in register's cross_realm_bots and known to every
// world, under an id far above the ids the store hands out. The other system bots follow it
// downwards.
const NotificationBotID users.ID = 1<<31 - 1

// WelcomeBotID is the id of the Welcome Bot (welcome-bot@zulip.com), the system bot that sends
// new users the organization's welcome message.
const WelcomeBotID users.ID = 1<<31 - 2

// EmailGatewayBotID is the id of the Email Gateway bot (emailgateway@zulip.com), the system bot
// that posts the emails a channel's email address receives.
const EmailGatewayBotID users.ID = 1<<31 - 3

// NotificationBot is the notification bot's record.
func NotificationBot() users.User {
	return systemBot(NotificationBotID, "notification-bot@zulip.com", "Notification Bot")
}

// WelcomeBot is the Welcome Bot's record.
func WelcomeBot() users.User { return systemBot(WelcomeBotID, "welcome-bot@zulip.com", "Welcome Bot") }

// EmailGatewayBot is the Email Gateway bot's record.
func EmailGatewayBot() users.User {
	return systemBot(EmailGatewayBotID, "emailgateway@zulip.com", "Email Gateway")
}

// SystemBots are Zulip's cross-realm bots (settings.CROSS_REALM_BOT_EMAILS) in the order Zulip
// creates them: register's cross_realm_bots.
func SystemBots() []users.User {
	return []users.User{EmailGatewayBot(), NotificationBot(), WelcomeBot()}
}

// IsSystemBot reports whether id is one of the system bots.
func IsSystemBot(id users.ID) bool {
	return id == NotificationBotID || id == WelcomeBotID || id == EmailGatewayBotID
}

func systemBot(id users.ID, email, name string) users.User {
	return users.User{
		ID: id, Email: email, FullName: name,
		Role: users.RoleMember, BotType: users.BotGeneric, IsActive: true,
		DateJoined: time.Unix(0, 0).UTC(), AvatarSource: users.AvatarGravatar, AvatarVersion: 1,
		EmailVisibility: users.EmailVisibleEveryone,
	}
}

// TrafficWindowDays is the window of a channel's stream_weekly_traffic: the world reads the
// channels' message activity of that many days.
const TrafficWindowDays = 28

// APIEmail is the user's API email, the same for every viewer: the real address when the user
// lets everyone see it (and for bots), else the placeholder user{id}@{domain}, domain being
// the organization's email domain (realms.Realm.EmailDomain: World.EmailDomain,
// engine.Engine.EmailDomain). Who may see the real address reads it from delivery_email.
func APIEmail(domain string, u users.User) string {
	if u.EmailVisibility == users.EmailVisibleEveryone || u.IsBot() {
		return u.Email
	}
	return PlaceholderEmail(domain, u.ID)
}

// PlaceholderEmail is the API-only address of a user whose email is hidden, Zulip's
// get_display_email_address: user{id}@{domain}, domain being the organization's email domain.
func PlaceholderEmail(domain string, id users.ID) string {
	return "user" + strconv.FormatInt(int64(id), 10) + "@" + domain
}

// PlaceholderID parses a placeholder address user{id}@{domain} (PlaceholderEmail),
// case-insensitively.
func PlaceholderID(domain, email string) (users.ID, bool) {
	local, host, ok := strings.Cut(email, "@")
	if !ok || !strings.EqualFold(host, domain) || len(local) < 5 || !strings.EqualFold(local[:4], "user") {
		return 0, false
	}
	digits := local[4:]
	if len(digits) > 18 {
		return 0, false
	}
	n, err := strconv.ParseInt(digits, 10, 64)
	if err != nil || n <= 0 || strconv.FormatInt(n, 10) != digits {
		return 0, false
	}
	return users.ID(n), true
}

// CompileLinkifiers is the organization's linkifiers (all, as the store lists them) for the
// Markdown renderer; nil when there are none. A stored linkifier that no longer passes the
// rules is skipped.
func CompileLinkifiers(all []linkifiers.Linkifier) markdown.Linkify {
	var compiled []*linkifiers.Compiled
	for _, l := range all {
		if c, err := linkifiers.Check(l); err == nil {
			compiled = append(compiled, c)
		}
	}
	if len(compiled) == 0 {
		return nil
	}
	return func(text string) []markdown.Link {
		found := linkifiers.FindLinks(compiled, text)
		out := make([]markdown.Link, len(found))
		for i, m := range found {
			out[i] = markdown.Link{Start: m.Start, End: m.End, URL: m.URL}
		}
		return out
	}
}

// EarlyRendering is a send's content rendered before its transaction (the messages area's,
// while the send waits for its commit group). The world carries it to the send's rendering,
// which takes it when it is finished and exact for the world's linkifiers.
type EarlyRendering interface {
	Take(w *World, content string) (rendered string, mentions markdown.Mentions, ok bool)
}
