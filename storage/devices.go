package storage

import "github.com/teamchat/chat/users"

// Device is a user's client device (POST /register_client_device, Kind "") or a push token
// registered the older way (Kind "apns" or "fcm", with its Token and, for APNs, AppID).
type Device struct {
	ID     int64
	UserID users.ID
	Kind   string
	Token  string
	AppID  string
}

// DeviceReader reads users' devices.
type DeviceReader interface {
	// List returns a user's devices, by id.
	List(users.ID) ([]Device, error)
}

// DeviceWriter reads and writes users' devices.
type DeviceWriter interface {
	DeviceReader
	// Create stores a device and returns its new id. A push token already registered for the
	// user (same Kind and Token) is ErrConflict.
	Create(Device) (int64, error)
	// Delete removes one of the user's devices by id; ErrNotFound when the user has none such.
	Delete(user users.ID, id int64) error
	// DeleteToken removes the user's push token of that kind; ErrNotFound when none.
	DeleteToken(user users.ID, kind, token string) error
}
