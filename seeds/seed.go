package seeds

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/users"
)

// Seed describes an organization with its users, bots, channels and groups; its JSON form is
// the seed file of `chatserver serve --seed`:
//
//	{
//	  "organization": {"name": "Acme", "description": "Markdown", "email_address_visibility": 1,
//	                   "enable_spectator_access": false},
//	  "users": [{"email": "ada@acme.test", "full_name": "Ada", "role": 100, "password": "...",
//	             "timezone": "Europe/London", "api_key": "optional 32 alphanumerics"}],
//	  "bots":  [{"email": "bot@acme.test", "full_name": "Build Bot", "bot_type": 1,
//	             "owner": "ada@acme.test", "api_key": "optional"}],
//	  "channels": [{"name": "general", "description": "Markdown", "invite_only": false,
//	                "is_web_public": false, "default": true, "creator": "ada@acme.test",
//	                "subscribers": ["ada@acme.test"]}],
//	  "groups": [{"name": "builders", "description": "...", "members": ["ada@acme.test"],
//	              "creator": "optional, default the first owner"}],
//	  "profile_fields": [{"name": "Phone number", "field_type": 1, "hint": "",
//	                      "field_data": "JSON text, for select and external account fields"}],
//	  "linkifiers": [{"pattern": "#(?P<id>[0-9]+)", "url_template": "https://example.com/{id}"}],
//	  "drafts": [{"user": "ada@acme.test", "channel": "optional", "topic": "", "content": "..."}],
//	  "scheduled_messages": [{"sender": "ada@acme.test", "channel": "general", "topic": "t",
//	                          "to": ["emails, for a direct message"], "content": "...", "in_days": 7}]
//	}
//
// The organization may also carry "reserved_user_ids" (user ids left unused before the first
// user), "settings" (organization settings by name, as PATCH /realm takes them) and
// "user_defaults" (PATCH /realm/user_settings_defaults).
// A user may also carry "can_create_users", "can_change_user_emails", "settings" (PATCH
// /settings), "present" (a presence row, as of the time the seed is applied) and "profile":
// [{"field": "Phone number",
// "value": "+1-234"}, {"field": "Mentor", "users": ["ada@acme.test"]}] (user fields name users
// by email).
//
// role is 100 owner, 200 administrator, 300 moderator, 400 member (default), 600 guest;
// bot_type is 1 generic, 2 incoming webhook, 3 outgoing webhook, 4 embedded. A channel is
// created by its creator (default: the first owner of the seed) with exactly its subscribers
// (users or bots); default makes it a default channel for new users. Groups are created by
// their creator (default: the first owner), profile fields and linkifiers by the first owner.
// Every object is created in the seed's order, so ids follow it.
type Seed struct {
	Organization  Organization   `json:"organization"`
	Users         []User         `json:"users"`
	Bots          []Bot          `json:"bots"`
	Channels      []Channel      `json:"channels"`
	Groups        []Group        `json:"groups"`
	ProfileFields []ProfileField `json:"profile_fields"`
	Linkifiers    []Linkifier    `json:"linkifiers"`
	Drafts        []Draft        `json:"drafts"`
	// ScheduledMessages are scheduled in order, after the channels exist.
	ScheduledMessages []ScheduledMessage `json:"scheduled_messages"`
}

// ProfileField is a custom profile field of a seed.
type ProfileField struct {
	Name string                 `json:"name"`
	Type users.ProfileFieldType `json:"field_type"`
	Hint string                 `json:"hint"`
	// FieldData is the JSON text of a select field's choices or an external account's subtype.
	FieldData string `json:"field_data"`
}

// ProfileValue is a user's value of a profile field of the seed, named by its name: Value for
// the text, select (the choice's key), date and URL kinds, Users (emails) for user fields.
type ProfileValue struct {
	Field string   `json:"field"`
	Value string   `json:"value"`
	Users []string `json:"users"`
}

// Linkifier is a linkifier of a seed.
type Linkifier struct {
	Pattern     string `json:"pattern"`
	URLTemplate string `json:"url_template"`
}

