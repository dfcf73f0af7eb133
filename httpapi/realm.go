package httpapi

import (
	"context"
	"encoding/json"
	"strconv"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/realms"
)

// updateRealm serves PATCH /realm.
func (h *Handler) updateRealm(r *request) (any, error) {
	var up chat.UpdateRealmParams
	var err error
	for name, dst := range map[string]**int64{
		"new_stream_announcements_stream_id":   &up.NewStreamAnnouncementsStreamID,
		"signup_announcements_stream_id":       &up.SignupAnnouncementsStreamID,
		"zulip_update_announcements_stream_id": &up.ZulipUpdateAnnouncementsStreamID,
		"moderation_request_channel_id":        &up.ModerationRequestChannelID,
	} {
		if *dst, err = r.params.integer(name); err != nil {
			return nil, err
		}
	}
	if up.AllowMessageEditing, err = r.params.boolean("allow_message_editing"); err != nil {
		return nil, err
	}
	up.MessageContentEditLimitSeconds = r.params.optStr("message_content_edit_limit_seconds")
	up.MoveMessagesWithinStreamLimitSeconds = r.params.optStr("move_messages_within_stream_limit_seconds")
	up.MoveMessagesBetweenStreamsLimitSeconds = r.params.optStr("move_messages_between_streams_limit_seconds")
	up.MessageEditHistoryVisibilityPolicy = r.params.optStr("message_edit_history_visibility_policy")
	if up.Settings, err = realmSettingParams(r.params); err != nil {
		return nil, err
	}
	if up.GroupSettings, err = groupSettingChanges(r.params, realms.GroupSettingNames()); err != nil {
		return nil, err
	}
	if methods, ok := r.params.str("authentication_methods"); ok {
		if err := json.Unmarshal([]byte(methods), &up.AuthenticationMethods); err != nil || up.AuthenticationMethods == nil {
			return nil, errNotA("authentication_methods", "a dict")
		}
	}
	return h.svc.UpdateRealm(r.ctx, r.actor, up)
}

// realmSettingParams decodes the scalar settings of PATCH /realm by their kinds: JSON booleans
// and integers, plain strings; a limit of "unlimited" is null (message_retention_days: -1), a
// Jitsi server of "default" is null.
func realmSettingParams(p *params) (map[string]any, error) {
	var out map[string]any
	for _, s := range realms.SettingsTable() {
		raw, ok := p.lookup(s.Name)
		if !ok {
			continue
		}
		var v any
		switch {
		case s.Kind == realms.KindBool:
			b, err := p.boolean(s.Name)
			if err != nil {
				return nil, err
			}
			v = *b
		case s.Kind == realms.KindInt && (s.Nullable || s.Name == "message_retention_days"):
			var err error
			if v, err = limitParam(s.Name, raw); err != nil {
				return nil, err
			}
		case s.Kind == realms.KindInt:
			n, err := p.integer(s.Name)
			if err != nil {
				return nil, err
			}
			v = *n
		case s.Name == "jitsi_server_url":
			var str string
			if err := json.Unmarshal([]byte(raw), &str); err != nil {
				return nil, errNotA(s.Name, "a string")
			}
			if str != "default" {
				v = str
			}
		default:
			v = raw
		}
		if out == nil {
			out = map[string]any{}
		}
		out[s.Name] = v
	}
	return out, nil
}

// limitParam reads a JSON integer or "unlimited" (nil; -1 for message_retention_days).
func limitParam(name, raw string) (any, error) {
	var text string
	if err := json.Unmarshal([]byte(raw), &text); err != nil {
		text = trimJSONSpace(raw)
	}
	if text == "unlimited" {
		if name == "message_retention_days" {
			return int64(-1), nil
		}
		return nil, nil
	}
	n, err := strconv.ParseInt(text, 10, 64)
	if err != nil || n <= 0 {
		return nil, chat.Errorf(chat.CodeBadRequest, "Bad value for '%s': %s", name, text)
	}
	return n, nil
}

