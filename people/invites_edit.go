package people

import (
	"context"
	"errors"
	"slices"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// EditInviteLinkParams are the parameters of PATCH /invites/multiuse/{invite_id}: each nil
// field leaves that part of the invitation as it is.
type EditInviteLinkParams struct {
	InviteID                         users.InviteID
	InviteAs                         *users.Role
	StreamIDs                        *[]channels.ID
	GroupIDs                         *[]users.GroupID
	IncludeRealmDefaultSubscriptions *bool
	// WelcomeMessageCustomText is honoured for administrators only; ClearWelcomeMessage sets
	// it back to the organization's default (JSON null).
	WelcomeMessageCustomText *string
	ClearWelcomeMessage      bool
}

// EditInviteLinkResult is empty.
type EditInviteLinkResult struct{}

// EditInviteLink changes what a reusable invitation link grants (Zulip's edit-invite-link):
// the role, channels and groups of the users who join through it, whether they also join the
// default channels, and the Welcome Bot's custom text. The requester must be allowed to create
// links; a link of someone else needs an administrator (an owner for a link inviting owners).
// The new terms pass the checks of a new link's (CreateInviteLink). A revoked or expired link
// cannot be edited. Administrators and the link's creator receive invites_changed.
func (s *Service) EditInviteLink(ctx context.Context, actor engine.Actor, p EditInviteLinkParams) (EditInviteLinkResult, error) {
	if p.StreamIDs != nil && len(*p.StreamIDs) > users.MaxInviteChannels || p.GroupIDs != nil && len(*p.GroupIDs) > users.MaxInviteGroups {
		return EditInviteLinkResult{}, engine.BadRequest("Too many channels or groups (limit: %d)", users.MaxInviteChannels)
	}
	if p.InviteAs != nil && !p.InviteAs.Valid() {
		return EditInviteLinkResult{}, engine.InvalidArgument("invite_as", "")
	}
	err := s.eng.Mutate(ctx, actor, engine.Members, func(o *engine.WriteOp) error {
		tx, me, w := o.Tx, o.Me, o.World()
		if !w.Membership().Allows(users.Named(w.GroupID(s.inviteGroupName())), me.ID) {
			return engine.BadRequest(engine.MsgInsufficientPerm)
		}
		inv, err := editableInvite(tx, p.InviteID, o.Now.Unix())
		if err != nil {
			return err
		}
		if inv.InvitedBy != me.ID {
			if inv.InvitedAs == users.RoleOwner && me.Role != users.RoleOwner {
				return engine.ErrMustBeOwner()
			}
			if !me.Role.IsAdmin() {
				return engine.ErrMustBeAdmin()
			}
		}
		base := editedTerms(inv, p)
		streams := idsOf[channels.ID](base.ChannelIDs)
		if p.StreamIDs == nil {
			streams = nil // the channels the link keeps are not checked again
		}
		groups := base.GroupIDs
		if p.GroupIDs == nil {
			groups = nil
		}
		checked, err := s.checkInvite(tx, w, me, base, streams, groups)
		if err != nil {
			return err
		}
		if p.WelcomeMessageCustomText == nil && !p.ClearWelcomeMessage || !me.Role.IsAdmin() {
			checked.WelcomeMessageCustomText = inv.WelcomeMessageCustomText
		}
		checked.ID = inv.ID
		if err := tx.Invites().Edit(checked); err != nil {
			return err
		}
		return notifyInvitesChanged(tx, o.Ev, inv.InvitedBy)
	})
	return EditInviteLinkResult{}, err
}

// editableInvite is the reusable link id names, unless it is revoked or expired.
func editableInvite(tx storage.Tx, id users.InviteID, now int64) (users.Invite, error) {
	inv, err := tx.Invites().Get(id)
	switch {
	case errors.Is(err, storage.ErrNotFound) || err == nil && !inv.IsMultiuse():
		return inv, engine.BadRequest("No such invitation")
	case err != nil:
		return inv, err
	case inv.Revoked:
		return inv, engine.BadRequest("Invitation has already been revoked")
	case inv.Expired(now):
		return inv, engine.BadRequest("Invitation has expired")
	}
	return inv, nil
}

// editedTerms is inv with the parameters' changes, channels and groups sorted and unique.
func editedTerms(inv users.Invite, p EditInviteLinkParams) users.Invite {
	out := inv.Clone()
	if p.InviteAs != nil {
		out.InvitedAs = *p.InviteAs
	}
	if p.StreamIDs != nil {
		out.ChannelIDs = []int64{}
		for _, id := range sortedIDs(slices.Clone(*p.StreamIDs)) {
			if !slices.Contains(out.ChannelIDs, int64(id)) {
				out.ChannelIDs = append(out.ChannelIDs, int64(id))
			}
		}
	}
	if p.GroupIDs != nil {
		out.GroupIDs = slices.Compact(sortedIDs(slices.Clone(*p.GroupIDs)))
		if out.GroupIDs == nil {
			out.GroupIDs = []users.GroupID{}
		}
	}
	if p.IncludeRealmDefaultSubscriptions != nil {
		out.IncludeRealmDefaultSubscriptions = *p.IncludeRealmDefaultSubscriptions
	}
	switch {
	case p.ClearWelcomeMessage:
		out.WelcomeMessageCustomText = nil
	case p.WelcomeMessageCustomText != nil:
		text := *p.WelcomeMessageCustomText
		out.WelcomeMessageCustomText = &text
	}
	return out
}

// idsOf converts stored ids to typed ones.
func idsOf[T ~int64](ids []int64) []T {
	out := make([]T, len(ids))
	for i, id := range ids {
		out[i] = T(id)
	}
	return out
}
