package sqlstore

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/teamchat/chat/users"
)

// settingsTx is the user-settings accessor: one JSON row per user in user_settings, pending
// email changes in email_changes.
type settingsTx struct{ t *txn }

type storedSettings struct {
	Values     map[string]any `json:"values,omitempty"`
	SelfEdited []string       `json:"self_edited,omitempty"`
}

func encodeSettings(s users.Settings) string {
	b, _ := json.Marshal(storedSettings{Values: s.Values, SelfEdited: s.SelfEdited}) // bool, int64, string only
	return string(b)
}

// decodeSettings reads the JSON form back, integers as int64.
func decodeSettings(text string) (users.Settings, error) {
	var st storedSettings
	dec := json.NewDecoder(bytes.NewReader([]byte(text)))
	dec.UseNumber()
	if err := dec.Decode(&st); err != nil {
		return users.Settings{}, fmt.Errorf("sqlstore: user settings: %w", err)
	}
	for k, v := range st.Values {
		if n, ok := v.(json.Number); ok {
			i, err := n.Int64()
			if err != nil {
				return users.Settings{}, fmt.Errorf("sqlstore: user setting %s: %w", k, err)
			}
			st.Values[k] = i
		}
	}
	return users.Settings{Values: st.Values, SelfEdited: st.SelfEdited}, nil
}

type settingsRow struct {
	user users.ID
	s    users.Settings
}

func scanSettings(row *sql.Rows) (settingsRow, error) {
	var r settingsRow
	var text string
	if err := row.Scan(&r.user, &text); err != nil {
		return r, err
	}
	s, err := decodeSettings(text)
	r.s = s
	return r, err
}

func (a settingsTx) Get(id users.ID) (users.Settings, error) {
	m, err := a.GetMany([]users.ID{id})
	if err != nil {
		return users.Settings{}, err
	}
	return m[id], nil
}

func (a settingsTx) GetMany(list []users.ID) (map[users.ID]users.Settings, error) {
	return a.settingsMap(scanAll(a.t, scanSettings, "SELECT user_id, settings FROM user_settings WHERE user_id IN ("+a.t.d.idSet+")", ids(a.t.d, list)))
}

func (a settingsTx) List() (map[users.ID]users.Settings, error) {
	return a.settingsMap(scanAll(a.t, scanSettings, "SELECT user_id, settings FROM user_settings"))
}

func (settingsTx) settingsMap(rows []settingsRow, err error) (map[users.ID]users.Settings, error) {
	if err != nil {
		return nil, err
	}
	out := make(map[users.ID]users.Settings, len(rows))
	for _, r := range rows {
		out[r.user] = r.s
	}
	return out, nil
}

func (a settingsTx) PutMany(all map[users.ID]users.Settings) error {
	keys := make([]users.ID, 0, len(all))
	for id := range all {
		keys = append(keys, id)
	}
	slices.Sort(keys)
	if len(keys) > 0 {
		if err := a.t.bump(settingsTable); err != nil {
			return err
		}
	}
	rows := make([][]any, len(keys))
	for i, id := range keys {
		rows[i] = []any{id, encodeSettings(all[id])}
	}
	return insertRows(a.t, "INSERT INTO user_settings (user_id, settings)", 2, rows,
		"ON CONFLICT (user_id) DO UPDATE SET settings = excluded.settings")
}

func (a settingsTx) GetEmailChange(key string) (users.EmailChange, error) {
	c := users.EmailChange{Key: key}
	var expires sql.NullInt64
	err := a.t.get("SELECT user_id, new_email, expires FROM email_changes WHERE change_key = ?", []any{key},
		&c.UserID, &c.NewEmail, &expires)
	if err != nil {
		return users.EmailChange{}, err
	}
	c.Expires = fromNanos(expires)
	return c, nil
}

func (a settingsTx) PutEmailChange(c users.EmailChange) error {
	return a.t.guarded(func() error {
		if _, err := a.t.exec("DELETE FROM email_changes WHERE user_id = ? AND change_key <> ?", c.UserID, c.Key); err != nil {
			return err
		}
		_, err := a.t.exec("INSERT INTO email_changes (change_key, user_id, new_email, expires) VALUES (?, ?, ?, ?)",
			c.Key, c.UserID, c.NewEmail, nanos(c.Expires))
		return err
	})
}

func (a settingsTx) DeleteEmailChange(key string) error {
	_, err := a.t.exec("DELETE FROM email_changes WHERE change_key = ?", key)
	return err
}

// settingsTrue is one user's stored settings whose value is true, as the cached list keeps it.
type settingsTrue struct {
	user  users.ID
	names []string // ascending
}

func (a settingsTx) ListTrue(name string) ([]users.ID, error) {
	all, _, err := sharedList(a.t, settingsTable, &a.t.cache.settingsTrue, func() ([]settingsTrue, error) {
		rows, err := scanAll(a.t, scanSettings, "SELECT user_id, settings FROM user_settings ORDER BY user_id")
		if err != nil {
			return nil, err
		}
		out := make([]settingsTrue, 0, len(rows))
		for _, r := range rows {
			var names []string
			for k, v := range r.s.Values {
				if b, ok := v.(bool); ok && b {
					names = append(names, k)
				}
			}
			if len(names) > 0 {
				slices.Sort(names)
				out = append(out, settingsTrue{user: r.user, names: names})
			}
		}
		return out, nil
	})
	if err != nil {
		return nil, err
	}
	out := []users.ID{}
	for _, x := range all {
		if _, found := slices.BinarySearch(x.names, name); found {
			out = append(out, x.user)
		}
	}
	return out, nil
}
