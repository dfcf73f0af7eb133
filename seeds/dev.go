package seeds

import (
	"crypto/sha256"
	"slices"

	"github.com/teamchat/chat/users"
)

// DevPassword is the default password of the development organization's users.
const DevPassword = "devpassword"

// Dev mirrors Zulip's development organization as zilencer's populate_db makes it (the
// deterministic flavour of `populate_db --test-suite`, plus the presence rows of the
// development database): the realm "Zulip Dev", its users with their roles and time zones in
// Zulip's id order, its bots, channels with their subscriptions, the group hamletcharacters,
// the custom profile fields with Iago's and Hamlet's values and the linkifiers, emails visible
// to administrators only, core team as the moderation request channel. Iago also holds the permissions Zulip's tools/test-api gives him
// (can_create_users, can_change_user_emails). It is the organization of `chatserver serve
// --dev` and of chattest.NewDev. Every human has the given password. Every API key is derived
// from the email and that password (DevAPIKey), so `chatserver zuliprc --dev` can write a
// working .zuliprc for a memory-store server it cannot reach.
func Dev(password string) *Seed {
	humans := make([]User, len(devUsers))
	for i, u := range devUsers {
		u.Password, u.APIKey = password, DevAPIKey(u.Email, password)
		u.Present = true
		u.Settings = map[string]any{"enter_sends": true} // populate_db's create_users sets it
		humans[i] = u
	}
	bots := make([]Bot, len(devBots))
	for i, b := range devBots {
		b.APIKey = DevAPIKey(b.Email, password)
		bots[i] = b
	}
	return &Seed{
		Organization: Organization{
			Name:                   "Zulip Dev",
			Description:            "The Zulip development environment default organization.  It's great for testing!",
			EmailAddressVisibility: users.EmailVisibleAdmins,
			EnableSpectatorAccess:  true,
			// Zulip's five system bots (emailgateway, nagios-receive-bot, nagios-send-bot,
			// notification-bot, welcome-bot: realm zulipinternal, created first) hold ids 1-5.
			ReservedUserIDs: 5,
			Settings:        map[string]any{"enable_read_receipts": true},
			UserDefaults:    map[string]any{"enter_sends": true},
			// populate_db makes core team the moderation request channel (for the message
			// report API's curl test, zulip/zulip#32811).
			ModerationRequestChannel: "core team",
		},
		Users:         humans,
		Bots:          bots,
		Channels:      devChannels(),
		Groups:        []Group{{Name: "hamletcharacters", Description: "Characters of Hamlet", Creator: "cordelia@zulip.com", Members: []string{"cordelia@zulip.com", "hamlet@zulip.com"}}},
		ProfileFields: devProfileFields,
		Linkifiers:    devLinkifiers,
		// The cURL examples of Zulip's API documentation edit and delete these.
		Drafts: []Draft{
			{User: "iago@zulip.com", Topic: "Release Notes", Content: "Release 4.0 will contain ..."},
			{User: "iago@zulip.com", Topic: "Release Notes", Content: "Release 4.0 will contain many new features such as ... "},
		},
		ScheduledMessages: []ScheduledMessage{
			{Sender: "iago@zulip.com", Channel: "Denmark", Topic: "test-api", InDays: 365,
				Content: "It's time to celebrate the anniversary of provisioning this development environment :tada:!"},
			{Sender: "iago@zulip.com", To: []string{"iago@zulip.com"}, InDays: 365,
				Content: "Note to self: It's been a while since you've provisioned this development environment."},
		},
	}
}

