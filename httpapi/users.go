package httpapi

import (
	"encoding/json"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/users"
)

// userQuery decodes client_gravatar and include_custom_profile_fields.
func userQuery(p *params) (chat.UserQueryOptions, error) {
	var (
		o   chat.UserQueryOptions
		err error
	)
	if o.ClientGravatar, err = p.boolean("client_gravatar"); err != nil {
		return o, err
	}
	o.IncludeCustomProfileFields, err = p.boolOr("include_custom_profile_fields", false)
	return o, err
}

// getUsers serves GET /users.
func (h *Handler) getUsers(r *request) (any, error) {
	o, err := userQuery(r.params)
	if err != nil {
		return nil, err
	}
	ids, err := jsonParam[[]users.ID](r.params, "user_ids", false)
	if err != nil {
		return nil, err
	}
	gp := chat.GetUsersParams{UserQueryOptions: o}
	if ids != nil && *ids != nil {
		gp.UserIDs = *ids
	}
	return h.svc.GetUsers(r.ctx, r.actor, gp)
}

// getOwnUser serves GET /users/me.
func (h *Handler) getOwnUser(r *request) (any, error) {
	o, err := userQuery(r.params)
	if err != nil {
		return nil, err
	}
	return h.svc.GetOwnUser(r.ctx, r.actor, o)
}

// getUser serves GET /users/{user_id} and GET /users/{email}: a number is an id.
func (h *Handler) getUser(r *request) (any, error) {
	o, err := userQuery(r.params)
	if err != nil {
		return nil, err
	}
	key := r.path["user_id_or_email"]
	if id, ok := parseID[users.ID](key); ok {
		return h.svc.GetUser(r.ctx, r.actor, chat.GetUserParams{UserID: id, UserQueryOptions: o})
	}
	return h.svc.GetUserByEmail(r.ctx, r.actor, chat.GetUserByEmailParams{Email: key, UserQueryOptions: o})
}

// updateUser serves PATCH /users/{user_id}.
func (h *Handler) updateUser(r *request) (any, error) {
	up, err := updateUserParams(r)
	if err != nil {
		return nil, err
	}
	up.UserID = pathID[users.ID](r, "user_id")
	return h.svc.UpdateUser(r.ctx, r.actor, up)
}

// updateUserByEmail serves PATCH /users/{email}.
func (h *Handler) updateUserByEmail(r *request) (any, error) {
	up, err := updateUserParams(r)
	if err != nil {
		return nil, err
	}
	return h.svc.UpdateUserByEmail(r.ctx, r.actor, chat.UpdateUserByEmailParams{Email: r.path["email"], UpdateUserParams: up})
}

// deactivateOwnUser serves DELETE /users/me.
func (h *Handler) deactivateOwnUser(r *request) (any, error) {
	return h.svc.DeactivateOwnUser(r.ctx, r.actor, chat.DeactivateOwnUserParams{})
}

// updateUserParams decodes the body of PATCH /users/{user_id} and /users/{email}.
func updateUserParams(r *request) (chat.UpdateUserParams, error) {
	var up chat.UpdateUserParams
	up.FullName = r.params.optStr("full_name")
	role, err := r.params.integer("role")
	if err != nil {
		return up, err
	}
	if role != nil {
		rl := users.Role(*role)
		up.Role = &rl
	}
	data, err := jsonParam[[]chat.ProfileDataUpdate](r.params, "profile_data", true)
	if err != nil {
		return up, err
	}
	if data != nil {
		up.ProfileData = *data
	}
	up.NewEmail = r.params.optStr("new_email")
	return up, nil
}

// deactivateUser serves DELETE /users/{user_id}.
func (h *Handler) deactivateUser(r *request) (any, error) {
	dp := chat.DeactivateUserParams{UserID: pathID[users.ID](r, "user_id")}
	var err error
	if dp.Actions, err = jsonParam[chat.DeactivateUserActions](r.params, "actions", true); err != nil {
		return nil, err
	}
	dp.DeactivationNotificationComment = r.params.optStr("deactivation_notification_comment")
	return h.svc.DeactivateUser(r.ctx, r.actor, dp)
}

// reactivateUser serves POST /users/{user_id}/reactivate.
func (h *Handler) reactivateUser(r *request) (any, error) {
	return h.svc.ReactivateUser(r.ctx, r.actor, chat.ReactivateUserParams{UserID: pathID[users.ID](r, "user_id")})
}

