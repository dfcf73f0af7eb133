-- A user deactivated with the delete_profile action is marked deleted (Zulip's is_deleted,
-- feature level 490).
ALTER TABLE users ADD COLUMN is_deleted BOOLEAN NOT NULL DEFAULT FALSE;
