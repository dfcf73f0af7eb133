package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/users"
)

// Seed is the JSON seed file of --seed: an organization with its users and bots.
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
// created by its creator (default: the first owner of the seed) with exactly its subscribers;
// default makes it a default channel for new users. Groups are created by the first owner.
type Seed struct {
	Organization SeedOrganization `json:"organization"`
	Users        []SeedUser       `json:"users"`
	Bots         []SeedBot        `json:"bots"`
	Channels     []SeedChannel    `json:"channels"`
	Groups       []SeedGroup      `json:"groups"`
}

// SeedChannel is a channel of a seed.
type SeedChannel struct {
	Name        string   `json:"name"`
	Description string   `json:"description"`
	InviteOnly  bool     `json:"invite_only"`
	IsWebPublic bool     `json:"is_web_public"`
	Default     bool     `json:"default"`
	Creator     string   `json:"creator"`
	Subscribers []string `json:"subscribers"`
}

// SeedGroup is a user group of a seed.
type SeedGroup struct {
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Members     []string `json:"members"`
}

// SeedOrganization describes the organization of a seed.
type SeedOrganization struct {
	Name                   string                `json:"name"`
	Description            string                `json:"description"`
	IconURL                string                `json:"icon_url"`
	EmailAddressVisibility users.EmailVisibility `json:"email_address_visibility"`
	EnableSpectatorAccess  bool                  `json:"enable_spectator_access"`
}

// SeedUser is a human of a seed.
type SeedUser struct {
	Email    string     `json:"email"`
	FullName string     `json:"full_name"`
	Role     users.Role `json:"role"`
	Password string     `json:"password"`
	Timezone string     `json:"timezone"`
	APIKey   string     `json:"api_key"`
}

// SeedBot is a bot of a seed, owned by one of its users.
type SeedBot struct {
	Email    string        `json:"email"`
	FullName string        `json:"full_name"`
	BotType  users.BotType `json:"bot_type"`
	Owner    string        `json:"owner"`
	APIKey   string        `json:"api_key"`
}

// maxSeedBytes bounds a seed file.
const maxSeedBytes = 64 << 20

// loadSeed reads and strictly decodes a seed file.
func loadSeed(path string) (*Seed, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if len(data) > maxSeedBytes {
		return nil, fmt.Errorf("seed %s: larger than %d bytes", path, maxSeedBytes)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var s Seed
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf("seed %s: %w", path, err)
	}
	return &s, nil
}

// apply creates the organization, users and bots through the Service. It does nothing when
// the store already holds an organization.
func (s *Seed) apply(ctx context.Context, svc *chat.Service, realmURL string) error {
	_, err := svc.CreateOrganization(ctx, chat.CreateOrganizationParams{
		Name:                  s.Organization.Name,
		Description:           s.Organization.Description,
		URL:                   realmURL,
		IconURL:               s.Organization.IconURL,
		EmailVisibility:       s.Organization.EmailAddressVisibility,
		EnableSpectatorAccess: s.Organization.EnableSpectatorAccess,
	})
	if errors.Is(err, chat.ErrOrganizationExists) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("seed organization: %w", err)
	}
	ids := map[string]users.ID{}
	for _, u := range s.Users {
		res, err := svc.ProvisionUser(ctx, chat.ProvisionUserParams{
			Email: u.Email, FullName: u.FullName, Role: u.Role, Password: u.Password,
			Timezone: u.Timezone, APIKey: u.APIKey,
		})
		if err != nil {
			return fmt.Errorf("seed user %s: %w", u.Email, err)
		}
		ids[users.NormalizeEmail(u.Email)] = res.UserID
	}
	for _, b := range s.Bots {
		owner, ok := ids[users.NormalizeEmail(b.Owner)]
		if !ok && b.Owner != "" {
			return fmt.Errorf("seed bot %s: owner %q is not a user of the seed", b.Email, b.Owner)
		}
		if b.BotType == users.NotBot {
			b.BotType = users.BotGeneric
		}
		if _, err := svc.ProvisionUser(ctx, chat.ProvisionUserParams{
			Email: b.Email, FullName: b.FullName, BotType: b.BotType, BotOwnerID: owner, APIKey: b.APIKey,
		}); err != nil {
			return fmt.Errorf("seed bot %s: %w", b.Email, err)
		}
	}
	return s.applyChannelsAndGroups(ctx, svc, ids)
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
