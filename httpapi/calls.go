package httpapi

import (
	"net/http"

	chat "github.com/teamchat/chat"
)

// bigBlueButtonJoinPath is where the links of GET /calls/bigbluebutton/create lead (outside
// /api/v1/, as in Zulip).
const bigBlueButtonJoinPath = "/calls/bigbluebutton/join"

// serveBigBlueButtonJoin serves /calls/bigbluebutton/join?bigbluebutton=...: the argument is
// required, then chat.Service.JoinBigBlueButtonVideoCall answers (this server has no
// BigBlueButton server, so Zulip's error for that). Zulip first sends a browser without a web
// session to its login page; this page needs no login, since it only refuses. Requests count
// against the per-address API limit.
func (h *Handler) serveBigBlueButtonJoin(w http.ResponseWriter, r *http.Request) {
	limit, err := h.svc.CountAPIRequest(chat.Actor{}, clientAddress(r))
	setRateLimitHeaders(w, limit)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	p, err := decodeParams(r, h.opts.MaxBodyBytes)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	signed, err := p.requiredStr("bigbluebutton")
	if err == nil {
		err = h.svc.JoinBigBlueButtonVideoCall(r.Context(), chat.JoinBigBlueButtonVideoCallParams{BigBlueButton: signed})
	}
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"result": "success", "msg": ""})
}
