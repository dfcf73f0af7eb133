package memory

import (
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// deviceTx is the devices accessor; j is nil in a read-only transaction.
type deviceTx struct {
	t *readTx
	j *journal
}

func (a deviceTx) List(user users.ID) ([]storage.Device, error) {
	if err := a.t.live(); err != nil {
		return nil, err
	}
	mine := map[int64]storage.Device{}
	for id, d := range a.t.d.devices {
		if d.UserID == user {
			mine[id] = d
		}
	}
	return sortedValues(mine, same), nil
}

func (a deviceTx) Create(d storage.Device) (int64, error) {
	if err := a.t.live(); err != nil {
		return 0, err
	}
	if a.t.d.devices == nil {
		a.t.d.devices = map[int64]storage.Device{}
	}
	for _, x := range a.t.d.devices {
		if d.Token != "" && x.UserID == d.UserID && x.Kind == d.Kind && x.Token == d.Token {
			return 0, conflict("push token")
		}
	}
	d.ID = nextID(a.j, &a.t.d.deviceSeq)
	setKey(a.j, a.t.d.devices, d.ID, d)
	return d.ID, nil
}

func (a deviceTx) Delete(user users.ID, id int64) error {
	if err := a.t.live(); err != nil {
		return err
	}
	if d, ok := a.t.d.devices[id]; !ok || d.UserID != user {
		return notFound("device", id)
	}
	deleteKey(a.j, a.t.d.devices, id)
	return nil
}

func (a deviceTx) DeleteToken(user users.ID, kind, token string) error {
	if err := a.t.live(); err != nil {
		return err
	}
	for id, d := range a.t.d.devices {
		if d.UserID == user && d.Kind == kind && d.Token == token {
			deleteKey(a.j, a.t.d.devices, id)
			return nil
		}
	}
	return notFound("push token", token)
}

func (t *readTx) Devices() storage.DeviceReader { return deviceTx{t: t} }
func (t *tx) Devices() storage.DeviceWriter     { return deviceTx{t: &t.readTx, j: t.j} }
