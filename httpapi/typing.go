package httpapi

import (
	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/users"
)

// setTypingStatus serves POST /typing.
func (h *Handler) setTypingStatus(r *request) (any, error) {
	p := chat.SetTypingStatusParams{Op: deref(r.params.optStr("op"))}
	if t := r.params.optStr("type"); t != nil {
		p.Type = *t
		if p.Type == "" {
			p.Type = "invalid"
		}
	}
	to, err := jsonParam[[]users.ID](r.params, "to", false)
	if err != nil {
		return nil, err
	}
	if to != nil {
		p.To = *to
		if p.To == nil {
			p.To = []users.ID{}
		}
	}
	id, err := r.params.integer("stream_id")
	if err != nil {
		return nil, err
	}
	if id != nil {
		c := channels.ID(*id)
		p.StreamID = &c
	}
	p.Topic = r.params.optStr("topic")
	return h.svc.SetTypingStatus(r.ctx, r.actor, p)
}

// setTypingStatusForMessageEdit serves POST /messages/{message_id}/typing.
func (h *Handler) setTypingStatusForMessageEdit(r *request) (any, error) {
	op, err := r.params.requiredStr("op")
	if err != nil {
		return nil, err
	}
	return h.svc.SetTypingStatusForMessageEdit(r.ctx, r.actor, chat.SetTypingStatusForMessageEditParams{MessageID: pathID[messages.ID](r, "message_id"), Op: op})
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
