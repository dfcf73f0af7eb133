package httpapi

import (
	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/users"
)

// createInviteLink serves POST /invites/multiuse.
func (h *Handler) createInviteLink(r *request) (any, error) {
	var p chat.CreateInviteLinkParams
	if raw, ok := r.params.lookup("invite_expires_in_minutes"); ok && trimJSONSpace(raw) == "null" {
		p.NeverExpires = true
	} else {
		n, err := r.params.integer("invite_expires_in_minutes")
		if err != nil {
			return nil, err
		}
		p.InviteExpiresInMinutes = n
	}
	as, err := r.params.integer("invite_as")
	if err != nil {
		return nil, err
	}
	if as != nil {
		p.InviteAs = users.Role(*as)
		if *as == 0 {
			p.InviteAs = -1 // an explicit 0 is not a role
		}
	}
	streams, err := jsonParam[[]channels.ID](r.params, "stream_ids", false)
	if err != nil {
		return nil, err
	}
	if streams != nil {
		p.StreamIDs = *streams
	}
	groups, err := jsonParam[[]users.GroupID](r.params, "group_ids", false)
	if err != nil {
		return nil, err
	}
	if groups != nil {
		p.GroupIDs = *groups
	}
	if p.IncludeRealmDefaultSubscriptions, err = r.params.boolOr("include_realm_default_subscriptions", false); err != nil {
		return nil, err
	}
	p.WelcomeMessageCustomText = r.params.optStr("welcome_message_custom_text")
	return h.svc.CreateInviteLink(r.ctx, r.actor, p)
}

// getInvites serves GET /invites.
func (h *Handler) getInvites(r *request) (any, error) {
	return h.svc.GetInvites(r.ctx, r.actor, chat.GetInvitesParams{})
}

// revokeInviteLink serves DELETE /invites/multiuse/{invite_id}.
func (h *Handler) revokeInviteLink(r *request) (any, error) {
	return h.svc.RevokeInviteLink(r.ctx, r.actor, chat.RevokeInviteLinkParams{InviteID: users.InviteID(draftsPathInt(r, "invite_id"))})
}
