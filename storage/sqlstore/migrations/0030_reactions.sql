-- Emoji reactions to messages: one row per user and emoji (code and type) of a message, in
-- the order they were added (id). They go with their message.

CREATE TABLE reactions (
	id {{id}},
	message_id BIGINT NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
	user_id BIGINT NOT NULL,
	emoji_name TEXT NOT NULL,
	emoji_code TEXT NOT NULL,
	reaction_type TEXT NOT NULL,
	UNIQUE (message_id, user_id, emoji_code, reaction_type)
);
