package httpapi

import (
	"strings"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/channels"
)

// markAllAsRead serves POST /mark_all_as_read.
func (h *Handler) markAllAsRead(r *request) (any, error) {
	return h.svc.MarkAllAsRead(r.ctx, r.actor)
}

// markStreamAsRead serves POST /mark_stream_as_read.
func (h *Handler) markStreamAsRead(r *request) (any, error) {
	id, err := r.params.requiredInt("stream_id")
	if err != nil {
		return nil, err
	}
	return h.svc.MarkStreamAsRead(r.ctx, r.actor, chat.MarkStreamAsReadParams{StreamID: channels.ID(id)})
}

// markTopicAsRead serves POST /mark_topic_as_read.
func (h *Handler) markTopicAsRead(r *request) (any, error) {
	id, err := r.params.requiredInt("stream_id")
	if err != nil {
		return nil, err
	}
	topic, err := r.params.requiredStr("topic_name")
	if err != nil {
		return nil, err
	}
	return h.svc.MarkTopicAsRead(r.ctx, r.actor, chat.MarkTopicAsReadParams{StreamID: channels.ID(id), TopicName: topic})
}

// updateMessageFlagsForNarrow serves POST /messages/flags/narrow.
func (h *Handler) updateMessageFlagsForNarrow(r *request) (any, error) {
	var (
		p   chat.UpdateMessageFlagsForNarrowParams
		err error
	)
	anchor, err := r.params.requiredStr("anchor")
	if err != nil {
		return nil, err
	}
	p.Anchor = strings.Trim(strings.TrimSpace(anchor), `"`)
	if p.IncludeAnchor, err = r.params.boolean("include_anchor"); err != nil {
		return nil, err
	}
	n, err := r.params.requiredInt("num_before")
	if err != nil {
		return nil, err
	}
	p.NumBefore = countOf(n)
	if n, err = r.params.requiredInt("num_after"); err != nil {
		return nil, err
	}
	p.NumAfter = countOf(n)
	if !r.params.has("narrow") {
		return nil, chat.MissingArgument("narrow")
	}
	if p.Narrow, err = narrowParam(r.params); err != nil {
		return nil, err
	}
	if p.Op, err = r.params.requiredStr("op"); err != nil {
		return nil, err
	}
	if p.Flag, err = r.params.requiredStr("flag"); err != nil {
		return nil, err
	}
	return h.svc.UpdateMessageFlagsForNarrow(r.ctx, r.actor, p)
}
