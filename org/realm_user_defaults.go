package org

import (
	"context"
	"maps"
	"slices"

	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/realms"
	"github.com/teamchat/chat/users"
)

// RealmUserSettingsDefaultsEvent is a realm_user_settings_defaults update event.
type RealmUserSettingsDefaultsEvent struct {
	Type     string `json:"type"`
	Op       string `json:"op"`
	Property string `json:"property"`
	Value    any    `json:"value"`
}

// notRealmDefaults are the personal settings an organization does not choose for its new
// users (Zulip leaves security and marketing mail to each user).
var notRealmDefaults = []string{"enable_login_emails", "enable_marketing_emails"}

// userDefaultsState is realm_user_settings_defaults: every personal setting's default for
// new users, with the choice lists user_settings also carries.
func userDefaultsState(r realms.Realm) map[string]any {
	out := map[string]any{}
	for _, st := range users.SettingsTable() {
		out[st.Name] = realmUserDefault(r, st)
	}
	choices := slices.Clone(users.EmojisetChoices)
	out["emojiset_choices"] = choices
	out["available_notification_sounds"] = slices.Clone(users.NotificationSounds)
	return out
}

// realmUserDefault is the organization's default of one personal setting.
func realmUserDefault(r realms.Realm, st users.Setting) any {
	if st.Name == "email_address_visibility" {
		return int64(r.DefaultEmailVisibility)
	}
	if v, ok := r.UserSettingsDefaults[st.Name]; ok {
		return v
	}
	return st.Default
}

// UpdateRealmUserSettingsDefaultsParams are the parameters of PATCH
// /realm/user_settings_defaults: personal settings by name (bool, int64 or string).
type UpdateRealmUserSettingsDefaultsParams struct {
	Values map[string]any
}

// UpdateRealmUserSettingsDefaultsResult is UpdateRealmUserSettingsDefaults's answer: nothing beyond success.
type UpdateRealmUserSettingsDefaultsResult struct{}

// UpdateRealmUserSettingsDefaults changes the organization's defaults of new users' settings
// (administrators only); each change sends realm_user_settings_defaults update to every
// active user. Users created later start with these values.
func (s *Service) UpdateRealmUserSettingsDefaults(ctx context.Context, actor engine.Actor, p UpdateRealmUserSettingsDefaultsParams) (UpdateRealmUserSettingsDefaultsResult, error) {
	for _, name := range slices.Sorted(maps.Keys(p.Values)) {
		st, ok := users.LookupSetting(name)
		if !ok || slices.Contains(notRealmDefaults, name) {
			return UpdateRealmUserSettingsDefaultsResult{}, engine.BadRequest("Invalid setting %s", name)
		}
		if err := st.Check(p.Values[name]); err != nil {
			return UpdateRealmUserSettingsDefaultsResult{}, engine.BadRequest("%s", users.TrimSettingTypeError(err))
		}
	}
	return UpdateRealmUserSettingsDefaultsResult{}, s.eng.Mutate(ctx, actor, engine.Admins, func(o *engine.WriteOp) error {
		tx, ev := o.Tx, o.Ev
		realm, err := tx.Realm().Get()
		if err != nil {
			return err
		}
		to, err := engine.ActiveUserIDs(tx.Users())
		if err != nil {
			return err
		}
		changed := false
		for _, name := range slices.Sorted(maps.Keys(p.Values)) {
			st, _ := users.LookupSetting(name)
			v := p.Values[name]
			if realmUserDefault(realm, st) == v {
				continue
			}
			if name == "email_address_visibility" {
				realm.DefaultEmailVisibility = users.EmailVisibility(v.(int64))
			} else {
				if realm.UserSettingsDefaults == nil {
					realm.UserSettingsDefaults = map[string]any{}
				}
				realm.UserSettingsDefaults[name] = v
			}
			changed = true
			ev.Emit(RealmUserSettingsDefaultsEvent{
				Type: "realm_user_settings_defaults", Op: "update", Property: name, Value: v,
			}, to)
		}
		if !changed {
			return nil
		}
		return tx.Realm().Put(realm)
	})
}
