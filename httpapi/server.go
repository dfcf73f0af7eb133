package httpapi

import chat "github.com/teamchat/chat"

// getServerSettings serves GET /server_settings.
func (h *Handler) getServerSettings(r *request) (any, error) {
	return h.svc.GetServerSettings(r.ctx, chat.GetServerSettingsParams{UserAgent: r.http.UserAgent()})
}
