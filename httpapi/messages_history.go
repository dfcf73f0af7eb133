package httpapi

import (
	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/messages"
)

// getMessageHistory serves GET /messages/{message_id}/history.
func (h *Handler) getMessageHistory(r *request) (any, error) {
	p := chat.GetMessageHistoryParams{MessageID: pathID[messages.ID](r, "message_id")}
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

// getReadReceipts serves GET /messages/{message_id}/read_receipts.
func (h *Handler) getReadReceipts(r *request) (any, error) {
	return h.svc.GetReadReceipts(r.ctx, r.actor, chat.GetReadReceiptsParams{MessageID: pathID[messages.ID](r, "message_id")})
}

// checkMessagesMatchNarrow serves GET /messages/matches_narrow.
func (h *Handler) checkMessagesMatchNarrow(r *request) (any, error) {
	var (
		p   chat.CheckMessagesMatchNarrowParams
		err error
	)
	if p.MsgIDs, err = requiredJSON[[]messages.ID](r.params, "msg_ids", false); err != nil {
		return nil, err
	}
	if !r.params.has("narrow") {
		return nil, chat.MissingArgument("narrow")
	}
	if p.Narrow, err = narrowParam(r.params); err != nil {
		return nil, err
	}
	return h.svc.CheckMessagesMatchNarrow(r.ctx, r.actor, p)
}

// reportMessage serves POST /messages/{message_id}/report.
func (h *Handler) reportMessage(r *request) (any, error) {
	p := chat.ReportMessageParams{MessageID: pathID[messages.ID](r, "message_id")}
	var err error
	if p.ReportType, err = r.params.requiredStr("report_type"); err != nil {
		return nil, err
	}
	p.Description, _ = r.params.str("description")
	return h.svc.ReportMessage(r.ctx, r.actor, p)
}
