-- Web sessions (a browser logged in by cookie): the SHA-256 of the session id in hex, never
-- the id itself; expires in Unix seconds.

CREATE TABLE web_sessions (
	session_key TEXT PRIMARY KEY,
	user_id BIGINT NOT NULL,
	expires BIGINT NOT NULL
);
CREATE INDEX web_sessions_by_user ON web_sessions (user_id);
CREATE INDEX web_sessions_by_expiry ON web_sessions (expires);
