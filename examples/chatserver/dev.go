package main

import "github.com/teamchat/chat/users"

// devSeed mirrors Zulip's development organization: the realm "Zulip Dev" with its users,
// roles, time zones and bots, emails visible to administrators only. Every human has the
// password given by --dev-password.
func devSeed(password string) *Seed {
	human := func(name, email string, role users.Role, tz string) SeedUser {
		return SeedUser{Email: email, FullName: name, Role: role, Password: password, Timezone: tz}
	}
	return &Seed{
		Organization: SeedOrganization{
			Name:                   "Zulip Dev",
			Description:            "The Zulip development environment default organization.  It's great for testing!",
			EmailAddressVisibility: users.EmailVisibleAdmins,
			EnableSpectatorAccess:  true,
		},
		Users: []SeedUser{
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
		Bots: []SeedBot{
			{Email: "default-bot@zulip.com", FullName: "Zulip Default Bot", BotType: users.BotGeneric, Owner: "desdemona@zulip.com"},
			{Email: "webhook-bot@zulip.com", FullName: "Zulip Webhook Bot", BotType: users.BotIncomingWebhook, Owner: "ZOE@zulip.com"},
			{Email: "outgoing-webhook@zulip.com", FullName: "Outgoing Webhook", BotType: users.BotOutgoingWebhook, Owner: "AARON@zulip.com"},
		},
	}
}
