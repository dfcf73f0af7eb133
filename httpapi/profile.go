package httpapi

import (
	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/users"
)

// getCustomProfileFields serves GET /realm/profile_fields.
func (h *Handler) getCustomProfileFields(r *request) (any, error) {
	return h.svc.GetCustomProfileFields(r.ctx, r.actor)
}

// createCustomProfileField serves POST /realm/profile_fields.
func (h *Handler) createCustomProfileField(r *request) (any, error) {
	p := r.params
	cp := chat.CreateCustomProfileFieldParams{}
	cp.Name, _ = p.str("name")
	cp.Hint, _ = p.str("hint")
	t, err := p.integer("field_type")
	if err != nil {
		return nil, err
	}
	if t != nil {
		cp.FieldType = users.ProfileFieldType(*t)
		if !cp.FieldType.Valid() {
			return nil, chat.InvalidArgument("field_type", "")
		}
	}
	if data, ok := p.str("field_data"); ok {
		if _, err := jsonParam[map[string]any](p, "field_data", false); err != nil {
			return nil, err
		}
		cp.FieldData = data
	}
	if cp.DisplayInProfileSummary, err = p.boolOr("display_in_profile_summary", false); err != nil {
		return nil, err
	}
	if cp.Required, err = p.boolOr("required", false); err != nil {
		return nil, err
	}
	if cp.EditableByUser, err = p.boolean("editable_by_user"); err != nil {
		return nil, err
	}
	return h.svc.CreateCustomProfileField(r.ctx, r.actor, cp)
}

// updateProfileData serves PATCH /users/me/profile_data.
func (h *Handler) updateProfileData(r *request) (any, error) {
	data, err := requiredJSON[[]chat.ProfileDataUpdate](r.params, "data", true)
	if err != nil {
		return nil, err
	}
	return h.svc.UpdateProfileData(r.ctx, r.actor, chat.UpdateProfileDataParams{Data: data})
}

// removeProfileData serves DELETE /users/me/profile_data.
func (h *Handler) removeProfileData(r *request) (any, error) {
	data, err := requiredJSON[[]int64](r.params, "data", false)
	if err != nil {
		return nil, err
	}
	return h.svc.RemoveProfileData(r.ctx, r.actor, chat.RemoveProfileDataParams{Data: data})
}

// updateCustomProfileField serves PATCH /realm/profile_fields/{field_id}.
func (h *Handler) updateCustomProfileField(r *request) (any, error) {
	p := r.params
	up := chat.UpdateCustomProfileFieldParams{FieldID: pathID[users.ProfileFieldID](r, "field_id")}
	up.Name = p.optStr("name")
	up.Hint = p.optStr("hint")
	if data, ok := p.str("field_data"); ok {
		if _, err := jsonParam[map[string]any](p, "field_data", false); err != nil {
			return nil, err
		}
		up.FieldData = &data
	}
	var err error
	for _, b := range []struct {
		name string
		dst  **bool
	}{{"display_in_profile_summary", &up.DisplayInProfileSummary}, {"required", &up.Required}, {"editable_by_user", &up.EditableByUser}} {
		if *b.dst, err = p.boolean(b.name); err != nil {
			return nil, err
		}
	}
	return h.svc.UpdateCustomProfileField(r.ctx, r.actor, up)
}

// removeCustomProfileField serves DELETE /realm/profile_fields/{field_id}.
func (h *Handler) removeCustomProfileField(r *request) (any, error) {
	return h.svc.RemoveCustomProfileField(r.ctx, r.actor, chat.RemoveCustomProfileFieldParams{FieldID: pathID[users.ProfileFieldID](r, "field_id")})
}

// reorderCustomProfileFields serves PATCH /realm/profile_fields.
func (h *Handler) reorderCustomProfileFields(r *request) (any, error) {
	order, err := requiredJSON[[]users.ProfileFieldID](r.params, "order", true)
	if err != nil {
		return nil, err
	}
	return h.svc.ReorderCustomProfileFields(r.ctx, r.actor, chat.ReorderCustomProfileFieldsParams{Order: order})
}
