package httpapi

import (
	chat "github.com/teamchat/chat"
)

// statusParams decodes the fields of a status change (away only when withAway).
func statusParams(p *params, withAway bool) (chat.UpdateStatusParams, error) {
	var sp chat.UpdateStatusParams
	if withAway {
		var err error
		if sp.Away, err = p.boolean("away"); err != nil {
			return sp, err
		}
	}
	sp.StatusText = p.optStr("status_text")
	sp.EmojiName = p.optStr("emoji_name")
	sp.EmojiCode = p.optStr("emoji_code")
	sp.ReactionType = p.optStr("reaction_type")
	return sp, nil
}

// updateStatus serves POST /users/me/status.
func (h *Handler) updateStatus(r *request) (any, error) {
	p, err := statusParams(r.params, true)
	if err != nil {
		return nil, err
	}
	return nil, h.svc.UpdateStatus(r.ctx, r.actor, p)
}

// updateStatusForUser serves POST /users/{user_id}/status (administrators).
func (h *Handler) updateStatusForUser(r *request) (any, error) {
	p, err := statusParams(r.params, false)
	if err != nil {
		return nil, err
	}
	return nil, h.svc.UpdateStatusForUser(r.ctx, r.actor, chat.UpdateStatusForUserParams{UserID: pathUserID(r, "user_id"), UpdateStatusParams: p})
}

// getUserStatus serves GET /users/{user_id}/status.
func (h *Handler) getUserStatus(r *request) (any, error) {
	return h.svc.GetUserStatus(r.ctx, r.actor, chat.GetUserStatusParams{UserID: pathUserID(r, "user_id")})
}

// muteUser serves POST /users/me/muted_users/{muted_user_id}.
func (h *Handler) muteUser(r *request) (any, error) {
	return nil, h.svc.MuteUser(r.ctx, r.actor, chat.MuteUserParams{MutedUserID: pathUserID(r, "muted_user_id")})
}

// unmuteUser serves DELETE /users/me/muted_users/{muted_user_id}.
func (h *Handler) unmuteUser(r *request) (any, error) {
	return nil, h.svc.UnmuteUser(r.ctx, r.actor, chat.MuteUserParams{MutedUserID: pathUserID(r, "muted_user_id")})
}
