package people

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// BotRecord is a bot as register's realm_bots and realm_bot add events show it to those who
// administer it.
type BotRecord struct {
	Email                       string             `json:"email"`
	UserID                      users.ID           `json:"user_id"`
	FullName                    string             `json:"full_name"`
	BotType                     users.BotType      `json:"bot_type"`
	IsActive                    bool               `json:"is_active"`
	APIKey                      string             `json:"api_key"`
	DefaultSendingStream        *string            `json:"default_sending_stream"`
	DefaultEventsRegisterStream *string            `json:"default_events_register_stream"`
	DefaultAllPublicStreams     bool               `json:"default_all_public_streams"`
	AvatarURL                   string             `json:"avatar_url"`
	OwnerID                     *users.ID          `json:"owner_id"`
	Services                    []BotServiceRecord `json:"services"`
}

// BotServiceRecord is the service of an outgoing webhook bot (base_url, interface, token) or
// of an embedded bot (service_name, config_data).
type BotServiceRecord struct {
	BaseURL     string            `json:"base_url,omitempty"`
	Interface   int               `json:"interface,omitempty"`
	Token       string            `json:"token,omitempty"`
	ServiceName string            `json:"service_name,omitempty"`
	ConfigData  map[string]string `json:"config_data,omitempty"`
}

// RealmBotEvent is a realm_bot event: op add (Bot is a BotRecord), update (user_id and the
// changed fields) or delete (user_id), sent to those who administer the bot.
type RealmBotEvent struct {
	Type string `json:"type"`
	Op   string `json:"op"`
	Bot  any    `json:"bot"`
}

// RealmBotsState is register's realm_bots key: the bots the viewer administers (every bot for
// administrators, the bots they own for others), deactivated ones included.
type RealmBotsState struct {
	RealmBots []BotRecord `json:"realm_bots"`
}

// botServices is the services list of a bot's record.
func botServices(u users.User, c users.BotConfig) []BotServiceRecord {
	switch {
	case u.BotType == users.BotOutgoingWebhook && c.Service.BaseURL != "":
		return []BotServiceRecord{{BaseURL: c.Service.BaseURL, Interface: c.Service.Interface, Token: c.Service.Token}}
	case u.BotType == users.BotEmbedded && c.Service.Name != "":
		data := c.Service.ConfigData
		if data == nil {
			data = map[string]string{}
		}
		return []BotServiceRecord{{ServiceName: c.Service.Name, ConfigData: data}}
	}
	return []BotServiceRecord{}
}