// createUser serves POST /users.
func (h *Handler) createUser(r *request) (any, error) {
	var cp chat.CreateUserParams
	var err error
	if cp.Email, err = r.params.requiredStr("email"); err != nil {
		return nil, err
	}
	if cp.Password, err = r.params.requiredStr("password"); err != nil {
		return nil, err
	}
	if cp.FullName, err = r.params.requiredStr("full_name"); err != nil {
		return nil, err
	}
	return h.svc.CreateUser(r.ctx, r.actor, cp)
}

// createBot serves POST /bots.
func (h *Handler) createBot(r *request) (any, error) {
	var bp chat.CreateBotParams
	var err error
	if bp.FullName, err = r.params.requiredStr("full_name"); err != nil {
		return nil, err
	}
	if bp.ShortName, err = r.params.requiredStr("short_name"); err != nil {
		return nil, err
	}
	bt, err := r.params.integer("bot_type")
	if err != nil {
		return nil, err
	}
	if bt != nil {
		bp.BotType = users.BotType(*bt)
	}
	if url, ok := r.params.str("payload_url"); ok {
		bp.PayloadURL = jsonOrPlainString(url)
	}
	it, err := r.params.integer("interface_type")
	if err != nil {
		return nil, err
	}
	if it != nil {
		bp.Interface = int(*it)
	}
	bp.DefaultSendingStream = r.params.optStr("default_sending_stream")
	bp.DefaultEventsRegisterStream = r.params.optStr("default_events_register_stream")
	if bp.DefaultAllPublicStreams, err = r.params.boolean("default_all_public_streams"); err != nil {
		return nil, err
	}
	return h.svc.CreateBot(r.ctx, r.actor, bp)
}

// jsonOrPlainString reads a Json[str] parameter leniently: a JSON string is decoded, anything
// else taken as it is.
func jsonOrPlainString(v string) string {
	var s string
	if err := json.Unmarshal([]byte(v), &s); err == nil {
		return s
	}
	return v
}

// getBots serves GET /bots.
func (h *Handler) getBots(r *request) (any, error) {
	return h.svc.GetBots(r.ctx, r.actor)
}

// updateBot serves PATCH /bots/{bot_id}.
func (h *Handler) updateBot(r *request) (any, error) {
	p := r.params
	up := chat.UpdateBotParams{BotID: pathID[users.ID](r, "bot_id")}
	up.FullName = p.optStr("full_name")
	up.DefaultSendingStream = p.optStr("default_sending_stream")
	up.DefaultEventsRegisterStream = p.optStr("default_events_register_stream")
	var err error
	if up.DefaultAllPublicStreams, err = p.boolean("default_all_public_streams"); err != nil {
		return nil, err
	}
	for _, n := range []struct {
		name string
		set  func(int64)
	}{
		{"role", func(v int64) { rl := users.Role(v); up.Role = &rl }},
		{"bot_owner_id", func(v int64) { id := users.ID(v); up.BotOwnerID = &id }},
		{"service_interface", func(v int64) { i := int(v); up.ServiceInterface = &i }},
	} {
		v, err := p.integer(n.name)
		if err != nil {
			return nil, err
		}
		if v != nil {
			n.set(*v)
		}
	}
	if url, ok := p.str("service_payload_url"); ok {
		u := jsonOrPlainString(url)
		up.ServicePayloadURL = &u
	}
	data, err := jsonParam[map[string]string](p, "config_data", true)
	if err != nil {
		return nil, err
	}
	if data != nil {
		up.ConfigData = *data
	}
	return h.svc.UpdateBot(r.ctx, r.actor, up)
}

// regenerateBotAPIKey serves POST /bots/{bot_id}/api_key/regenerate.
func (h *Handler) regenerateBotAPIKey(r *request) (any, error) {
	return h.svc.RegenerateBotAPIKey(r.ctx, r.actor, chat.BotParams{BotID: pathID[users.ID](r, "bot_id")})
}

// deactivateBot serves DELETE /bots/{bot_id}.
func (h *Handler) deactivateBot(r *request) (any, error) {
	return h.svc.DeactivateBot(r.ctx, r.actor, chat.BotParams{BotID: pathID[users.ID](r, "bot_id")})
}
