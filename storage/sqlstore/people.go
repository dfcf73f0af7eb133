package sqlstore

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// statusTx is the user-status accessor: one row per user who ever set a status.
type statusTx struct{ t *txn }

const statusColumns = "user_id, status_text, emoji_name, emoji_code, reaction_type, updated_at"

func scanStatus(r *sql.Rows) (users.Status, error) {
	var s users.Status
	var at sql.NullInt64
	err := r.Scan(&s.UserID, &s.StatusText, &s.EmojiName, &s.EmojiCode, &s.ReactionType, &at)
	s.Timestamp = fromNanos(at)
	return s, err
}

func (a statusTx) Get(id users.ID) (users.Status, error) {
	list, err := scanAll(a.t, scanStatus, "SELECT "+statusColumns+" FROM user_statuses WHERE user_id = ?", id)
	if err != nil {
		return users.Status{}, err
	}
	if len(list) == 0 {
		return users.Status{}, notFound("status of user", id)
	}
	return list[0], nil
}

func (a statusTx) List() ([]users.Status, error) {
	out, err := scanAll(a.t, scanStatus, "SELECT "+statusColumns+" FROM user_statuses ORDER BY user_id")
	if out == nil && err == nil {
		out = []users.Status{}
	}
	return out, err
}

func (a statusTx) Put(s users.Status) error {
	_, err := a.t.exec("INSERT INTO user_statuses ("+statusColumns+") VALUES (?, ?, ?, ?, ?, ?) "+
		"ON CONFLICT (user_id) DO UPDATE SET status_text = excluded.status_text, "+
		"emoji_name = excluded.emoji_name, emoji_code = excluded.emoji_code, "+
		"reaction_type = excluded.reaction_type, updated_at = excluded.updated_at",
		s.UserID, s.StatusText, s.EmojiName, s.EmojiCode, s.ReactionType, nanos(s.Timestamp))
	return err
}

// mutedTx is the muted-users accessor.
type mutedTx struct{ t *txn }

// scanMute reads a muted_users row (user_id, muted_user_id, date_muted).
func scanMute(r *sql.Rows) (users.MutedUser, error) {
	var m users.MutedUser
	var at sql.NullInt64
	err := r.Scan(&m.UserID, &m.MutedUserID, &at)
	m.DateMuted = fromNanos(at)
	return m, err
}

func (a mutedTx) List(user users.ID) ([]users.MutedUser, error) {
	out, err := scanAll(a.t, scanMute, "SELECT user_id, muted_user_id, date_muted FROM muted_users WHERE user_id = ? ORDER BY muted_user_id", user)
	if out == nil && err == nil {
		out = []users.MutedUser{}
	}
	return out, err
}

// MutedBy filters the cached list of every mute (each message asks it of its sender).
func (a mutedTx) MutedBy(muted []users.ID) ([]users.MutedUser, error) {
	if len(muted) == 0 {
		return nil, a.t.live()
	}
	all, err := cachedList(a.t, mutedTable, &a.t.cache.muted, nil, func() ([]users.MutedUser, error) {
		return scanAll(a.t, scanMute, "SELECT user_id, muted_user_id, date_muted FROM muted_users ORDER BY muted_user_id, user_id")
	})
	if err != nil {
		return nil, err
	}
	var out []users.MutedUser
	for _, m := range all {
		if slices.Contains(muted, m.MutedUserID) {
			out = append(out, m)
		}
	}
	return out, nil
}

func (a mutedTx) Add(m users.MutedUser) error {
	if err := a.t.bump(mutedTable); err != nil {
		return err
	}
	return a.t.guarded(func() error {
		_, err := a.t.exec("INSERT INTO muted_users (user_id, muted_user_id, date_muted) VALUES (?, ?, ?)",
			m.UserID, m.MutedUserID, nanos(m.DateMuted))
		return err
	})
}

func (a mutedTx) Remove(user, muted users.ID) error {
	if err := a.t.bump(mutedTable); err != nil {
		return err
	}
	res, err := a.t.exec("DELETE FROM muted_users WHERE user_id = ? AND muted_user_id = ?", user, muted)
	if err != nil {
		return err
	}
	return mustAffect(res, "mute of user", muted)
}

func (r *readTx) UserStatuses() storage.UserStatusReader { return statusTx{r.t} }
func (r *readTx) MutedUsers() storage.MutedUserReader    { return mutedTx{r.t} }
func (w *tx) UserStatuses() storage.UserStatusWriter     { return statusTx{w.t} }
func (w *tx) MutedUsers() storage.MutedUserWriter        { return mutedTx{w.t} }

// botTx is the bot-configuration accessor: one row per configured bot.
type botTx struct{ t *txn }

const botColumns = "user_id, default_sending_stream, default_events_register_stream, default_all_public_streams, " +
	"service_name, service_base_url, service_interface, service_token, config_data"

func scanBotConfig(r *sql.Rows) (users.BotConfig, error) {
	var c users.BotConfig
	var data string
	if err := r.Scan(&c.UserID, &c.DefaultSendingStream, &c.DefaultEventsRegisterStream, &c.DefaultAllPublicStreams,
		&c.Service.Name, &c.Service.BaseURL, &c.Service.Interface, &c.Service.Token, &data); err != nil {
		return c, err
	}
	if data != "" {
		if err := json.Unmarshal([]byte(data), &c.Service.ConfigData); err != nil {
			return c, fmt.Errorf("sqlstore: bot config data: %w", err)
		}
	}
	return c, nil
}

func (a botTx) Get(id users.ID) (users.BotConfig, error) {
	list, err := scanAll(a.t, scanBotConfig, "SELECT "+botColumns+" FROM bot_configs WHERE user_id = ?", id)
	if err != nil {
		return users.BotConfig{}, err
	}
	if len(list) == 0 {
		return users.BotConfig{UserID: id}, nil
	}
	return list[0], nil
}

func (a botTx) List() ([]users.BotConfig, error) {
	out, err := scanAll(a.t, scanBotConfig, "SELECT "+botColumns+" FROM bot_configs ORDER BY user_id")
	if out == nil && err == nil {
		out = []users.BotConfig{}
	}
	return out, err
}

func (a botTx) Put(c users.BotConfig) error {
	data := ""
	if c.Service.ConfigData != nil {
		b, err := json.Marshal(c.Service.ConfigData)
		if err != nil {
			return err
		}
		data = string(b)
	}
	_, err := a.t.exec("INSERT INTO bot_configs ("+botColumns+") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "+
		"ON CONFLICT (user_id) DO UPDATE SET default_sending_stream = excluded.default_sending_stream, "+
		"default_events_register_stream = excluded.default_events_register_stream, "+
		"default_all_public_streams = excluded.default_all_public_streams, service_name = excluded.service_name, "+
		"service_base_url = excluded.service_base_url, service_interface = excluded.service_interface, "+
		"service_token = excluded.service_token, config_data = excluded.config_data",
		c.UserID, c.DefaultSendingStream, c.DefaultEventsRegisterStream, c.DefaultAllPublicStreams,
		c.Service.Name, c.Service.BaseURL, c.Service.Interface, c.Service.Token, data)
	return err
}

func (r *readTx) BotConfigs() storage.BotConfigReader { return botTx{r.t} }
func (w *tx) BotConfigs() storage.BotConfigWriter     { return botTx{w.t} }
