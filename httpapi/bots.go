package httpapi

import (
	chat "github.com/teamchat/chat"
)

// getBotStorage serves GET /bot_storage: keys is an optional JSON list of strings.
func (h *Handler) getBotStorage(r *request) (any, error) {
	keys, err := jsonParam[[]string](r.params, "keys", true)
	if err != nil {
		return nil, err
	}
	var p chat.GetBotStorageParams
	if keys != nil {
		p.Keys = *keys
	}
	return h.svc.GetBotStorage(r.ctx, r.actor, p)
}

// updateBotStorage serves PUT /bot_storage: storage is a JSON object of strings.
func (h *Handler) updateBotStorage(r *request) (any, error) {
	storage, err := requiredJSON[map[string]string](r.params, "storage", true)
	if err != nil {
		return nil, err
	}
	if storage == nil { // JSON null
		return nil, chat.Errorf(chat.CodeBadRequest, "storage is not a dict")
	}
	return h.svc.UpdateBotStorage(r.ctx, r.actor, chat.UpdateBotStorageParams{Storage: storage})
}

// removeBotStorage serves DELETE /bot_storage: keys is an optional JSON list of strings.
func (h *Handler) removeBotStorage(r *request) (any, error) {
	keys, err := jsonParam[[]string](r.params, "keys", true)
	if err != nil {
		return nil, err
	}
	var p chat.RemoveBotStorageParams
	if keys != nil {
		p.Keys = *keys
	}
	return h.svc.RemoveBotStorage(r.ctx, r.actor, p)
}
