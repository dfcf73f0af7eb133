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
//	  "groups": [{"name": "builders", "description": "...", "members": ["ada@acme.test"]}]
//	}
//
// role is 100 owner, 200 administrator, 300 moderator, 400 member (default), 600 guest;
// bot_type is 1 generic, 2 incoming webhook, 3 outgoing webhook, 4 embedded. A channel is
// created by its creator (default: the first owner of the seed) with exactly its subscribers
// (users or bots); default makes it a default channel for new users. Groups are created by the
// first owner.
type Seed struct {
	Organization Organization `json:"organization"`
	Users        []User       `json:"users"`
	Bots         []Bot        `json:"bots"`
	Channels     []Channel    `json:"channels"`
	Groups       []Group      `json:"groups"`
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
}

// Organization describes the organization of a seed.
type Organization struct {
	Name                   string                `json:"name"`
	Description            string                `json:"description"`
	IconURL                string                `json:"icon_url"`
	EmailAddressVisibility users.EmailVisibility `json:"email_address_visibility"`
	EnableSpectatorAccess  bool                  `json:"enable_spectator_access"`
}

// User is a human of a seed.
type User struct {
	Email    string     `json:"email"`
	FullName string     `json:"full_name"`
	Role     users.Role `json:"role"`
	Password string     `json:"password"`
	Timezone string     `json:"timezone"`
	APIKey   string     `json:"api_key"`
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
	})
	if err != nil {
		return nil, fmt.Errorf("seed organization: %w", err)
	}
	ids := map[string]users.ID{}
	accounts := make([]Account, 0, len(s.Users)+len(s.Bots))
	for _, u := range s.Users {
		res, err := svc.ProvisionUser(ctx, chat.ProvisionUserParams{
			Email: u.Email, FullName: u.FullName, Role: u.Role, Password: u.Password,
			Timezone: u.Timezone, APIKey: u.APIKey,
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

// applyChannelsAndGroups creates the seed's channels and groups as its users.
func (s *Seed) applyChannelsAndGroups(ctx context.Context, svc *chat.Service, ids map[string]users.ID) error {
	if len(s.Channels) == 0 && len(s.Groups) == 0 {
		return nil
	}
	var owner users.ID
	for _, u := range s.Users {
		if u.Role == users.RoleOwner {
			owner = ids[users.NormalizeEmail(u.Email)]
			break
		}
	}
	lookup := func(what string, emails []string) ([]users.ID, error) {
		out := make([]users.ID, 0, len(emails))
		for _, e := range emails {
			id, ok := ids[users.NormalizeEmail(e)]
			if !ok {
				return nil, fmt.Errorf("%s: %q is not a user of the seed", what, e)
			}
			out = append(out, id)
		}
		return out, nil
	}
	for _, c := range s.Channels {
		creator := owner
		if c.Creator != "" {
			list, err := lookup("seed channel "+c.Name+" creator", []string{c.Creator})
			if err != nil {
				return err
			}
			creator = list[0]
		}
		if creator == 0 {
			return fmt.Errorf("seed channel %s: no creator (name one, or give the seed an owner)", c.Name)
		}
		subscribers, err := lookup("seed channel "+c.Name, c.Subscribers)
		if err != nil {
			return err
		}
		if _, err := svc.CreateChannel(ctx, chat.Actor{UserID: creator}, chat.CreateChannelParams{
			Name: c.Name, Description: c.Description, Subscribers: subscribers,
			NewChannelSettings: chat.NewChannelSettings{InviteOnly: c.InviteOnly, IsWebPublic: c.IsWebPublic, IsDefaultStream: c.Default},
		}); err != nil {
			return fmt.Errorf("seed channel %s: %w", c.Name, err)
		}
	}
	for _, g := range s.Groups {
		if owner == 0 {
			return fmt.Errorf("seed group %s: the seed has no owner to create it", g.Name)
		}
		members, err := lookup("seed group "+g.Name, g.Members)
		if err != nil {
			return err
		}
		if _, err := svc.CreateUserGroup(ctx, chat.Actor{UserID: owner}, chat.CreateUserGroupParams{
			Name: g.Name, Description: g.Description, Members: members,
		}); err != nil {
			return fmt.Errorf("seed group %s: %w", g.Name, err)
		}
	}
	return nil
}
