package sqlstore

import (
	"database/sql"
	"fmt"
	"slices"

	"github.com/teamchat/chat/users"
)

// profileTx is the custom-profile-fields accessor.
type profileTx struct{ t *txn }

const profileFieldColumns = `id, field_type, name, hint, field_data, field_order, display_in_profile_summary, required, editable_by_user`

func scanProfileField(row *sql.Rows) (users.ProfileField, error) {
	var f users.ProfileField
	err := row.Scan(&f.ID, &f.Type, &f.Name, &f.Hint, &f.FieldData, &f.Order, &f.DisplayInProfileSummary, &f.Required, &f.EditableByUser)
	return f, err
}

func scanProfileValue(row *sql.Rows) (users.ProfileValue, error) {
	var v users.ProfileValue
	err := row.Scan(&v.UserID, &v.FieldID, &v.Value, &v.RenderedValue)
	return v, err
}

func (a profileTx) List() ([]users.ProfileField, error) {
	return scanAll(a.t, scanProfileField, "SELECT "+profileFieldColumns+" FROM profile_fields ORDER BY field_order, id")
}

func (a profileTx) Get(id users.ProfileFieldID) (users.ProfileField, error) {
	list, err := scanAll(a.t, scanProfileField, "SELECT "+profileFieldColumns+" FROM profile_fields WHERE id = ?", id)
	if err != nil {
		return users.ProfileField{}, err
	}
	if len(list) == 0 {
		return users.ProfileField{}, notFound("profile field", id)
	}
	return list[0], nil
}

func (a profileTx) Values(list []users.ID) ([]users.ProfileValue, error) {
	const cols = "SELECT user_id, field_id, value, rendered_value FROM profile_values"
	var out []users.ProfileValue
	var err error
	if list == nil {
		out, err = scanAll(a.t, scanProfileValue, cols+" ORDER BY user_id, field_id")
	} else {
		out, err = scanAll(a.t, scanProfileValue, cols+" WHERE user_id IN ("+a.t.d.idSet+") ORDER BY user_id, field_id", ids(a.t.d, list))
	}
	if out == nil && err == nil {
		out = []users.ProfileValue{}
	}
	return out, err
}

func (a profileTx) Create(f users.ProfileField) (users.ProfileFieldID, error) {
	var id users.ProfileFieldID
	err := a.t.guarded(func() error {
		return a.t.get(`INSERT INTO profile_fields (field_type, name, hint, field_data, field_order, display_in_profile_summary, required, editable_by_user)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
			[]any{f.Type, f.Name, f.Hint, f.FieldData, f.Order, f.DisplayInProfileSummary, f.Required, f.EditableByUser}, &id)
	})
	if err != nil {
		return 0, fmt.Errorf("create profile field %q: %w", f.Name, err)
	}
	return id, nil
}

func (a profileTx) PutValues(vals []users.ProfileValue) error {
	if len(vals) == 0 {
		return nil
	}
	fieldIDs := make([]users.ProfileFieldID, 0, len(vals))
	for _, v := range vals {
		fieldIDs = append(fieldIDs, v.FieldID)
	}
	slices.Sort(fieldIDs)
	fieldIDs = slices.Compact(fieldIDs)
	var n int
	if err := a.t.get("SELECT COUNT(*) FROM profile_fields WHERE id IN ("+a.t.d.idSet+")", []any{ids(a.t.d, fieldIDs)}, &n); err != nil {
		return err
	}
	if n != len(fieldIDs) {
		return notFound("profile field", fieldIDs)
	}
	// One row per key: the last value given wins.
	last := map[[2]int64]users.ProfileValue{}
	var keys [][2]int64
	for _, v := range vals {
		k := [2]int64{int64(v.UserID), int64(v.FieldID)}
		if _, ok := last[k]; !ok {
			keys = append(keys, k)
		}
		last[k] = v
	}
	rows := make([][]any, len(keys))
	for i, k := range keys {
		v := last[k]
		rows[i] = []any{v.UserID, v.FieldID, v.Value, v.RenderedValue}
	}
	return insertRows(a.t, "INSERT INTO profile_values (user_id, field_id, value, rendered_value)", 4, rows,
		"ON CONFLICT (user_id, field_id) DO UPDATE SET value = excluded.value, rendered_value = excluded.rendered_value")
}

func (a profileTx) DeleteValues(user users.ID, fields []users.ProfileFieldID) error {
	_, err := a.t.exec("DELETE FROM profile_values WHERE user_id = ? AND field_id IN ("+a.t.d.idSet+")", user, ids(a.t.d, fields))
	return err
}

func (a profileTx) Update(f users.ProfileField) error {
	return a.t.guarded(func() error {
		res, err := a.t.exec(`UPDATE profile_fields SET field_type = ?, name = ?, hint = ?, field_data = ?, field_order = ?,
			display_in_profile_summary = ?, required = ?, editable_by_user = ? WHERE id = ?`,
			f.Type, f.Name, f.Hint, f.FieldData, f.Order, f.DisplayInProfileSummary, f.Required, f.EditableByUser, f.ID)
		if err != nil {
			return fmt.Errorf("update profile field %q: %w", f.Name, err)
		}
		return mustAffect(res, "profile field", f.ID)
	})
}

func (a profileTx) Delete(id users.ProfileFieldID) error {
	if _, err := a.t.exec("DELETE FROM profile_values WHERE field_id = ?", id); err != nil {
		return err
	}
	res, err := a.t.exec("DELETE FROM profile_fields WHERE id = ?", id)
	if err != nil {
		return err
	}
	return mustAffect(res, "profile field", id)
}
