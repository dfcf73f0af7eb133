package httpapi

import chat "github.com/teamchat/chat"

// fetchAPIKey serves POST /fetch_api_key.
func (h *Handler) fetchAPIKey(r *request) (any, error) {
	username, err := r.params.requiredStr("username")
	if err != nil {
		return nil, err
	}
	password, err := r.params.requiredStr("password")
	if err != nil {
		return nil, err
	}
	return h.svc.FetchAPIKey(r.ctx, chat.FetchAPIKeyParams{
		Username: username, Password: password, ClientAddress: clientAddress(r.http), UserAgent: r.http.UserAgent(),
	})
}

// jwtFetchAPIKey serves POST /jwt/fetch_api_key.
func (h *Handler) jwtFetchAPIKey(r *request) (any, error) {
	token, _ := r.params.str("token")
	include, err := r.params.boolOr("include_profile", false)
	if err != nil {
		return nil, err
	}
	return h.svc.JWTFetchAPIKey(r.ctx, chat.JWTFetchAPIKeyParams{Token: token, IncludeProfile: include})
}

// devFetchAPIKey serves POST /dev_fetch_api_key.
func (h *Handler) devFetchAPIKey(r *request) (any, error) {
	username, err := r.params.requiredStr("username")
	if err != nil {
		return nil, err
	}
	res, err := h.svc.DevFetchAPIKey(r.ctx, chat.DevFetchAPIKeyParams{
		Username: username, ClientAddress: clientAddress(r.http), UserAgent: r.http.UserAgent(),
	})
	if err != nil {
		return nil, err
	}
	// Zulip's also logs the browser in: clients' test suites then call /json/ routes.
	sess, err := h.svc.StartSession(r.ctx, chat.Actor{UserID: res.UserID})
	if err != nil {
		return nil, err
	}
	for _, c := range h.sessionCookies(r.http, sess) {
		r.header.Add("Set-Cookie", c.String())
	}
	return res, nil
}

// devListUsers serves GET /dev_list_users.
func (h *Handler) devListUsers(r *request) (any, error) {
	return h.svc.DevListUsers(r.ctx)
}

// regenerateAPIKey serves POST /users/me/api_key/regenerate.
func (h *Handler) regenerateAPIKey(r *request) (any, error) {
	return h.svc.RegenerateAPIKey(r.ctx, r.actor)
}
