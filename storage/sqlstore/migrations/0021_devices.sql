-- Users' client devices (POST /register_client_device) and push tokens registered the older
-- way (users/me/apns_device_token, users/me/android_gcm_reg_id): kind '' for a device, else
-- 'apns' or 'fcm' with the token (unique per user and kind).

CREATE TABLE client_devices (
	id {{id}},
	user_id BIGINT NOT NULL,
	kind TEXT NOT NULL,
	token TEXT NOT NULL,
	app_id TEXT NOT NULL
);
CREATE INDEX client_devices_by_user ON client_devices (user_id);
CREATE UNIQUE INDEX client_devices_token ON client_devices (user_id, kind, token) WHERE token <> '';