// Channel is a channel of a seed.
type Channel struct {
	Name        string   `json:"name"`
	Description string   `json:"description"`
	InviteOnly  bool     `json:"invite_only"`
	IsWebPublic bool     `json:"is_web_public"`
	Default     bool     `json:"default"`
	Creator     string   `json:"creator"`
	Subscribers []string `json:"subscribers"`
}

// Group is a user group of a seed.
type Group struct {
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Members     []string `json:"members"`
	Creator     string   `json:"creator"`
}

// Organization describes the organization of a seed.
type Organization struct {
	Name                   string                `json:"name"`
	Description            string                `json:"description"`
	IconURL                string                `json:"icon_url"`
	EmailAddressVisibility users.EmailVisibility `json:"email_address_visibility"`
	EnableSpectatorAccess  bool                  `json:"enable_spectator_access"`
	// ReservedUserIDs keeps user ids 1 to ReservedUserIDs unused: the first user gets the next.
	ReservedUserIDs users.ID `json:"reserved_user_ids"`
	// Settings are organization settings by name (PATCH /realm), UserDefaults the defaults of
	// new users' settings (PATCH /realm/user_settings_defaults), set by the first owner.
	Settings     map[string]any `json:"settings"`
	UserDefaults map[string]any `json:"user_defaults"`
	// ModerationRequestChannel names the private channel of the seed that receives message
	// reports (the setting moderation_request_channel_id); empty: none.
	ModerationRequestChannel string `json:"moderation_request_channel"`
}

// User is a human of a seed.
type User struct {
	Email    string     `json:"email"`
	FullName string     `json:"full_name"`
	Role     users.Role `json:"role"`
	Password string     `json:"password"`
	Timezone string     `json:"timezone"`
	APIKey   string     `json:"api_key"`
	// CanCreateUsers and CanChangeUserEmails grant the special permissions of those names.
	CanCreateUsers      bool `json:"can_create_users"`
	CanChangeUserEmails bool `json:"can_change_user_emails"`
	// Present gives the user a presence row (active, at the time the seed is applied).
	Present bool           `json:"present"`
	Profile []ProfileValue `json:"profile"`
	// Settings are the user's own settings by name (PATCH /settings).
	Settings map[string]any `json:"settings"`
}

// Draft is a draft of a user of the seed: in a channel's topic, or without recipients (then
// the server keeps no topic).
type Draft struct {
	User    string `json:"user"`
	Channel string `json:"channel"`
	Topic   string `json:"topic"`
	Content string `json:"content"`
}

// ScheduledMessage is a scheduled message of a user of the seed: to a channel's topic, or
// directly to users (emails); due InDays days after the seed is applied (by the Service's
// clock).
type ScheduledMessage struct {
	Sender  string   `json:"sender"`
	Channel string   `json:"channel"`
	Topic   string   `json:"topic"`
	To      []string `json:"to"`
	Content string   `json:"content"`
	InDays  int      `json:"in_days"`
}

// Bot is a bot of a seed, owned by one of its users.
type Bot struct {
	Email    string        `json:"email"`
	FullName string        `json:"full_name"`
	BotType  users.BotType `json:"bot_type"`
	Owner    string        `json:"owner"`
	APIKey   string        `json:"api_key"`
}

// MaxFileBytes bounds a seed file.
const MaxFileBytes = 64 << 20

// Load reads and strictly decodes a seed file (unknown fields are errors).
func Load(path string) (*Seed, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if len(data) > MaxFileBytes {
		return nil, fmt.Errorf("seed %s: larger than %d bytes", path, MaxFileBytes)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	dec.UseNumber()
	var s Seed
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf("seed %s: %w", path, err)
	}
	return &s, nil
}

// Account is a user or bot that Apply created.
type Account struct {
	ID       users.ID
	Email    string // as the seed spells it
	FullName string
	Role     users.Role
	BotType  users.BotType // users.NotBot for humans
	APIKey   string
	Password string // empty for bots and users without one
}

