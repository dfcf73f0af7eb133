-- Channel messages without a row per recipient (issue 42, storage/receivers.go): a message
-- with implicit_rows has a row for every user whose receive interval of its channel holds its
-- id (read when the id is at most the user's read mark of the channel), except where
-- user_messages holds an explicit row of the user. Every existing message keeps its explicit
-- rows (implicit_rows false).
ALTER TABLE messages ADD COLUMN implicit_rows BOOLEAN NOT NULL DEFAULT FALSE;

-- The intervals of message ids during which a user received a channel (an active
-- subscription of an active user): the ids above after_id, through through_id (NULL: open).
CREATE TABLE receive_intervals (
	user_id BIGINT NOT NULL,
	channel_id BIGINT NOT NULL,
	after_id BIGINT NOT NULL,
	through_id BIGINT
);
CREATE INDEX receive_intervals_user ON receive_intervals (user_id, channel_id);
CREATE INDEX receive_intervals_channel ON receive_intervals (channel_id);

-- The read mark of a user in a channel: implicit rows at or below it are read.
CREATE TABLE read_marks (
	user_id BIGINT NOT NULL,
	channel_id BIGINT NOT NULL,
	read_through BIGINT NOT NULL,
	PRIMARY KEY (user_id, channel_id)
);

-- Every user receiving a channel now receives it from the next message on.
INSERT INTO receive_intervals (user_id, channel_id, after_id, through_id)
	SELECT s.user_id, s.channel_id, (SELECT COALESCE(MAX(id), 0) FROM messages), NULL
	FROM subscriptions s JOIN users u ON u.id = s.user_id WHERE s.active AND u.is_active;
