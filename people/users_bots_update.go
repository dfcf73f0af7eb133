package people

import (
	"context"
	"errors"

	"github.com/teamchat/chat/bots"
	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// UpdateBotParams are the parameters of PATCH /bots/{bot_id}. Absent fields (nil) are left
// unchanged; an empty default channel name clears it.
type UpdateBotParams struct {
	BotID                       users.ID
	FullName                    *string
	Role                        *users.Role
	BotOwnerID                  *users.ID
	DefaultSendingStream        *string
	DefaultEventsRegisterStream *string
	DefaultAllPublicStreams     *bool
	// ServicePayloadURL and ServiceInterface (default generic) change an outgoing webhook's
	// service.
	ServicePayloadURL *string
	ServiceInterface  *int
	// ConfigData replaces an embedded bot's configuration.
	ConfigData map[string]string
}

// UpdateBotResult is the bot after the change, as Zulip answers PATCH /bots/{bot_id}.
type UpdateBotResult struct {
	FullName                    string            `json:"full_name"`
	AvatarURL                   string            `json:"avatar_url"`
	ServiceInterface            *int              `json:"service_interface"`
	ServicePayloadURL           *string           `json:"service_payload_url"`
	ConfigData                  map[string]string `json:"config_data"`
	DefaultSendingStream        *string           `json:"default_sending_stream"`
	DefaultEventsRegisterStream *string           `json:"default_events_register_stream"`
	DefaultAllPublicStreams     bool              `json:"default_all_public_streams"`
	BotOwner                    string            `json:"bot_owner,omitempty"`
}

// check validates what needs no store.
func (p UpdateBotParams) check() error {
	if p.FullName != nil {
		if _, err := users.CheckFullName(*p.FullName); err != nil {
			return engine.RuleError(err)
		}
	}
	if p.ServicePayloadURL != nil {
		if err := users.CheckServiceURL(*p.ServicePayloadURL); err != nil {
			return engine.RuleError(err)
		}
	}
	if p.ServiceInterface != nil && !users.ValidServiceInterface(*p.ServiceInterface) {
		return engine.InvalidArgument("service_interface", "")
	}
	if len(p.ConfigData) > users.MaxBotConfigEntries {
		return engine.BadRequest("config_data is too long (limit: %d items)", users.MaxBotConfigEntries)
	}
	for k, v := range p.ConfigData {
		if len(k)+len(v) > users.MaxBotConfigValueSize {
			return engine.BadRequest("config_data is too long")
		}
	}
	return bots.CheckBotConfig(p.ConfigData) // Zulip's BOT_CONFIG_SIZE_LIMIT, all entries together
}

// UpdateBot changes a bot the actor administers: its name, role (administrators), owner,
// default channels and service. Each change is announced as Zulip does: realm_user updates to
// everyone for the name and owner, realm_bot updates (and, for an owner change, delete and add)
// to those who administer the bot.
func (s *Service) UpdateBot(ctx context.Context, actor engine.Actor, p UpdateBotParams) (UpdateBotResult, error) {
	if err := p.check(); err != nil {
		return UpdateBotResult{}, err
	}
	var res UpdateBotResult
	err := s.eng.Mutate(ctx, actor, engine.SignedIn, func(o *engine.WriteOp) error {
		tx, ev, me := o.Tx, o.Ev, o.Me
		bot, err := AccessBot(tx.Users(), me, p.BotID)
		if err != nil {
			return err
		}
		if bot, err = s.updateBotUser(tx, ev, me, bot, p); err != nil {
			return err
		}
		cfg, err := s.updateBotConfig(tx, ev, me, bot, p)
		if err != nil {
			return err
		}
		rec, err := botRecord(tx.Channels(), bot, cfg)
		if err != nil {
			return err
		}
		res = UpdateBotResult{FullName: bot.FullName, AvatarURL: rec.AvatarURL, ServiceInterface: p.ServiceInterface,
			ServicePayloadURL: p.ServicePayloadURL, ConfigData: p.ConfigData, DefaultSendingStream: rec.DefaultSendingStream,
			DefaultEventsRegisterStream: rec.DefaultEventsRegisterStream, DefaultAllPublicStreams: cfg.DefaultAllPublicStreams}
		if bot.BotOwnerID != 0 {
			owner, err := tx.Users().Get(bot.BotOwnerID)
			if err != nil && !errors.Is(err, storage.ErrNotFound) {
				return err
			}
			res.BotOwner = owner.Email
		}
		return nil
	})
	if err != nil {
		return UpdateBotResult{}, err
	}
	return res, nil
}

// updateBotUser applies the changes of the bot's user record: name, role and owner.
func (s *Service) updateBotUser(tx storage.Tx, ev *engine.Events, me, bot users.User, p UpdateBotParams) (users.User, error) {
	old := bot
	if err := renameBot(tx.Users(), &bot, p.FullName); err != nil {
		return bot, err
	}
	if err := changeBotRoleTo(me, &bot, p.Role); err != nil {
		return bot, err
	}
	previous, err := changeBotOwnerTo(tx.Users(), &bot, p.BotOwnerID)
	if err != nil {
		return bot, err
	}
	if bot == old {
		return bot, nil
	}
	if err := tx.Users().Update(bot); err != nil {
		return bot, err
	}
	s.userRewritten(ev, old, bot)
	return bot, s.announceBotUserChange(tx, ev, old, bot, previous)
}

// renameBot gives bot the full name given, if it differs, once its name is free.
func renameBot(ur storage.UserReader, bot *users.User, fullName *string) error {
	if fullName == nil {
		return nil
	}
	name, _ := users.CheckFullName(*fullName)
	if name == bot.FullName {
		return nil
	}
	if err := checkBotNameAvailable(ur, name, bot.ID); err != nil {
		return err
	}
	bot.FullName = name
	return nil
}

// changeBotRoleTo gives bot the role given, if it differs: an administrator's change, and an
// owner's where the role given or the bot's is owner.
func changeBotRoleTo(me users.User, bot *users.User, role *users.Role) error {
	if role == nil || *role == bot.Role {
		return nil
	}
	if !role.Valid() {
		return engine.InvalidArgument("role", "")
	}
	if (*role == users.RoleOwner || bot.Role == users.RoleOwner) && me.Role != users.RoleOwner {
		return engine.ErrMustBeOwner()
	}
	if !me.Role.IsAdmin() {
		return engine.ErrMustBeAdmin()
	}
	bot.Role = *role
	return nil
}

// changeBotOwnerTo gives bot the owner given, if it differs, who must be an active human; it
// returns the previous owner (the zero User if none or gone).
func changeBotOwnerTo(ur storage.UserReader, bot *users.User, ownerID *users.ID) (users.User, error) {
	var previous users.User
	if ownerID == nil || *ownerID == bot.BotOwnerID {
		return previous, nil
	}
	owner, err := ur.Get(*ownerID)
	switch {
	case errors.Is(err, storage.ErrNotFound):
		return previous, engine.BadRequest("Failed to change owner, no such user")
	case err != nil:
		return previous, err
	case !owner.IsActive:
		return previous, engine.BadRequest("Failed to change owner, user is deactivated")
	case owner.IsBot():
		return previous, engine.BadRequest("Failed to change owner, bots can't own other bots")
	}
	if bot.BotOwnerID != 0 {
		if previous, err = ur.Get(bot.BotOwnerID); err != nil && !errors.Is(err, storage.ErrNotFound) {
			return previous, err
		}
	}
	bot.BotOwnerID = owner.ID
	return previous, nil
}

// announceBotUserChange announces what changed from old to bot: the name, the role, the owner
// (previous is the previous owner).
func (s *Service) announceBotUserChange(tx storage.Tx, ev *engine.Events, old, bot, previous users.User) error {
	if bot.FullName != old.FullName {
		if err := announceUserUpdate(tx.Users(), ev, person{"user_id": bot.ID, "full_name": bot.FullName}); err != nil {
			return err
		}
		if err := announceBotUpdate(tx.Users(), ev, bot, map[string]any{"full_name": bot.FullName}); err != nil {
			return err
		}
	}
	if bot.Role != old.Role {
		if err := s.changeBotRole(tx, ev, old, bot); err != nil {
			return err
		}
	}
	if bot.BotOwnerID != old.BotOwnerID {
		return announceOwnerChange(tx, ev, previous, bot)
	}
	return nil
}

// changeBotRole announces a bot's new role (see announceRoleChange).
func (s *Service) changeBotRole(tx storage.Tx, ev *engine.Events, old, bot users.User) error {
	realm, err := tx.Realm().Get()
	if err != nil {
		return err
	}
	return announceRoleChange(tx, ev, realm, old, bot)
}

// announceOwnerChange follows Zulip's do_change_bot_owner: the previous owner (unless an
// administrator) loses the bot (realm_bot delete), the new owner (unless an administrator)
// gains it (realm_bot add), the administrators and the owner learn the new owner_id, and
// everyone the new bot_owner_id.
func announceOwnerChange(tx storage.Tx, ev *engine.Events, previous, bot users.User) error {
	if previous.ID != 0 && previous.IsActive && !previous.Role.IsAdmin() {
		ev.Emit(RealmBotEvent{Type: "realm_bot", Op: "delete", Bot: map[string]any{"user_id": bot.ID}}, []int64{int64(previous.ID)})
	}
	owner, err := tx.Users().Get(bot.BotOwnerID)
	if err != nil {
		return err
	}
	if !owner.Role.IsAdmin() {
		if err := announceBotAdd(tx, ev, bot, []int64{int64(owner.ID)}); err != nil {
			return err
		}
	}
	admins, err := botAdmins(tx.Users(), bot)
	if err != nil {
		return err
	}
	var others []int64
	for _, id := range admins {
		if id != int64(owner.ID) || owner.Role.IsAdmin() {
			others = append(others, id)
		}
	}
	ev.Emit(RealmBotEvent{Type: "realm_bot", Op: "update", Bot: map[string]any{"user_id": bot.ID, "owner_id": bot.BotOwnerID}}, others)
	return announceUserUpdate(tx.Users(), ev, person{"user_id": bot.ID, "bot_owner_id": bot.BotOwnerID})
}

// botDefaultChannel resolves a default channel name for a bot as me may see it (Zulip's
// access_stream_by_name): "" is none.
func botDefaultChannel(tx storage.Tx, me users.User, name string) (int64, error) {
	if name == "" {
		return 0, nil
	}
	c, err := tx.Channels().GetByName(name)
	if errors.Is(err, storage.ErrNotFound) {
		return 0, engine.BadRequest("Invalid channel name '%s'", name)
	} else if err != nil {
		return 0, err
	}
	if c.InviteOnly || me.Role == users.RoleGuest {
		sub, err := tx.Subscriptions().Get(me.ID, c.ID)
		if errors.Is(err, storage.ErrNotFound) || err == nil && !sub.Active {
			return 0, engine.BadRequest("Invalid channel name '%s'", name)
		} else if err != nil {
			return 0, err
		}
	}
	return int64(c.ID), nil
}

// updateBotConfig applies the changes of the bot's default channels and service, each with a
// realm_bot update.
func (s *Service) updateBotConfig(tx storage.Tx, ev *engine.Events, me, bot users.User, p UpdateBotParams) (users.BotConfig, error) {
	cfg, err := tx.BotConfigs().Get(bot.ID)
	if err != nil {
		return cfg, err
	}
	changed := map[string]any{}
	for _, d := range []struct {
		name  string
		given *string
		dst   *int64
	}{{"default_sending_stream", p.DefaultSendingStream, &cfg.DefaultSendingStream},
		{"default_events_register_stream", p.DefaultEventsRegisterStream, &cfg.DefaultEventsRegisterStream}} {
		if d.given == nil {
			continue
		}
		if *d.dst, err = botDefaultChannel(tx, me, *d.given); err != nil {
			return cfg, err
		}
		name, err := channelName(tx.Channels(), *d.dst)
		if err != nil {
			return cfg, err
		}
		changed[d.name] = name
	}
	if p.DefaultAllPublicStreams != nil {
		cfg.DefaultAllPublicStreams = *p.DefaultAllPublicStreams
		changed["default_all_public_streams"] = cfg.DefaultAllPublicStreams
	}
	if p.ServicePayloadURL != nil && bot.BotType == users.BotOutgoingWebhook {
		cfg.Service.BaseURL = *p.ServicePayloadURL
		cfg.Service.Interface = users.ServiceInterfaceGeneric
		setIf(&cfg.Service.Interface, p.ServiceInterface)
		if cfg.Service.Token == "" {
			if cfg.Service.Token, err = newAPIKey(); err != nil {
				return cfg, err
			}
		}
		changed["services"] = botServices(bot, cfg)
	}
	if p.ConfigData != nil && bot.BotType == users.BotEmbedded {
		cfg.Service.ConfigData = p.ConfigData
		changed["services"] = botServices(bot, cfg)
	}
	if len(changed) == 0 {
		return cfg, nil
	}
	if err := tx.BotConfigs().Put(cfg); err != nil {
		return cfg, err
	}
	for _, name := range []string{"default_sending_stream", "default_events_register_stream", "default_all_public_streams", "services"} {
		if v, ok := changed[name]; ok {
			if err := announceBotUpdate(tx.Users(), ev, bot, map[string]any{name: v}); err != nil {
				return cfg, err
			}
		}
	}
	return cfg, nil
}

// BotParams name a bot (POST /bots/{bot_id}/api_key/regenerate, DELETE /bots/{bot_id}).
type BotParams struct {
	BotID users.ID
}

// RegenerateBotAPIKey gives a bot the actor administers a new API key; the old one stops
// working at once. Those who administer the bot get a realm_bot update.
func (s *Service) RegenerateBotAPIKey(ctx context.Context, actor engine.Actor, p BotParams) (RegenerateAPIKeyResult, error) {
	key, err := newAPIKey()
	if err != nil {
		return RegenerateAPIKeyResult{}, engine.InternalError(err)
	}
	err = s.eng.Mutate(ctx, actor, engine.SignedIn, func(o *engine.WriteOp) error {
		tx, ev, me := o.Tx, o.Ev, o.Me
		bot, err := AccessBot(tx.Users(), me, p.BotID)
		if err != nil {
			return err
		}
		bot.APIKey = key
		if err := tx.Users().Update(bot); err != nil {
			return err
		}
		if err := s.endSessions(tx, ev, bot.ID, ""); err != nil {
			return err
		}
		return announceBotUpdate(tx.Users(), ev, bot, map[string]any{"api_key": key})
	})
	if err != nil {
		return RegenerateAPIKeyResult{}, err
	}
	return RegenerateAPIKeyResult{APIKey: key}, nil
}

// DeactivateBotResult is DeactivateBot's answer: nothing beyond success.
type DeactivateBotResult struct{}

// DeactivateBot deactivates a bot the actor administers (DELETE /bots/{bot_id}), as an
// administrator's deactivation of a user does.
func (s *Service) DeactivateBot(ctx context.Context, actor engine.Actor, p BotParams) (DeactivateBotResult, error) {
	return DeactivateBotResult{}, s.eng.Mutate(ctx, actor, engine.SignedIn, func(o *engine.WriteOp) error {
		tx, me := o.Tx, o.Me
		bot, err := AccessBot(tx.Users(), me, p.BotID)
		if err != nil {
			return err
		}
		if !bot.IsActive {
			return engine.BadRequest(msgUserDeactivated400)
		}
		return s.deactivateOne(o, bot, DeactivateUserActions{})
	})
}
