package httpapi

import (
	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/linkifiers"
)

// getLinkifiers serves GET /realm/linkifiers.
func (h *Handler) getLinkifiers(r *request) (any, error) {
	return h.svc.GetLinkifiers(r.ctx, r.actor, chat.GetLinkifiersParams{})
}

// linkifierParams decodes the fields of POST /realm/filters and PATCH /realm/filters/{id}.
func linkifierParams(p *params) (chat.AddLinkifierParams, error) {
	var lp chat.AddLinkifierParams
	var err error
	if lp.Pattern, err = p.requiredStr("pattern"); err != nil {
		return lp, err
	}
	if lp.URLTemplate, err = p.requiredStr("url_template"); err != nil {
		return lp, err
	}
	lp.ExampleInput = p.optStr("example_input")
	lp.ReverseTemplate = p.optStr("reverse_template")
	alt, err := jsonParam[[]string](p, "alternative_url_templates", false)
	if err != nil {
		return lp, err
	}
	if alt != nil {
		lp.AlternativeURLTemplates = *alt
	}
	return lp, nil
}

// addLinkifier serves POST /realm/filters.
func (h *Handler) addLinkifier(r *request) (any, error) {
	lp, err := linkifierParams(r.params)
	if err != nil {
		return nil, err
	}
	return h.svc.AddLinkifier(r.ctx, r.actor, lp)
}

// updateLinkifier serves PATCH /realm/filters/{filter_id}.
func (h *Handler) updateLinkifier(r *request) (any, error) {
	lp, err := linkifierParams(r.params)
	if err != nil {
		return nil, err
	}
	return h.svc.UpdateLinkifier(r.ctx, r.actor, chat.UpdateLinkifierParams{
		FilterID: pathID[linkifiers.ID](r, "filter_id"), AddLinkifierParams: lp,
	})
}

// removeLinkifier serves DELETE /realm/filters/{filter_id}.
func (h *Handler) removeLinkifier(r *request) (any, error) {
	return h.svc.RemoveLinkifier(r.ctx, r.actor, chat.RemoveLinkifierParams{FilterID: pathID[linkifiers.ID](r, "filter_id")})
}

// reorderLinkifiers serves PATCH /realm/linkifiers.
func (h *Handler) reorderLinkifiers(r *request) (any, error) {
	ids, err := requiredJSON[[]linkifiers.ID](r.params, "ordered_linkifier_ids", false)
	if err != nil {
		return nil, err
	}
	return h.svc.ReorderLinkifiers(r.ctx, r.actor, chat.ReorderLinkifiersParams{OrderedLinkifierIDs: ids})
}

// addCodePlayground serves POST /realm/playgrounds. The language is Zulip's
// pygments_language or the specification's highlighter_language (not both).
func (h *Handler) addCodePlayground(r *request) (any, error) {
	name, err := r.params.requiredStr("name")
	if err != nil {
		return nil, err
	}
	pyg, hasPyg := r.params.str("pygments_language")
	hl, hasHL := r.params.str("highlighter_language")
	switch {
	case hasPyg && hasHL:
		return nil, &chat.Error{
			Code: chat.CodeRequestConfusingVar, Msg: "Can't decide between 'pygments_language' and 'highlighter_language' arguments",
			Extra: map[string]any{"var_name1": "pygments_language", "var_name2": "highlighter_language"},
		}
	case hasHL:
		pyg = hl
	case !hasPyg:
		return nil, chat.MissingArgument("pygments_language")
	}
	url, err := r.params.requiredStr("url_template")
	if err != nil {
		return nil, err
	}
	return h.svc.AddCodePlayground(r.ctx, r.actor, chat.AddCodePlaygroundParams{Name: name, HighlighterLanguage: pyg, URLTemplate: url})
}

// removeCodePlayground serves DELETE /realm/playgrounds/{playground_id}.
func (h *Handler) removeCodePlayground(r *request) (any, error) {
	return h.svc.RemoveCodePlayground(r.ctx, r.actor, chat.RemoveCodePlaygroundParams{
		PlaygroundID: pathID[linkifiers.PlaygroundID](r, "playground_id"),
	})
}
