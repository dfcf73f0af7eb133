package httpapi

import (
	chat "github.com/teamchat/chat"
)

// getMessageHistory serves GET /messages/{message_id}/history.
func (h *Handler) getMessageHistory(r *request) (any, error) {
	p := chat.GetMessageHistoryParams{MessageID: messageID(r)}
	var err error
	if p.AllowEmptyTopicName, err = r.params.boolOr("allow_empty_topic_name", false); err != nil {
		return nil, err
	}
	return h.svc.GetMessageHistory(r.ctx, r.actor, p)
}

// renderMessage serves POST /messages/render.
func (h *Handler) renderMessage(r *request) (any, error) {
	content, err := r.params.requiredStr("content")
	if err != nil {
		return nil, err
	}
	return h.svc.RenderMessage(r.ctx, r.actor, chat.RenderMessageParams{Content: content})
}
