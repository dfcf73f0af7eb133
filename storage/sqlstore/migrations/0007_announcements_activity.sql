-- The organization's new-channel announcements channel (0: none) and users' last activity.

ALTER TABLE realm ADD COLUMN new_stream_announcements_stream_id BIGINT NOT NULL DEFAULT 0;

CREATE TABLE user_activity (
	user_id BIGINT PRIMARY KEY,
	-- last_active is the Unix time of the user's latest activity (a sent message, a queue).
	last_active BIGINT NOT NULL
);

CREATE INDEX user_activity_last_active ON user_activity (last_active);
