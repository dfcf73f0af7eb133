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
//	             "owner": "ada@acme.test", "api_key": "optional"}]
//	}
//
// role is 100 owner, 200 administrator, 300 moderator, 400 member (default), 600 guest;
// bot_type is 1 generic, 2 incoming webhook, 3 outgoing webhook, 4 embedded.
type Seed struct {
	Organization SeedOrganization `json:"organization"`
	Users        []SeedUser       `json:"users"`
	Bots         []SeedBot        `json:"bots"`
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
	return nil
}
