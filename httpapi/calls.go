package httpapi

import (
	"errors"
	"net/http"
	"net/url"
	"strings"

	chat "github.com/teamchat/chat"
)

// bigBlueButtonJoinPath is where the links of GET /calls/bigbluebutton/create lead (outside
// /api/v1/, as in Zulip).
const bigBlueButtonJoinPath = "/calls/bigbluebutton/join"

// serveBigBlueButtonJoin serves /calls/bigbluebutton/join?bigbluebutton=... as Zulip's
// zulip_login_required page does: a browser without a live web session goes to the login
// page (which brings it back here); then the argument is required, then
// chat.Service.JoinBigBlueButtonVideoCall answers (this server has no BigBlueButton server, so
// Zulip's error for that). Requests count against the per-address API limit.
func (h *Handler) serveBigBlueButtonJoin(w http.ResponseWriter, r *http.Request) {
	limit, err := h.svc.CountAPIRequest(chat.Actor{}, clientAddress(r))
	setRateLimitHeaders(w, limit)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	loggedIn := false
	if c, err := r.Cookie(sessionCookie); err == nil && c.Value != "" {
		_, err := h.svc.AuthenticateSession(r.Context(), c.Value)
		if err != nil && !errors.Is(err, chat.ErrNotLoggedIn()) {
			h.writeError(w, r, err)
			return
		}
		loggedIn = err == nil
	}
	if !loggedIn {
		// Django's redirect_to_login: next is the full path, "/" left unescaped.
		next := strings.ReplaceAll(url.QueryEscape(r.URL.RequestURI()), "%2F", "/")
		http.Redirect(w, r, "/login/?next="+next, http.StatusFound)
		return
	}
	p, err := decodeParams(r, h.opts.MaxBodyBytes)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	signed, err := p.requiredStr("bigbluebutton")
	if err == nil {
		_, err = h.svc.JoinBigBlueButtonVideoCall(r.Context(), chat.JoinBigBlueButtonVideoCallParams{BigBlueButton: signed})
	}
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"result": "success", "msg": ""})
}
