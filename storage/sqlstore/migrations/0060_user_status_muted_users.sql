-- Users' statuses (text and emoji; "away" is the presence_enabled setting) and the users each
-- user muted.

CREATE TABLE user_statuses (
	user_id BIGINT PRIMARY KEY,
	status_text TEXT NOT NULL,
	emoji_name TEXT NOT NULL,
	emoji_code TEXT NOT NULL,
	reaction_type TEXT NOT NULL,
	updated_at BIGINT
);

CREATE TABLE muted_users (
	user_id BIGINT NOT NULL,
	muted_user_id BIGINT NOT NULL,
	date_muted BIGINT,
	PRIMARY KEY (user_id, muted_user_id)
);

CREATE INDEX muted_users_muted ON muted_users (muted_user_id);
