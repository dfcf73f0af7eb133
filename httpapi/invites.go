package httpapi

import (
	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/users"
)

// createInviteLink serves POST /invites/multiuse.
func (h *Handler) createInviteLink(r *request) (any, error) {
	p, err := inviteParams(r)
	if err != nil {
		return nil, err
	}
	return h.svc.CreateInviteLink(r.ctx, r.actor, p)
}

// sendInvites serves POST /invites: invitee_emails and stream_ids are required.
func (h *Handler) sendInvites(r *request) (any, error) {
	emails, err := r.params.requiredStr("invitee_emails")
	if err != nil {
		return nil, err
	}
	if !r.params.has("stream_ids") {
		return nil, chat.MissingArgument("stream_ids")
	}
	p, err := inviteParams(r)
	if err != nil {
		return nil, err
	}
	notify, err := r.params.boolean("notify_referrer_on_join")
	if err != nil {
		return nil, err
	}
	return h.svc.SendInvites(r.ctx, r.actor, chat.SendInvitesParams{InviteeEmails: emails,
		InviteExpiresInMinutes: p.InviteExpiresInMinutes, NeverExpires: p.NeverExpires, InviteAs: p.InviteAs,
		StreamIDs: p.StreamIDs, GroupIDs: p.GroupIDs, IncludeRealmDefaultSubscriptions: p.IncludeRealmDefaultSubscriptions,
		NotifyReferrerOnJoin: notify, WelcomeMessageCustomText: p.WelcomeMessageCustomText})
}

// inviteParams decodes the parameters both kinds of invitation share.
func inviteParams(r *request) (chat.CreateInviteLinkParams, error) {
	var p chat.CreateInviteLinkParams
	if raw, ok := r.params.lookup("invite_expires_in_minutes"); ok && trimJSONSpace(raw) == "null" {
		p.NeverExpires = true
	} else {
		n, err := r.params.integer("invite_expires_in_minutes")
		if err != nil {
			return p, err
		}
		p.InviteExpiresInMinutes = n
	}
	as, err := r.params.integer("invite_as")
	if err != nil {
		return p, err
	}
	if as != nil {
		role := users.Role(*as)
		p.InviteAs = &role
	}
	streams, err := jsonParam[[]channels.ID](r.params, "stream_ids", false)
	if err != nil {
		return p, err
	}
	if streams != nil {
		p.StreamIDs = *streams
	}
	groups, err := jsonParam[[]users.GroupID](r.params, "group_ids", false)
	if err != nil {
		return p, err
	}
	if groups != nil {
		p.GroupIDs = *groups
	}
	if p.IncludeRealmDefaultSubscriptions, err = r.params.boolOr("include_realm_default_subscriptions", false); err != nil {
		return p, err
	}
	p.WelcomeMessageCustomText = r.params.optStr("welcome_message_custom_text")
	return p, nil
}

// getInvites serves GET /invites.
func (h *Handler) getInvites(r *request) (any, error) {
	return h.svc.GetInvites(r.ctx, r.actor, chat.GetInvitesParams{})
}

// revokeInviteLink serves DELETE /invites/multiuse/{invite_id}.
func (h *Handler) revokeInviteLink(r *request) (any, error) {
	return h.svc.RevokeInviteLink(r.ctx, r.actor, chat.RevokeInviteLinkParams{InviteID: pathID[users.InviteID](r, "invite_id")})
}

// editInviteLink serves PATCH /invites/multiuse/{invite_id}: each parameter given changes
// that part of the link (welcome_message_custom_text null: the organization's default).
func (h *Handler) editInviteLink(r *request) (any, error) {
	p := chat.EditInviteLinkParams{InviteID: pathID[users.InviteID](r, "invite_id")}
	as, err := r.params.integer("invite_as")
	if err != nil {
		return nil, err
	}
	if as != nil {
		role := users.Role(*as)
		p.InviteAs = &role
	}
	if p.StreamIDs, err = jsonParam[[]channels.ID](r.params, "stream_ids", false); err != nil {
		return nil, err
	}
	if p.GroupIDs, err = jsonParam[[]users.GroupID](r.params, "group_ids", false); err != nil {
		return nil, err
	}
	if p.IncludeRealmDefaultSubscriptions, err = r.params.boolean("include_realm_default_subscriptions"); err != nil {
		return nil, err
	}
	if raw, ok := r.params.lookup("welcome_message_custom_text"); ok && trimJSONSpace(raw) == "null" {
		p.ClearWelcomeMessage = true
	} else {
		p.WelcomeMessageCustomText = r.params.optStr("welcome_message_custom_text")
	}
	return h.svc.EditInviteLink(r.ctx, r.actor, p)
}

// revokeEmailInvite serves DELETE /invites/{invite_id}.
func (h *Handler) revokeEmailInvite(r *request) (any, error) {
	return h.svc.RevokeEmailInvite(r.ctx, r.actor, chat.EmailInviteParams{InviteID: pathID[users.InviteID](r, "invite_id")})
}

// resendEmailInvite serves POST /invites/{invite_id}/resend.
func (h *Handler) resendEmailInvite(r *request) (any, error) {
	return h.svc.ResendEmailInvite(r.ctx, r.actor, chat.EmailInviteParams{InviteID: pathID[users.InviteID](r, "invite_id")})
}
