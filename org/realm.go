package org

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/messages"

	"github.com/teamchat/chat/realms"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// CreateOrganizationParams describe a new organization.
type CreateOrganizationParams struct {
	Name        string
	Description string // Markdown
	URL         string // canonical URL, e.g. http://localhost:9991
	IconURL     string // empty: the default icon
	// EmailVisibility is the default email_address_visibility of new users (default 1,
	// everyone).
	EmailVisibility users.EmailVisibility
	// EnableSpectatorAccess lets unauthenticated clients register for web-public data.
	EnableSpectatorAccess bool
	// DisablePasswordAuth turns POST /fetch_api_key off.
	DisablePasswordAuth bool
	// ReservedUserIDs keeps the user ids 1 to ReservedUserIDs unused, so that the first user
	// gets ReservedUserIDs+1 (Zulip's development organization: its system bots hold 1-5).
	ReservedUserIDs users.ID
}

// MaxReservedUserIDs bounds CreateOrganizationParams.ReservedUserIDs.
// ErrOrganizationExists is returned by CreateOrganization when the store already holds one.
var ErrOrganizationExists = &engine.Error{Code: engine.CodeBadRequest, Msg: "The organization already exists"}

const MaxReservedUserIDs = 1 << 20

// CreateOrganizationResult reports the system groups created with the organization.
type CreateOrganizationResult struct {
	SystemGroups map[string]users.GroupID
}

// CreateOrganization creates the store's organization and its system groups. It is a trusted
// operation (no acting user), used by servers on first start; it fails with BAD_REQUEST when
// the store already holds an organization.
func (s *Service) CreateOrganization(ctx context.Context, p CreateOrganizationParams) (CreateOrganizationResult, error) {
	name := strings.TrimSpace(p.Name)
	if name == "" || len([]rune(name)) > 40 {
		return CreateOrganizationResult{}, engine.InvalidArgument("name", "must be 1 to 40 characters")
	}
	if p.EmailVisibility == 0 {
		p.EmailVisibility = users.EmailVisibleEveryone
	}
	if !p.EmailVisibility.Valid() {
		return CreateOrganizationResult{}, engine.InvalidArgument("email_address_visibility", "")
	}
	if p.ReservedUserIDs < 0 || p.ReservedUserIDs > MaxReservedUserIDs {
		return CreateOrganizationResult{}, engine.InvalidArgument("reserved_user_ids", fmt.Sprintf("must be 0 to %d", MaxReservedUserIDs))
	}
	res := CreateOrganizationResult{SystemGroups: map[string]users.GroupID{}}
	err := s.eng.Mutate(ctx, engine.Actor{}, engine.NoActor, func(o *engine.WriteOp) error {
		now := o.Now
		tx := o.Tx
		if _, err := tx.Realm().Get(); err == nil {
			return ErrOrganizationExists
		} else if !errors.Is(err, storage.ErrNotFound) {
			return err
		}
		for _, sg := range users.SystemGroups() {
			g := users.Group{Name: sg.Name, Description: sg.Description, IsSystemGroup: true, DateCreated: now.Unix()}
			if sg.Subgroup != "" {
				g.Subgroups = []users.GroupID{res.SystemGroups[sg.Subgroup]}
			}
			id, err := tx.Groups().Create(g)
			if err != nil {
				return err
			}
			res.SystemGroups[sg.Name] = id
		}
		r := realms.Realm{
			Name:                   name,
			Description:            p.Description,
			IconURL:                p.IconURL,
			URL:                    strings.TrimRight(p.URL, "/"),
			DateCreated:            now,
			EnableSpectatorAccess:  p.EnableSpectatorAccess,
			DefaultEmailVisibility: p.EmailVisibility,
			PasswordAuthEnabled:    !p.DisablePasswordAuth,
			EmptyTopicDisplayName:  realms.DefaultEmptyTopicDisplayName,

			AllowMessageEditing:                    true,
			MessageContentEditLimitSeconds:         realms.DefaultMessageContentEditLimitSeconds,
			MoveMessagesWithinStreamLimitSeconds:   realms.DefaultMoveMessagesLimitSeconds,
			MoveMessagesBetweenStreamsLimitSeconds: realms.DefaultMoveMessagesLimitSeconds,
			MessageEditHistoryVisibilityPolicy:     string(messages.EditHistoryAll),
		}
		r.ApplyDefaultGroups(func(name string) users.GroupID { return res.SystemGroups[name] })
		if err := tx.Users().ReserveIDs(p.ReservedUserIDs); err != nil {
			return err
		}
		return tx.Realm().Put(r)
	})
	if err != nil {
		return CreateOrganizationResult{}, err
	}
	return res, nil
}