func (h *Handler) getRealmDomains(r *request) (any, error) {
	return h.svc.GetRealmDomains(r.ctx, r.actor)
}

func (h *Handler) createRealmDomain(r *request) (any, error) {
	domain, err := r.params.requiredStr("domain")
	if err != nil {
		return nil, err
	}
	allow, err := r.params.boolean("allow_subdomains")
	if err != nil {
		return nil, err
	}
	if allow == nil {
		return nil, chat.MissingArgument("allow_subdomains")
	}
	return h.svc.CreateRealmDomain(r.ctx, r.actor, chat.CreateRealmDomainParams{Domain: domain, AllowSubdomains: *allow})
}

func (h *Handler) patchRealmDomain(r *request) (any, error) {
	allow, err := r.params.boolean("allow_subdomains")
	if err != nil {
		return nil, err
	}
	if allow == nil {
		return nil, chat.MissingArgument("allow_subdomains")
	}
	return h.svc.PatchRealmDomain(r.ctx, r.actor, chat.PatchRealmDomainParams{Domain: r.path["domain"], AllowSubdomains: *allow})
}

func (h *Handler) deleteRealmDomain(r *request) (any, error) {
	return h.svc.DeleteRealmDomain(r.ctx, r.actor, chat.DeleteRealmDomainParams{Domain: r.path["domain"]})
}

// updateRealmUserSettingsDefaults serves PATCH /realm/user_settings_defaults: the personal
// settings, decoded by their types as PATCH /settings decodes them.
func (h *Handler) updateRealmUserSettingsDefaults(r *request) (any, error) {
	values, err := userSettingValues(r.params)
	if err != nil {
		return nil, err
	}
	return h.svc.UpdateRealmUserSettingsDefaults(r.ctx, r.actor, chat.UpdateRealmUserSettingsDefaultsParams{Values: values})
}

func (h *Handler) registerClientDevice(r *request) (any, error) {
	return h.svc.RegisterClientDevice(r.ctx, r.actor)
}

func (h *Handler) removeClientDevice(r *request) (any, error) {
	id, err := r.params.integer("device_id")
	if err != nil {
		return nil, err
	}
	if id == nil {
		return nil, chat.MissingArgument("device_id")
	}
	return h.svc.RemoveClientDevice(r.ctx, r.actor, chat.RemoveClientDeviceParams{DeviceID: *id})
}

// registerPushDevice serves POST /mobile_push/register: its parameters are read as Zulip's
// view reads them before it finds no push service.
func (h *Handler) registerPushDevice(r *request) (any, error) {
	for _, name := range []string{"token_kind", "push_account_id", "push_public_key", "bouncer_public_key", "encrypted_push_registration"} {
		if _, err := r.params.requiredStr(name); err != nil {
			return nil, err
		}
	}
	return h.svc.RegisterPushDevice(r.ctx, r.actor)
}

// pushToken serves the older push-token routes with the Service method fn.
func pushToken[R any](fn func(context.Context, chat.Actor, chat.PushTokenParams) (R, error)) func(r *request) (any, error) {
	return func(r *request) (any, error) {
		token, err := r.params.requiredStr("token")
		if err != nil {
			return nil, err
		}
		appID, _ := r.params.str("appid")
		return fn(r.ctx, r.actor, chat.PushTokenParams{Token: token, AppID: appID})
	}
}

// testWelcomeBotCustomMessage serves POST /realm/test_welcome_bot_custom_message.
func (h *Handler) testWelcomeBotCustomMessage(r *request) (any, error) {
	text, err := r.params.requiredStr("welcome_message_custom_text")
	if err != nil {
		return nil, err
	}
	return h.svc.TestWelcomeBotCustomMessage(r.ctx, r.actor, chat.TestWelcomeBotCustomMessageParams{WelcomeMessageCustomText: text})
}