// devUsers are populate_db's humans in the order Zulip gives them ids: its create_users
// (bulk_create_users) sorts the new accounts by email, byte-wise, so the upper-case AARON
// and ZOE come first. Iago's permissions are those tools/test-api gives him.
var devUsers = []User{
	{Email: "AARON@zulip.com", FullName: "aaron", Role: users.RoleMember, Timezone: "US/Pacific"},
	{Email: "ZOE@zulip.com", FullName: "Zoe", Role: users.RoleMember, Timezone: "US/Eastern"},
	{Email: "cordelia@zulip.com", FullName: "Cordelia, Lear's daughter", Role: users.RoleMember, Timezone: "UTC"},
	{Email: "desdemona@zulip.com", FullName: "Desdemona", Role: users.RoleOwner, Timezone: "Canada/Newfoundland"},
	{Email: "hamlet@zulip.com", FullName: "King Hamlet", Role: users.RoleMember, Profile: []ProfileValue{
		{Field: "Phone number", Value: "+0-11-23-456-7890"},
		{Field: "Biography", Value: "I am:\n* The prince of Denmark\n* Nephew to the usurping Claudius"},
		{Field: "Favorite food", Value: "Dark chocolate"},
		{Field: "Favorite editor", Value: "0"},
		{Field: "Birthday", Value: "1900-01-01"},
		{Field: "Favorite website", Value: "https://blog.zulig.org"},
		{Field: "Mentor", Users: []string{"iago@zulip.com"}},
		{Field: "GitHub username", Value: "zulipbot"},
		{Field: "Pronouns", Value: "he/him"},
	}},
	{Email: "iago@zulip.com", FullName: "Iago", Role: users.RoleAdministrator, Timezone: "US/Eastern",
		CanCreateUsers: true, CanChangeUserEmails: true, Profile: []ProfileValue{
			{Field: "Phone number", Value: "+1-234-567-8901"},
			{Field: "Biography", Value: "Betrayer of Othello."},
			{Field: "Favorite food", Value: "Apples"},
			{Field: "Favorite editor", Value: "1"},
			{Field: "Birthday", Value: "2000-01-01"},
			{Field: "Favorite website", Value: "https://zulip.readthedocs.io/en/latest/"},
			{Field: "Mentor", Users: []string{"hamlet@zulip.com"}},
			{Field: "GitHub username", Value: "zulip"},
			{Field: "Pronouns", Value: "he/him"},
		}},
	{Email: "othello@zulip.com", FullName: "Othello, the Moor of Venice", Role: users.RoleMember, Timezone: "US/Pacific"},
	{Email: "polonius@zulip.com", FullName: "Polonius", Role: users.RoleGuest, Timezone: "Asia/Shanghai"},
	{Email: "prospero@zulip.com", FullName: "Prospero from The Tempest", Role: users.RoleMember},
	{Email: "shiva@zulip.com", FullName: "शिव", Role: users.RoleModerator, Timezone: "Asia/Kolkata"},
}

// devBots are populate_db's bots of the organization, in its order.
var devBots = []Bot{
	{Email: "default-bot@zulip.com", FullName: "Zulip Default Bot", BotType: users.BotGeneric, Owner: "desdemona@zulip.com"},
	{Email: "webhook-bot@zulip.com", FullName: "Zulip Webhook Bot", BotType: users.BotIncomingWebhook, Owner: "ZOE@zulip.com"},
	{Email: "outgoing-webhook@zulip.com", FullName: "Outgoing Webhook", BotType: users.BotOutgoingWebhook, Owner: "AARON@zulip.com"},
}

// devProfileFields are populate_db's custom profile fields, in its order (GitHub username is
// Zulip's default external account field of subtype github).
var devProfileFields = []ProfileField{
	{Name: "Phone number", Type: users.ProfileShortText},
	{Name: "Biography", Type: users.ProfileLongText, Hint: "What are you known for?"},
	{Name: "Favorite food", Type: users.ProfileShortText, Hint: "Or drink, if you'd prefer"},
	{Name: "Favorite editor", Type: users.ProfileSelect, FieldData: `{"0":{"text":"Vim","order":"1"},"1":{"text":"Emacs","order":"2"}}`},
	{Name: "Birthday", Type: users.ProfileDate},
	{Name: "Favorite website", Type: users.ProfileURL, Hint: "Or your personal blog's URL"},
	{Name: "Mentor", Type: users.ProfileUser},
	{Name: "GitHub username", Type: users.ProfileExternalAccount, FieldData: `{"subtype":"github"}`},
	{Name: "Pronouns", Type: users.ProfilePronouns, Hint: "What pronouns should people use to refer to you?"},
}

