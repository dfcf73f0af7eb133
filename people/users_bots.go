package people

import (
	"context"
	"strings"

	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/users"
)

// CreateBotParams are the parameters of POST /bots.
type CreateBotParams struct {
	FullName string
	// ShortName gives the bot's email: {short_name}-bot@{bot domain} (see BotDomain).
	ShortName string
	// BotType defaults to a generic bot.
	BotType users.BotType
	// PayloadURL and Interface (default generic) are an outgoing webhook bot's service
	// (payload_url, interface_type).
	PayloadURL string
	Interface  int
	// Default channels by name ("" or nil: none) and default_all_public_streams.
	DefaultSendingStream        *string
	DefaultEventsRegisterStream *string
	DefaultAllPublicStreams     *bool
}

// CreateBotResult describes the new bot.
type CreateBotResult struct {
	UserID                      users.ID `json:"user_id"`
	APIKey                      string   `json:"api_key"`
	AvatarURL                   string   `json:"avatar_url"`
	DefaultSendingStream        *string  `json:"default_sending_stream"`
	DefaultEventsRegisterStream *string  `json:"default_events_register_stream"`
	DefaultAllPublicStreams     bool     `json:"default_all_public_streams"`
}

// CreateBot creates a bot owned by the actor (a member or above; not guests, not bots) with
// its own API key. Everyone gets realm_user add, and those who administer the bot realm_bot
// add. Outgoing webhook bots need a payload URL; embedded bots are not enabled on this server.
func (s *Service) CreateBot(ctx context.Context, actor engine.Actor, p CreateBotParams) (CreateBotResult, error) {
	if p.BotType == 0 {
		p.BotType = users.BotGeneric
	}
	if !p.BotType.Valid() {
		return CreateBotResult{}, engine.BadRequest("Invalid bot_type")
	}
	if p.BotType == users.BotEmbedded {
		return CreateBotResult{}, engine.BadRequest("Embedded bots are not enabled.")
	}
	if p.Interface == 0 {
		p.Interface = users.ServiceInterfaceGeneric
	}
	var service users.BotService
	if p.BotType == users.BotOutgoingWebhook {
		if err := users.CheckServiceURL(p.PayloadURL); err != nil {
			return CreateBotResult{}, engine.BadRequest("%s", strings.Replace(err.Error(), "service_payload_url", "payload_url", 1))
		}
		if !users.ValidServiceInterface(p.Interface) {
			return CreateBotResult{}, engine.InvalidArgument("interface_type", "")
		}
		token, err := newAPIKey()
		if err != nil {
			return CreateBotResult{}, engine.InternalError(err)
		}
		service = users.BotService{BaseURL: p.PayloadURL, Interface: p.Interface, Token: token}
	}
	name, err := users.CheckFullName(p.FullName)
	if err != nil {
		return CreateBotResult{}, engine.RuleError(err)
	}
	short := strings.ToLower(strings.TrimSpace(p.ShortName))
	if short == "" || strings.ContainsAny(short, "@ ") {
		return CreateBotResult{}, engine.BadRequest("Bad name or username")
	}
	var res CreateBotResult
	err = s.eng.Mutate(ctx, actor, engine.Members, func(o *engine.WriteOp) error {
		tx, ev, me := o.Tx, o.Ev, o.Me
		realm, err := tx.Realm().Get()
		if err != nil {
			return err
		}
		if err := checkBotNameAvailable(tx.Users(), name, 0); err != nil {
			return err
		}
		email := short + "-bot@" + s.EmailDomain(realm)
		if err := users.CheckEmail(email); err != nil {
			return engine.BadRequest("Bad name or username")
		}
		if _, err := tx.Users().GetByEmail(email); err == nil {
			return engine.BadRequest("Username already in use")
		}
		u, err := s.newUser(ProvisionUserParams{Email: email, FullName: name, BotType: p.BotType,
			BotOwnerID: me.ID, EmailVisibility: users.EmailVisibleEveryone})
		if err != nil {
			return err
		}
		cfg := users.BotConfig{Service: service}
		for _, d := range []struct {
			given *string
			dst   *int64
		}{{p.DefaultSendingStream, &cfg.DefaultSendingStream}, {p.DefaultEventsRegisterStream, &cfg.DefaultEventsRegisterStream}} {
			if d.given != nil {
				if *d.dst, err = botDefaultChannel(tx, me, *d.given); err != nil {
					return err
				}
			}
		}
		setIf(&cfg.DefaultAllPublicStreams, p.DefaultAllPublicStreams)
		if u.ID, err = s.insertUser(tx, ev, u, cfg); err != nil {
			return err
		}
		rec, err := botRecord(tx.Channels(), u, cfg)
		if err != nil {
			return err
		}
		res = CreateBotResult{UserID: u.ID, APIKey: u.APIKey, AvatarURL: rec.AvatarURL, DefaultSendingStream: rec.DefaultSendingStream,
			DefaultEventsRegisterStream: rec.DefaultEventsRegisterStream, DefaultAllPublicStreams: cfg.DefaultAllPublicStreams}
		return nil
	})
	if err != nil {
		return CreateBotResult{}, err
	}
	return res, nil
}
