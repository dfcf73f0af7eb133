-- Whether a user's first subscription to the channel turns on its mobile push notifications
-- (Zulip's default_push_notifications, feature level 507).
ALTER TABLE channels ADD COLUMN default_push_notifications BOOLEAN NOT NULL DEFAULT FALSE;
