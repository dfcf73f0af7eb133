package httpapi

import (
	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/users"
)

// updateSettings serves PATCH /settings. Each setting of the table is decoded by its type:
// booleans and integers as JSON, strings raw.
func (h *Handler) updateSettings(r *request) (any, error) {
	p := r.params
	up := chat.UpdateSettingsParams{
		FullName:      p.optStr("full_name"),
		Email:         p.optStr("email"),
		OldPassword:   p.optStr("old_password"),
		NewPassword:   p.optStr("new_password"),
		Timezone:      p.optStr("timezone"),
		ClientAddress: clientAddress(r.http),
	}
	var err error
	if up.Values, err = userSettingValues(p); err != nil {
		return nil, err
	}
	if up.TargetUsers, err = jsonParam[chat.TargetUsers](p, "target_users", true); err != nil {
		return nil, err
	}
	return h.svc.UpdateSettings(r.ctx, r.actor, up)
}

// userSettingValues decodes the personal settings among the parameters by their types: JSON
// booleans and integers, plain strings.
func userSettingValues(p *params) (map[string]any, error) {
	values := map[string]any{}
	for _, st := range users.SettingsTable() {
		switch st.Type {
		case users.SettingBool:
			b, err := p.boolean(st.Name)
			if err != nil {
				return nil, err
			}
			if b != nil {
				values[st.Name] = *b
			}
		case users.SettingInt:
			n, err := p.integer(st.Name)
			if err != nil {
				return nil, err
			}
			if n != nil {
				values[st.Name] = *n
			}
		case users.SettingString:
			if v, ok := p.str(st.Name); ok {
				values[st.Name] = v
			}
		}
	}
	return values, nil
}
