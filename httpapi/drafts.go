package httpapi

import (
	"strconv"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/drafts"
)

// draftsPathInt reads a numeric path parameter (the router matched digits only).
func draftsPathInt(r *request, name string) int64 {
	n, _ := strconv.ParseInt(r.path[name], 10, 64)
	return n
}

// getDrafts serves GET /drafts.
func (h *Handler) getDrafts(r *request) (any, error) {
	return h.svc.GetDrafts(r.ctx, r.actor, chat.GetDraftsParams{})
}

// createDrafts serves POST /drafts: drafts is a JSON list of draft objects (unknown keys
// refused).
func (h *Handler) createDrafts(r *request) (any, error) {
	list, err := requiredJSON[[]chat.DraftParams](r.params, "drafts", true)
	if err != nil {
		return nil, err
	}
	return h.svc.CreateDrafts(r.ctx, r.actor, chat.CreateDraftsParams{Drafts: list})
}

// editDraft serves PATCH /drafts/{draft_id}.
func (h *Handler) editDraft(r *request) (any, error) {
	d, err := requiredJSON[chat.DraftParams](r.params, "draft", true)
	if err != nil {
		return nil, err
	}
	return h.svc.EditDraft(r.ctx, r.actor, chat.EditDraftParams{DraftID: drafts.ID(draftsPathInt(r, "draft_id")), Draft: d})
}

// deleteDraft serves DELETE /drafts/{draft_id}.
func (h *Handler) deleteDraft(r *request) (any, error) {
	return h.svc.DeleteDraft(r.ctx, r.actor, chat.DeleteDraftParams{DraftID: drafts.ID(draftsPathInt(r, "draft_id"))})
}
