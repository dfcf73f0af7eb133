package chat

import (
	"context"
	"strings"

	"github.com/teamchat/chat/users"
)

// CreateBotParams are the parameters of POST /bots.
type CreateBotParams struct {
	FullName string
	// ShortName gives the bot's email: {short_name}-bot@{realm host}.
	ShortName string
	// BotType defaults to a generic bot.
	BotType users.BotType
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
// its own API key. Everyone gets realm_user add.
func (s *Service) CreateBot(ctx context.Context, actor Actor, p CreateBotParams) (CreateBotResult, error) {
	if p.BotType == 0 {
		p.BotType = users.BotGeneric
	}
	if !p.BotType.Valid() {
		return CreateBotResult{}, badRequest("Invalid bot_type")
	}
	name, err := users.CheckFullName(p.FullName)
	if err != nil {
		return CreateBotResult{}, badRequest("%s", err.Error())
	}
	short := strings.ToLower(strings.TrimSpace(p.ShortName))
	if short == "" || strings.ContainsAny(short, "@ ") {
		return CreateBotResult{}, badRequest("Bad name or username")
	}
	var res CreateBotResult
	err = s.mutate(ctx, actor, members, func(o *writeOp) error {
		tx, ev, me := o.tx, o.ev, o.me
		realm, err := tx.Realm().Get()
		if err != nil {
			return err
		}
		all, err := tx.Users().List()
		if err != nil {
			return err
		}
		for _, u := range all {
			if u.IsActive && strings.EqualFold(u.FullName, name) {
				return badRequest("Name is already in use!")
			}
		}
		email := short + "-bot@" + realm.Host()
		if err := users.CheckEmail(email); err != nil {
			return badRequest("Bad name or username")
		}
		if _, err := tx.Users().GetByEmail(email); err == nil {
			return badRequest("Username already in use")
		}
		u, err := s.newUser(ProvisionUserParams{Email: email, FullName: name, BotType: p.BotType,
			BotOwnerID: me.ID, EmailVisibility: users.EmailVisibleEveryone})
		if err != nil {
			return err
		}
		if u.ID, err = s.insertUser(tx, ev, u); err != nil {
			return err
		}
		res = CreateBotResult{UserID: u.ID, APIKey: u.APIKey, AvatarURL: avatarURL(u)}
		return nil
	})
	if err != nil {
		return CreateBotResult{}, err
	}
	return res, nil
}
