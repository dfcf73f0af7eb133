package sqlstore

import (
	"database/sql"

	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// deviceTx is the devices accessor.
type deviceTx struct{ t *txn }

func (a deviceTx) List(user users.ID) ([]storage.Device, error) {
	out, err := scanAll(a.t, func(r *sql.Rows) (storage.Device, error) {
		var d storage.Device
		err := r.Scan(&d.ID, &d.UserID, &d.Kind, &d.Token, &d.AppID)
		return d, err
	}, "SELECT id, user_id, kind, token, app_id FROM client_devices WHERE user_id = ? ORDER BY id", user)
	if out == nil && err == nil {
		out = []storage.Device{}
	}
	return out, err
}

func (a deviceTx) Create(d storage.Device) (int64, error) {
	var id int64
	err := a.t.guarded(func() error {
		return a.t.get("INSERT INTO client_devices (user_id, kind, token, app_id) VALUES (?, ?, ?, ?) RETURNING id",
			[]any{d.UserID, d.Kind, d.Token, d.AppID}, &id)
	})
	return id, err
}

func (a deviceTx) Delete(user users.ID, id int64) error {
	res, err := a.t.exec("DELETE FROM client_devices WHERE user_id = ? AND id = ?", user, id)
	if err != nil {
		return err
	}
	return mustAffect(res, "device", id)
}

func (a deviceTx) DeleteToken(user users.ID, kind, token string) error {
	res, err := a.t.exec("DELETE FROM client_devices WHERE user_id = ? AND kind = ? AND token = ? AND token <> ''", user, kind, token)
	if err != nil {
		return err
	}
	return mustAffect(res, "push token", token)
}

func (r *readTx) Devices() storage.DeviceReader { return deviceTx{r.t} }
func (w *tx) Devices() storage.DeviceWriter     { return deviceTx{w.t} }
