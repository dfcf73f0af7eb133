package httpapi

import (
	chat "github.com/teamchat/chat"
)

// getAlertWords serves GET /users/me/alert_words.
func (h *Handler) getAlertWords(r *request) (any, error) {
	return h.svc.GetAlertWords(r.ctx, r.actor, chat.GetAlertWordsParams{})
}

// addAlertWords serves POST /users/me/alert_words: alert_words is a JSON list of strings.
func (h *Handler) addAlertWords(r *request) (any, error) {
	words, err := requiredJSON[[]string](r.params, "alert_words", true)
	if err != nil {
		return nil, err
	}
	return h.svc.AddAlertWords(r.ctx, r.actor, chat.AlertWordsParams{AlertWords: words})
}

// removeAlertWords serves DELETE /users/me/alert_words.
func (h *Handler) removeAlertWords(r *request) (any, error) {
	words, err := requiredJSON[[]string](r.params, "alert_words", true)
	if err != nil {
		return nil, err
	}
	return h.svc.RemoveAlertWords(r.ctx, r.actor, chat.AlertWordsParams{AlertWords: words})
}
