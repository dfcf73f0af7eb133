package httpapi

import (
	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/drafts"
)

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
	return h.svc.EditDraft(r.ctx, r.actor, chat.EditDraftParams{DraftID: pathID[drafts.ID](r, "draft_id"), Draft: d})
}

// deleteDraft serves DELETE /drafts/{draft_id}.
func (h *Handler) deleteDraft(r *request) (any, error) {
	return h.svc.DeleteDraft(r.ctx, r.actor, chat.DeleteDraftParams{DraftID: pathID[drafts.ID](r, "draft_id")})
}

// getSavedSnippets serves GET /saved_snippets.
func (h *Handler) getSavedSnippets(r *request) (any, error) {
	return h.svc.GetSavedSnippets(r.ctx, r.actor, chat.GetSavedSnippetsParams{})
}

// createSavedSnippet serves POST /saved_snippets.
func (h *Handler) createSavedSnippet(r *request) (any, error) {
	title, err := r.params.requiredStr("title")
	if err != nil {
		return nil, err
	}
	content, err := r.params.requiredStr("content")
	if err != nil {
		return nil, err
	}
	return h.svc.CreateSavedSnippet(r.ctx, r.actor, chat.CreateSavedSnippetParams{Title: title, Content: content})
}

// editSavedSnippet serves PATCH /saved_snippets/{saved_snippet_id}.
func (h *Handler) editSavedSnippet(r *request) (any, error) {
	return h.svc.EditSavedSnippet(r.ctx, r.actor, chat.EditSavedSnippetParams{
		SavedSnippetID: pathID[drafts.SnippetID](r, "saved_snippet_id"),
		Title:          r.params.optStr("title"),
		Content:        r.params.optStr("content"),
	})
}

// deleteSavedSnippet serves DELETE /saved_snippets/{saved_snippet_id}.
func (h *Handler) deleteSavedSnippet(r *request) (any, error) {
	return h.svc.DeleteSavedSnippet(r.ctx, r.actor, chat.DeleteSavedSnippetParams{
		SavedSnippetID: pathID[drafts.SnippetID](r, "saved_snippet_id"),
	})
}

// getNavigationViews serves GET /navigation_views.
func (h *Handler) getNavigationViews(r *request) (any, error) {
	return h.svc.GetNavigationViews(r.ctx, r.actor, chat.GetNavigationViewsParams{})
}

// addNavigationView serves POST /navigation_views.
func (h *Handler) addNavigationView(r *request) (any, error) {
	fragment, err := r.params.requiredStr("fragment")
	if err != nil {
		return nil, err
	}
	pinned, err := r.params.boolean("is_pinned")
	if err != nil {
		return nil, err
	}
	if pinned == nil {
		return nil, chat.MissingArgument("is_pinned")
	}
	return h.svc.AddNavigationView(r.ctx, r.actor, chat.AddNavigationViewParams{
		Fragment: fragment, IsPinned: *pinned, Name: r.params.optStr("name"),
	})
}

// editNavigationView serves PATCH /navigation_views/{fragment...}.
func (h *Handler) editNavigationView(r *request) (any, error) {
	pinned, err := r.params.boolean("is_pinned")
	if err != nil {
		return nil, err
	}
	return h.svc.EditNavigationView(r.ctx, r.actor, chat.EditNavigationViewParams{
		Fragment: r.path["fragment"], IsPinned: pinned, Name: r.params.optStr("name"),
	})
}

// removeNavigationView serves DELETE /navigation_views/{fragment...}.
func (h *Handler) removeNavigationView(r *request) (any, error) {
	return h.svc.RemoveNavigationView(r.ctx, r.actor, chat.RemoveNavigationViewParams{Fragment: r.path["fragment"]})
}
