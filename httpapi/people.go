package httpapi

import (
	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/users"
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
	return h.svc.UpdateStatus(r.ctx, r.actor, p)
}

// updateStatusForUser serves POST /users/{user_id}/status (administrators).
func (h *Handler) updateStatusForUser(r *request) (any, error) {
	p, err := statusParams(r.params, false)
	if err != nil {
		return nil, err
	}
	return h.svc.UpdateStatusForUser(r.ctx, r.actor, chat.UpdateStatusForUserParams{UserID: pathID[users.ID](r, "user_id"), UpdateStatusParams: p})
}

// getUserStatus serves GET /users/{user_id}/status.
func (h *Handler) getUserStatus(r *request) (any, error) {
	return h.svc.GetUserStatus(r.ctx, r.actor, chat.GetUserStatusParams{UserID: pathID[users.ID](r, "user_id")})
}

// muteUser serves POST /users/me/muted_users/{muted_user_id}.
func (h *Handler) muteUser(r *request) (any, error) {
	return h.svc.MuteUser(r.ctx, r.actor, chat.MuteUserParams{MutedUserID: pathID[users.ID](r, "muted_user_id")})
}

// unmuteUser serves DELETE /users/me/muted_users/{muted_user_id}.
func (h *Handler) unmuteUser(r *request) (any, error) {
	return h.svc.UnmuteUser(r.ctx, r.actor, chat.MuteUserParams{MutedUserID: pathID[users.ID](r, "muted_user_id")})
}

// createZoomVideoCall serves POST /calls/zoom/create.
func (h *Handler) createZoomVideoCall(r *request) (any, error) {
	video, err := r.params.boolOr("is_video_call", true)
	if err != nil {
		return nil, err
	}
	return h.svc.CreateZoomVideoCall(r.ctx, r.actor, chat.CreateZoomVideoCallParams{IsVideoCall: video})
}

// createWebexVideoCall serves POST /calls/webex/create.
func (h *Handler) createWebexVideoCall(r *request) (any, error) {
	return h.svc.CreateWebexVideoCall(r.ctx, r.actor)
}

// createBigBlueButtonVideoCall serves GET /calls/bigbluebutton/create.
func (h *Handler) createBigBlueButtonVideoCall(r *request) (any, error) {
	var p chat.CreateBigBlueButtonVideoCallParams
	var err error
	if p.MeetingName, err = r.params.requiredStr("meeting_name"); err != nil {
		return nil, err
	}
	if p.VoiceOnly, err = r.params.boolOr("voice_only", false); err != nil {
		return nil, err
	}
	return h.svc.CreateBigBlueButtonVideoCall(r.ctx, r.actor, p)
}

// getStreamEmailAddress serves GET /streams/{stream_id}/email_address.
func (h *Handler) getStreamEmailAddress(r *request) (any, error) {
	p := chat.GetStreamEmailAddressParams{StreamID: pathID[channels.ID](r, "stream_id")}
	sender, err := r.params.integer("sender_id")
	if err != nil {
		return nil, err
	}
	if sender != nil {
		id := users.ID(*sender)
		p.SenderID = &id
	}
	return h.svc.GetStreamEmailAddress(r.ctx, r.actor, p)
}
