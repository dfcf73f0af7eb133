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
		Values:        map[string]any{},
		ClientAddress: clientAddress(r.http),
	}
	for _, st := range users.SettingsTable() {
		switch st.Type {
		case users.SettingBool:
			b, err := p.boolean(st.Name)
			if err != nil {
				return nil, err
			}
			if b != nil {
				up.Values[st.Name] = *b
			}
		case users.SettingInt:
			n, err := p.integer(st.Name)
			if err != nil {
				return nil, err
			}
			if n != nil {
				up.Values[st.Name] = *n
			}
		case users.SettingString:
			if v, ok := p.str(st.Name); ok {
				up.Values[st.Name] = v
			}
		}
	}
	var err error
	if up.TargetUsers, err = jsonParam[chat.TargetUsers](p, "target_users", true); err != nil {
		return nil, err
	}
	return nil, h.svc.UpdateSettings(r.ctx, r.actor, up)
}
