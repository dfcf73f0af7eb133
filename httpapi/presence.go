package httpapi

import (
	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/users"
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

// markOnboardingStepAsRead serves POST /users/me/onboarding_steps.
func (h *Handler) markOnboardingStepAsRead(r *request) (any, error) {
	step, err := r.params.requiredStr("onboarding_step")
	if err != nil {
		return nil, err
	}
	return h.svc.MarkOnboardingStepAsRead(r.ctx, r.actor, chat.MarkOnboardingStepAsReadParams{OnboardingStep: step})
}

// updatePresence serves POST /users/me/presence.
func (h *Handler) updatePresence(r *request) (any, error) {
	var p chat.UpdatePresenceParams
	var err error
	if p.Status, err = r.params.requiredStr("status"); err != nil {
		return nil, err
	}
	for _, b := range []struct {
		name string
		dst  *bool
	}{{"ping_only", &p.PingOnly}, {"new_user_input", &p.NewUserInput}, {"slim_presence", &p.SlimPresence}} {
		if *b.dst, err = r.params.boolOr(b.name, false); err != nil {
			return nil, err
		}
	}
	if p.LastUpdateID, err = r.params.integer("last_update_id"); err != nil {
		return nil, err
	}
	if p.HistoryLimitDays, err = r.params.integer("history_limit_days"); err != nil {
		return nil, err
	}
	return h.svc.UpdatePresence(r.ctx, r.actor, p)
}

// getRealmPresence serves GET /realm/presence.
func (h *Handler) getRealmPresence(r *request) (any, error) {
	return h.svc.GetRealmPresence(r.ctx, r.actor, chat.GetRealmPresenceParams{})
}

// getUserPresence serves GET /users/{user_id_or_email}/presence (a number is an id).
func (h *Handler) getUserPresence(r *request) (any, error) {
	slim, err := r.params.boolOr("slim_presence", false)
	if err != nil {
		return nil, err
	}
	p := chat.GetUserPresenceParams{SlimPresence: slim}
	key := r.path["user_id_or_email"]
	if id, ok := parseID[users.ID](key); ok {
		p.UserID = id
	} else {
		p.Email = key
	}
	return h.svc.GetUserPresence(r.ctx, r.actor, p)
}