// devLinkifiers are populate_db's linkifiers, in its order.
var devLinkifiers = []Linkifier{
	{Pattern: "#D(?P<id>[0-9]{2,8})", URLTemplate: "https://github.com/zulip/zulip-desktop/pull/{id}"},
	{Pattern: "zulip-mobile#(?P<id>[0-9]{2,8})", URLTemplate: "https://github.com/zulip/zulip-mobile/pull/{id}"},
	{Pattern: "zulip-(?P<repo>[a-zA-Z-_0-9]+)#(?P<id>[0-9]{2,8})", URLTemplate: "https://github.com/zulip/{repo}/pull/{id}"},
}

// devSubscriptions are the channels of each user in populate_db's test-suite database.
var devSubscriptions = map[string][]string{
	"AARON@zulip.com":     {"Verona"},
	"cordelia@zulip.com":  {"Verona"},
	"hamlet@zulip.com":    {"Verona", "Denmark", "core team", "Zulip", "sandbox"},
	"iago@zulip.com":      {"Verona", "Denmark", "Scotland", "core team", "Zulip", "sandbox"},
	"othello@zulip.com":   {"Verona", "Denmark", "Scotland"},
	"prospero@zulip.com":  {"Verona", "Denmark", "Scotland", "Venice"},
	"ZOE@zulip.com":       {"Verona", "Denmark", "Scotland", "Venice", "Rome"},
	"polonius@zulip.com":  {"Verona"},
	"desdemona@zulip.com": {"Verona", "Denmark", "Venice", "core team", "Zulip", "sandbox"},
	"shiva@zulip.com":     {"Verona", "Denmark", "Scotland"},
}

// devChannels are the channels in the order Zulip creates them: realm creation makes Zulip,
// sandbox and the announcements channel (renamed Verona), all three default channels; then
// populate_db's bulk_create_streams creates the rest sorted by name. A channel without a
// creator in Zulip is created here by Desdemona, the owner (Venice's creator in Zulip,
// Polonius, is a guest, who cannot create channels here).
func devChannels() []Channel {
	ch := func(name, description, creator string) Channel {
		c := Channel{Name: name, Description: description, Creator: creator}
		for _, u := range devUsers {
			if slices.Contains(devSubscriptions[u.Email], name) {
				c.Subscribers = append(c.Subscribers, u.Email)
			}
		}
		return c
	}
	const owner = "desdemona@zulip.com"
	zulip := ch("Zulip", "Questions and discussion about using Zulip.", owner)
	sandbox := ch("sandbox", "Experiment with Zulip here. :test_tube:", owner)
	verona := ch("Verona", "A city in Italy", owner)
	zulip.Default, sandbox.Default, verona.Default = true, true, true
	rome := ch("Rome", "Yet another Italian city", owner)
	rome.IsWebPublic = true
	core := ch("core team", "A private channel for core team members", owner)
	core.InviteOnly = true
	return []Channel{
		zulip, sandbox, verona,
		ch("Denmark", "A Scandinavian country", owner),
		rome,
		ch("Scotland", "Located in the United Kingdom", "iago@zulip.com"),
		ch("Venice", "A northeastern Italian city", owner),
		core,
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

// DevFakeEmailDomain is Zulip's development server's FAKE_EMAIL_DOMAIN: the domain of the
// bots created on a server started with --dev, whose realm host (127.0.0.1 and a port) forms no
// email address.
const DevFakeEmailDomain = "zulipdev.com"
