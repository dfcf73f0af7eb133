-- Users' alert words, in their order, and users' presence with the organization's sequence of
-- presence update ids (one row, so that concurrent writers serialise on it).

CREATE TABLE alert_words (
	user_id BIGINT NOT NULL,
	word_order INTEGER NOT NULL,
	word TEXT NOT NULL,
	PRIMARY KEY (user_id, word_order)
);

CREATE TABLE presences (
	user_id BIGINT PRIMARY KEY,
	last_active_time BIGINT,
	last_connected_time BIGINT,
	last_update_id BIGINT NOT NULL
);

CREATE INDEX presences_update_id ON presences (last_update_id);

CREATE TABLE presence_sequence (
	id INTEGER PRIMARY KEY,
	last_update_id BIGINT NOT NULL
);

INSERT INTO presence_sequence (id, last_update_id) VALUES (1, 0);
