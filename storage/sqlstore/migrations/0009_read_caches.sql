-- Counts and versions that let the store answer the most frequent whole-table reads without
-- scanning: each channel's subscriber count (active subscriptions of active users), kept as
-- subscriptions and users change.

ALTER TABLE channels ADD COLUMN subscriber_count BIGINT NOT NULL DEFAULT 0;

UPDATE channels SET subscriber_count = (
	SELECT COUNT(*) FROM subscriptions s JOIN users u ON u.id = s.user_id
	WHERE s.channel_id = channels.id AND s.active AND u.is_active);

-- A version per table whose whole contents the Service reads on most requests (users, groups;
-- SQLite; PostgreSQL uses table_changes from 0010, see cache.go):
-- every write to the table bumps it in the writing transaction, so a process may keep the
-- last list it read and reuse it while the version it reads is unchanged.
CREATE TABLE table_versions (
	name TEXT PRIMARY KEY,
	version BIGINT NOT NULL
);
INSERT INTO table_versions (name, version) VALUES ('users', 0), ('groups', 0);