// channelName is the name of a bot's default channel (nil for none or a channel gone).
func channelName(cr storage.ChannelReader, id int64) (*string, error) {
	if id == 0 {
		return nil, nil
	}
	c, err := cr.Get(channels.ID(id))
	if errors.Is(err, storage.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &c.Name, nil
}

// botRecord renders a bot with its configuration.
func botRecord(cr storage.ChannelReader, u users.User, c users.BotConfig) (BotRecord, error) {
	rec := BotRecord{Email: u.Email, UserID: u.ID, FullName: u.FullName, BotType: u.BotType, IsActive: u.IsActive,
		APIKey: u.APIKey, DefaultAllPublicStreams: c.DefaultAllPublicStreams, AvatarURL: AvatarURL(u),
		Services: botServices(u, c)}
	if u.BotOwnerID != 0 {
		owner := u.BotOwnerID
		rec.OwnerID = &owner
	}
	var err error
	if rec.DefaultSendingStream, err = channelName(cr, c.DefaultSendingStream); err != nil {
		return rec, err
	}
	rec.DefaultEventsRegisterStream, err = channelName(cr, c.DefaultEventsRegisterStream)
	return rec, err
}

// administers reports whether viewer sees bot in realm_bots.
func administers(viewer, bot users.User) bool {
	return bot.IsBot() && (viewer.Role.IsAdmin() || bot.BotOwnerID == viewer.ID)
}

// botAdmins lists the active users who administer bot: the administrators and its owner.
func botAdmins(r storage.UserReader, bot users.User) ([]int64, error) {
	all, err := r.List()
	if err != nil {
		return nil, err
	}
	var out []int64
	for _, u := range all {
		if u.IsActive && administers(u, bot) {
			out = append(out, int64(u.ID))
		}
	}
	return out, nil
}

// announceBotUpdate sends realm_bot update with the changed fields to bot's administrators.
func announceBotUpdate(r storage.UserReader, ev *engine.Events, bot users.User, changed map[string]any) error {
	to, err := botAdmins(r, bot)
	if err != nil {
		return err
	}
	changed["user_id"] = bot.ID
	ev.Emit(RealmBotEvent{Type: "realm_bot", Op: "update", Bot: changed}, to)
	return nil
}

// announceBotAdd sends realm_bot add to the given users (to nil: bot's administrators).
func announceBotAdd(tx storage.Tx, ev *engine.Events, bot users.User, to []int64) error {
	c, err := tx.BotConfigs().Get(bot.ID)
	if err != nil {
		return err
	}
	rec, err := botRecord(tx.Channels(), bot, c)
	if err != nil {
		return err
	}
	if to == nil {
		if to, err = botAdmins(tx.Users(), bot); err != nil {
			return err
		}
	}
	ev.Emit(RealmBotEvent{Type: "realm_bot", Op: "add", Bot: rec}, to)
	return nil
}

// announceAdminBots follows a change of u's role across the administrator line: the bots u
// starts or stops administering are added to or deleted from u's realm_bots.
func announceAdminBots(tx storage.Tx, ev *engine.Events, before, after users.User) error {
	if before.Role.IsAdmin() == after.Role.IsAdmin() {
		return nil
	}
	all, err := tx.Users().List()
	if err != nil {
		return err
	}
	for _, b := range all {
		if !b.IsBot() || b.BotOwnerID == after.ID {
			continue
		}
		if after.Role.IsAdmin() {
			if err := announceBotAdd(tx, ev, b, []int64{int64(after.ID)}); err != nil {
				return err
			}
		} else {
			ev.Emit(RealmBotEvent{Type: "realm_bot", Op: "delete", Bot: map[string]any{"user_id": b.ID}}, []int64{int64(after.ID)})
		}
	}
	return nil
}

// RealmBotsStateOf is register's realm_bots for viewer.
func RealmBotsStateOf(tx storage.ReadTx, all []users.User, viewer users.User) (*RealmBotsState, error) {
	st := &RealmBotsState{RealmBots: []BotRecord{}}
	if viewer.ID == 0 {
		return st, nil
	}
	configs, err := tx.BotConfigs().List()
	if err != nil {
		return nil, err
	}
	byBot := make(map[users.ID]users.BotConfig, len(configs))
	for _, c := range configs {
		byBot[c.UserID] = c
	}
	for _, u := range all {
		if !administers(viewer, u) {
			continue
		}
		rec, err := botRecord(tx.Channels(), u, byBot[u.ID])
		if err != nil {
			return nil, err
		}
		st.RealmBots = append(st.RealmBots, rec)
	}
	return st, nil
}

// AccessBot loads a bot the actor administers (Zulip's access_bot_by_id): unknown ids and
// humans are "No such bot"; others' bots, for non-administrators, "Insufficient permission".
func AccessBot(r storage.UserReader, me users.User, id users.ID) (users.User, error) {
	b, err := r.Get(id)
	if errors.Is(err, storage.ErrNotFound) || err == nil && !b.IsBot() {
		return users.User{}, engine.BadRequest("No such bot")
	}
	if err != nil {
		return users.User{}, err
	}
	if !administers(me, b) {
		return users.User{}, engine.BadRequest(engine.MsgInsufficientPerm)
	}
	return b, nil
}

// BotSummary is one bot of GET /bots.
type BotSummary struct {
	Username                    string   `json:"username"`
	UserID                      users.ID `json:"user_id"`
	FullName                    string   `json:"full_name"`
	APIKey                      string   `json:"api_key"`
	AvatarURL                   string   `json:"avatar_url"`
	DefaultSendingStream        *string  `json:"default_sending_stream"`
	DefaultEventsRegisterStream *string  `json:"default_events_register_stream"`
	DefaultAllPublicStreams     bool     `json:"default_all_public_streams"`
}

// GetBotsResult lists the actor's bots.
type GetBotsResult struct {
	Bots []BotSummary `json:"bots"`
}

// GetBots lists the active bots the actor owns, oldest first (administrators too see only
// their own here; register's realm_bots has every bot for them).
func (s *Service) GetBots(ctx context.Context, actor engine.Actor) (GetBotsResult, error) {
	res := GetBotsResult{Bots: []BotSummary{}}
	err := s.eng.Read(ctx, actor, engine.SignedIn, func(o *engine.ReadOp) error {
		tx, me := o.Tx, o.Me
		all, err := tx.Users().List()
		if err != nil {
			return err
		}
		var mine []users.User
		for _, u := range all {
			if u.IsBot() && u.IsActive && u.BotOwnerID == me.ID {
				mine = append(mine, u)
			}
		}
		slices.SortStableFunc(mine, func(a, b users.User) int { return a.DateJoined.Compare(b.DateJoined) })
		for _, u := range mine {
			c, err := tx.BotConfigs().Get(u.ID)
			if err != nil {
				return err
			}
			rec, err := botRecord(tx.Channels(), u, c)
			if err != nil {
				return err
			}
			res.Bots = append(res.Bots, BotSummary{Username: u.Email, UserID: u.ID, FullName: u.FullName, APIKey: u.APIKey,
				AvatarURL: rec.AvatarURL, DefaultSendingStream: rec.DefaultSendingStream,
				DefaultEventsRegisterStream: rec.DefaultEventsRegisterStream, DefaultAllPublicStreams: c.DefaultAllPublicStreams})
		}
		return nil
	})
	if err != nil {
		return GetBotsResult{}, err
	}
	return res, nil
}

// checkBotNameAvailable refuses a bot name an active user already has (Zulip's
// check_bot_name_available), ignoring the bot itself.
func checkBotNameAvailable(r storage.UserReader, name string, self users.ID) error {
	all, err := r.List()
	if err != nil {
		return err
	}
	for _, u := range all {
		if u.IsActive && u.ID != self && strings.EqualFold(u.FullName, name) {
			return engine.BadRequest("Name is already in use!")
		}
	}
	return nil
}
