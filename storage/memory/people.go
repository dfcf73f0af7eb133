package memory

import (
	"cmp"
	"maps"
	"slices"

	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// statusTx is the user-status accessor; j is nil in a read-only transaction.
type statusTx struct {
	t *readTx
	j *journal
}

func (a statusTx) Get(id users.ID) (users.Status, error) {
	if err := a.t.live(); err != nil {
		return users.Status{}, err
	}
	s, ok := a.t.d.statuses[id]
	if !ok {
		return users.Status{}, notFound("status of user", id)
	}
	return s, nil
}

func (a statusTx) List() ([]users.Status, error) {
	if err := a.t.live(); err != nil {
		return nil, err
	}
	return sortedValues(a.t.d.statuses, same), nil
}

func (a statusTx) Put(s users.Status) error {
	if err := a.t.live(); err != nil {
		return err
	}
	setKey(a.j, a.t.d.statuses, s.UserID, s)
	return nil
}

// muteKey identifies one mute: who muted whom.
type muteKey struct{ user, muted users.ID }

// mutedTx is the muted-users accessor; j is nil in a read-only transaction.
type mutedTx struct {
	t *readTx
	j *journal
}

func (a mutedTx) List(user users.ID) ([]users.MutedUser, error) {
	if err := a.t.live(); err != nil {
		return nil, err
	}
	byMuted := map[users.ID]users.MutedUser{}
	for k, m := range a.t.d.mutes {
		if k.user == user {
			byMuted[k.muted] = m
		}
	}
	return sortedValues(byMuted, same), nil
}

func (a mutedTx) MutedBy(muted []users.ID) ([]users.MutedUser, error) {
	if err := a.t.live(); err != nil {
		return nil, err
	}
	var out []users.MutedUser
	for k, m := range a.t.d.mutes {
		if slices.Contains(muted, k.muted) {
			out = append(out, m)
		}
	}
	slices.SortFunc(out, func(x, y users.MutedUser) int {
		return cmp.Or(cmp.Compare(x.MutedUserID, y.MutedUserID), cmp.Compare(x.UserID, y.UserID))
	})
	return out, nil
}

func (a mutedTx) Add(m users.MutedUser) error {
	if err := a.t.live(); err != nil {
		return err
	}
	k := muteKey{m.UserID, m.MutedUserID}
	if _, ok := a.t.d.mutes[k]; ok {
		return conflict("mute")
	}
	setKey(a.j, a.t.d.mutes, k, m)
	return nil
}

func (a mutedTx) Remove(user, muted users.ID) error {
	if err := a.t.live(); err != nil {
		return err
	}
	k := muteKey{user, muted}
	if _, ok := a.t.d.mutes[k]; !ok {
		return notFound("mute of user", muted)
	}
	deleteKey(a.j, a.t.d.mutes, k)
	return nil
}

func (t *readTx) UserStatuses() storage.UserStatusReader { return statusTx{t: t} }
func (t *readTx) MutedUsers() storage.MutedUserReader    { return mutedTx{t: t} }
func (t *tx) UserStatuses() storage.UserStatusWriter     { return statusTx{t: &t.readTx, j: t.j} }
func (t *tx) MutedUsers() storage.MutedUserWriter        { return mutedTx{t: &t.readTx, j: t.j} }

// botTx is the bot-configuration accessor; j is nil in a read-only transaction.
type botTx struct {
	t *readTx
	j *journal
}

func cloneBotConfig(c users.BotConfig) users.BotConfig {
	c.Service.ConfigData = maps.Clone(c.Service.ConfigData)
	return c
}

func (a botTx) Get(id users.ID) (users.BotConfig, error) {
	if err := a.t.live(); err != nil {
		return users.BotConfig{}, err
	}
	c, ok := a.t.d.botConfigs[id]
	if !ok {
		return users.BotConfig{UserID: id}, nil
	}
	return cloneBotConfig(c), nil
}

func (a botTx) List() ([]users.BotConfig, error) {
	if err := a.t.live(); err != nil {
		return nil, err
	}
	return sortedValues(a.t.d.botConfigs, cloneBotConfig), nil
}

func (a botTx) Put(c users.BotConfig) error {
	if err := a.t.live(); err != nil {
		return err
	}
	setKey(a.j, a.t.d.botConfigs, c.UserID, cloneBotConfig(c))
	return nil
}

func (t *readTx) BotConfigs() storage.BotConfigReader { return botTx{t: t} }
func (t *tx) BotConfigs() storage.BotConfigWriter     { return botTx{t: &t.readTx, j: t.j} }
