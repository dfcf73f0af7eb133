-- Personal settings of users (PATCH /settings) and pending email changes.

CREATE TABLE user_settings (
	user_id BIGINT PRIMARY KEY,
	-- settings is a JSON object: {"values": {name: value}, "self_edited": [names]}.
	settings TEXT NOT NULL
);

CREATE TABLE email_changes (
	change_key TEXT PRIMARY KEY,
	user_id BIGINT NOT NULL UNIQUE,
	new_email TEXT NOT NULL,
	expires BIGINT NOT NULL
);