// Apply creates the organization at realmURL, then its users, bots, channels and groups,
// through the Service's operations (so the result is what those operations make, events and
// notices included). It returns the accounts it created, users first, in the seed's order. On
// a store that already holds an organization it changes nothing and returns an error matching
// chat.ErrOrganizationExists.
func (s *Seed) Apply(ctx context.Context, svc *chat.Service, realmURL string) ([]Account, error) {
	_, err := svc.CreateOrganization(ctx, chat.CreateOrganizationParams{
		Name:                  s.Organization.Name,
		Description:           s.Organization.Description,
		URL:                   realmURL,
		IconURL:               s.Organization.IconURL,
		EmailVisibility:       s.Organization.EmailAddressVisibility,
		EnableSpectatorAccess: s.Organization.EnableSpectatorAccess,
		ReservedUserIDs:       s.Organization.ReservedUserIDs,
	})
	if err != nil {
		return nil, fmt.Errorf("seed organization: %w", err)
	}
	ids := accountIDs{}
	accounts := make([]Account, 0, len(s.Users)+len(s.Bots))
	for _, u := range s.Users {
		res, err := svc.ProvisionUser(ctx, chat.ProvisionUserParams{
			Email: u.Email, FullName: u.FullName, Role: u.Role, Password: u.Password,
			Timezone: u.Timezone, APIKey: u.APIKey,
			CanCreateUsers: u.CanCreateUsers, CanChangeUserEmails: u.CanChangeUserEmails,
		})
		if err != nil {
			return nil, fmt.Errorf("seed user %s: %w", u.Email, err)
		}
		ids[users.NormalizeEmail(u.Email)] = res.UserID
		role := u.Role
		if role == 0 {
			role = users.RoleMember
		}
		accounts = append(accounts, Account{ID: res.UserID, Email: u.Email, FullName: u.FullName, Role: role,
			APIKey: res.APIKey, Password: u.Password})
	}
	for _, b := range s.Bots {
		owner, ok := ids[users.NormalizeEmail(b.Owner)]
		if !ok && b.Owner != "" {
			return nil, fmt.Errorf("seed bot %s: owner %q is not a user of the seed", b.Email, b.Owner)
		}
		if b.BotType == users.NotBot {
			b.BotType = users.BotGeneric
		}
		res, err := svc.ProvisionUser(ctx, chat.ProvisionUserParams{
			Email: b.Email, FullName: b.FullName, BotType: b.BotType, BotOwnerID: owner, APIKey: b.APIKey,
		})
		if err != nil {
			return nil, fmt.Errorf("seed bot %s: %w", b.Email, err)
		}
		ids[users.NormalizeEmail(b.Email)] = res.UserID // bots may subscribe and join groups
		accounts = append(accounts, Account{ID: res.UserID, Email: b.Email, FullName: b.FullName,
			Role: users.RoleMember, BotType: b.BotType, APIKey: res.APIKey})
	}
	if err := s.applyChannelsAndGroups(ctx, svc, ids); err != nil {
		return nil, err
	}
	if err := s.applyRealmData(ctx, svc, ids); err != nil {
		return nil, err
	}
	if err := s.applyModerationChannel(ctx, svc, ids); err != nil {
		return nil, err
	}
	if err := s.applyUserData(ctx, svc, ids); err != nil {
		return nil, err
	}
	if err := s.applyMessages(ctx, svc, ids); err != nil {
		return nil, err
	}
	return accounts, nil
}

// HasFixedAPIKey reports whether the seed gives email's user or bot an explicit API key (so
// that every store provisioned from it gives that account the same key).
func (s *Seed) HasFixedAPIKey(email string) bool {
	want := users.NormalizeEmail(email)
	for _, u := range s.Users {
		if users.NormalizeEmail(u.Email) == want {
			return u.APIKey != ""
		}
	}
	for _, b := range s.Bots {
		if users.NormalizeEmail(b.Email) == want {
			return b.APIKey != ""
		}
	}
	return false
}
