package httpapi

import (
	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/messages"
)

// addReaction serves POST /messages/{message_id}/reactions.
func (h *Handler) addReaction(r *request) (any, error) {
	name, err := r.params.requiredStr("emoji_name")
	if err != nil {
		return nil, err
	}
	return h.svc.AddReaction(r.ctx, r.actor, chat.AddReactionParams{
		MessageID: pathID[messages.ID](r, "message_id"), EmojiName: name,
		EmojiCode: r.params.optStr("emoji_code"), ReactionType: r.params.optStr("reaction_type"),
	})
}

// removeReaction serves DELETE /messages/{message_id}/reactions.
func (h *Handler) removeReaction(r *request) (any, error) {
	return h.svc.RemoveReaction(r.ctx, r.actor, chat.RemoveReactionParams{
		MessageID: pathID[messages.ID](r, "message_id"), EmojiName: r.params.optStr("emoji_name"),
		EmojiCode: r.params.optStr("emoji_code"), ReactionType: r.params.optStr("reaction_type"),
	})
}
