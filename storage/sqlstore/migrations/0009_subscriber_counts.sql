-- Each channel's subscriber count (active subscriptions of active users), kept by the store as
-- subscriptions and users change so that listing channels does not count subscription rows.

ALTER TABLE channels ADD COLUMN subscriber_count BIGINT NOT NULL DEFAULT 0;

UPDATE channels SET subscriber_count = (
	SELECT COUNT(*) FROM subscriptions s JOIN users u ON u.id = s.user_id
	WHERE s.channel_id = channels.id AND s.active AND u.is_active);
