package memory

import (
	"slices"

	"github.com/teamchat/chat/users"
)

// settingsTx is the user-settings accessor; j is nil in a read-only transaction.
type settingsTx struct {
	t *readTx
	j *journal
}

func (a settingsTx) Get(id users.ID) (users.Settings, error) {
	if err := a.t.live(); err != nil {
		return users.Settings{}, err
	}
	return a.t.d.settings[id].Clone(), nil
}

func (a settingsTx) GetMany(ids []users.ID) (map[users.ID]users.Settings, error) {
	if err := a.t.live(); err != nil {
		return nil, err
	}
	out := map[users.ID]users.Settings{}
	for _, id := range ids {
		if s, ok := a.t.d.settings[id]; ok {
			out[id] = s.Clone()
		}
	}
	return out, nil
}

func (a settingsTx) List() (map[users.ID]users.Settings, error) {
	if err := a.t.live(); err != nil {
		return nil, err
	}
	out := make(map[users.ID]users.Settings, len(a.t.d.settings))
	for id, s := range a.t.d.settings {
		out[id] = s.Clone()
	}
	return out, nil
}

func (a settingsTx) GetEmailChange(key string) (users.EmailChange, error) {
	if err := a.t.live(); err != nil {
		return users.EmailChange{}, err
	}
	c, ok := a.t.d.emailChanges[key]
	if !ok {
		return users.EmailChange{}, notFound("email change", "")
	}
	return c, nil
}

func (a settingsTx) PutMany(all map[users.ID]users.Settings) error {
	if err := a.t.live(); err != nil {
		return err
	}
	for id, s := range all {
		for name, v := range a.t.d.settings[id].Values {
			if b, ok := v.(bool); ok && b {
				deleteKey(a.j, a.t.d.settingsTrue[name], id)
			}
		}
		for name, v := range s.Values {
			if b, ok := v.(bool); ok && b {
				set := a.t.d.settingsTrue[name]
				if set == nil {
					set = map[users.ID]bool{}
					setKey(a.j, a.t.d.settingsTrue, name, set)
				}
				setKey(a.j, set, id, true)
			}
		}
		setKey(a.j, a.t.d.settings, id, s.Clone())
	}
	return nil
}

func (a settingsTx) PutEmailChange(c users.EmailChange) error {
	if err := a.t.live(); err != nil {
		return err
	}
	if _, ok := a.t.d.emailChanges[c.Key]; ok {
		return conflict("email change key")
	}
	for key, old := range a.t.d.emailChanges {
		if old.UserID == c.UserID {
			deleteKey(a.j, a.t.d.emailChanges, key)
		}
	}
	setKey(a.j, a.t.d.emailChanges, c.Key, c)
	return nil
}

func (a settingsTx) DeleteEmailChange(key string) error {
	if err := a.t.live(); err != nil {
		return err
	}
	deleteKey(a.j, a.t.d.emailChanges, key)
	return nil
}

func (a settingsTx) ListTrue(name string) ([]users.ID, error) {
	if err := a.t.live(); err != nil {
		return nil, err
	}
	out := make([]users.ID, 0, len(a.t.d.settingsTrue[name]))
	for id := range a.t.d.settingsTrue[name] {
		out = append(out, id)
	}
	slices.Sort(out)
	return out, nil
}
