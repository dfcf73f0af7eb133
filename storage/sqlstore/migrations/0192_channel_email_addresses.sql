-- The channels' email addresses (Zulip's ChannelEmailAddress): one per channel, creator and
-- sender, each with the secret token its address carries; created in Unix seconds.

CREATE TABLE channel_email_addresses (
	id {{id}},
	channel_id BIGINT NOT NULL,
	creator_id BIGINT NOT NULL,
	sender_id BIGINT NOT NULL,
	email_token TEXT NOT NULL UNIQUE,
	created BIGINT NOT NULL,
	deactivated BOOLEAN NOT NULL DEFAULT FALSE,
	UNIQUE (channel_id, creator_id, sender_id)
);
