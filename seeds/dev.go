package seeds

import (
	"crypto/sha256"

	"github.com/teamchat/chat/users"
)

// DevPassword is the default password of the development organization's users.
const DevPassword = "devpassword"

// Dev mirrors Zulip's development organization: the realm "Zulip Dev" with its users, roles,
// time zones and bots, its test-suite channels and the group hamletcharacters, emails visible
// to administrators only. It is the organization of `chatserver serve --dev` and of
// chattest.NewDev. Every human has the given password. Every API key is derived from the
// email and that password (DevAPIKey), so `chatserver zuliprc --dev` can write a working
// .zuliprc for a memory-store server it cannot reach.
func Dev(password string) *Seed {
	human := func(name, email string, role users.Role, tz string) User {
		return User{Email: email, FullName: name, Role: role, Password: password, Timezone: tz,
			APIKey: DevAPIKey(email, password)}
	}
	bot := func(email, name string, t users.BotType, owner string) Bot {
		return Bot{Email: email, FullName: name, BotType: t, Owner: owner, APIKey: DevAPIKey(email, password)}
	}
	return &Seed{
		Organization: Organization{
			Name:                   "Zulip Dev",
			Description:            "The Zulip development environment default organization.  It's great for testing!",
			EmailAddressVisibility: users.EmailVisibleAdmins,
			EnableSpectatorAccess:  true,
		},
		Users: []User{
			human("Zoe", "ZOE@zulip.com", users.RoleMember, "US/Eastern"),
			human("Othello, the Moor of Venice", "othello@zulip.com", users.RoleMember, "US/Pacific"),
			human("Iago", "iago@zulip.com", users.RoleAdministrator, "US/Eastern"),
			human("Prospero from The Tempest", "prospero@zulip.com", users.RoleMember, ""),
			human("Cordelia, Lear's daughter", "cordelia@zulip.com", users.RoleMember, "UTC"),
			human("King Hamlet", "hamlet@zulip.com", users.RoleMember, ""),
			human("aaron", "AARON@zulip.com", users.RoleMember, "US/Pacific"),
			human("Polonius", "polonius@zulip.com", users.RoleGuest, "Asia/Shanghai"),
			human("Desdemona", "desdemona@zulip.com", users.RoleOwner, "Canada/Newfoundland"),
			human("शिव", "shiva@zulip.com", users.RoleModerator, "Asia/Kolkata"),
		},
		Bots: []Bot{
			bot("default-bot@zulip.com", "Zulip Default Bot", users.BotGeneric, "desdemona@zulip.com"),
			bot("webhook-bot@zulip.com", "Zulip Webhook Bot", users.BotIncomingWebhook, "ZOE@zulip.com"),
			bot("outgoing-webhook@zulip.com", "Outgoing Webhook", users.BotOutgoingWebhook, "AARON@zulip.com"),
		},
		Channels: devChannels(),
		Groups: []Group{{Name: "hamletcharacters", Description: "Characters of Hamlet",
			Members: []string{"cordelia@zulip.com", "hamlet@zulip.com"}}},
	}
}

// devChannels are the channels of Zulip's test-suite database with its subscriptions.
func devChannels() []Channel {
	subscribed := map[string][]string{
		"Verona":    {"AARON@zulip.com", "cordelia@zulip.com", "hamlet@zulip.com", "iago@zulip.com", "othello@zulip.com", "prospero@zulip.com", "ZOE@zulip.com", "polonius@zulip.com", "desdemona@zulip.com", "shiva@zulip.com"},
		"Denmark":   {"hamlet@zulip.com", "iago@zulip.com", "othello@zulip.com", "prospero@zulip.com", "ZOE@zulip.com", "desdemona@zulip.com", "shiva@zulip.com"},
		"Scotland":  {"iago@zulip.com", "othello@zulip.com", "prospero@zulip.com", "ZOE@zulip.com", "shiva@zulip.com"},
		"Venice":    {"prospero@zulip.com", "ZOE@zulip.com", "desdemona@zulip.com"},
		"Rome":      {"ZOE@zulip.com"},
		"core team": {"hamlet@zulip.com", "iago@zulip.com", "desdemona@zulip.com"},
		"Zulip":     {"hamlet@zulip.com", "iago@zulip.com", "desdemona@zulip.com"},
		"sandbox":   {"hamlet@zulip.com", "iago@zulip.com", "desdemona@zulip.com"},
	}
	ch := func(name, description string) Channel {
		return Channel{Name: name, Description: description, Creator: "desdemona@zulip.com", Subscribers: subscribed[name]}
	}
	verona := ch("Verona", "A city in Italy")
	verona.Default = true
	core := ch("core team", "A private channel for core team members")
	core.InviteOnly = true
	rome := ch("Rome", "Yet another Italian city")
	rome.IsWebPublic = true
	return []Channel{
		verona, core,
		ch("Zulip", "Questions and discussion about using Zulip."),
		ch("sandbox", "Experiment with Zulip here. :test_tube:"),
		ch("Denmark", "A Scandinavian country"),
		ch("Scotland", "Located in the United Kingdom"),
		ch("Venice", "A northeastern Italian city"),
		rome,
	}
}

// DevAPIKey derives a dev user's API key from the email (case-insensitively) and the dev
// password. Dev keys are no secret: --dev also serves POST /dev_fetch_api_key, which hands any
// user's key to anyone. Never use --dev for a server others can reach.
func DevAPIKey(email, password string) string {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	sum := sha256.Sum256([]byte("teamchat dev api key\x00" + users.NormalizeEmail(email) + "\x00" + password))
	key := make([]byte, users.APIKeyLength)
	for i := range key {
		key[i] = alphabet[int(sum[i])%len(alphabet)]
	}
	return string(key)
}
