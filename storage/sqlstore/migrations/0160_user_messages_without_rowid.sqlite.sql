-- user_messages without a rowid (SQLite only; PostgreSQL's tables have no rowid): the table is
-- its primary key's b-tree, flags included, so a recipient row is written to two b-trees (the
-- key and user_messages_message) instead of three (a rowid table, its key's index and
-- user_messages_message). A message to 10 subscribers writes 10 such rows.
CREATE TABLE user_messages_keyed (
	user_id BIGINT NOT NULL,
	message_id BIGINT NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
	flags BIGINT NOT NULL,
	PRIMARY KEY (user_id, message_id)
) WITHOUT ROWID;
INSERT INTO user_messages_keyed (user_id, message_id, flags)
	SELECT user_id, message_id, flags FROM user_messages ORDER BY user_id, message_id;
DROP TABLE user_messages;
ALTER TABLE user_messages_keyed RENAME TO user_messages;
CREATE INDEX user_messages_message ON user_messages (message_id, user_id);
