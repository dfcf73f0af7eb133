-- Message editing: the organization's editing and moving settings, and each message's edit
-- history (a JSON array of messages.EditHistoryEntry, oldest first; NULL when never edited).
-- Group settings added here are '' in existing rows: the zero setting, which the Service reads
-- as the setting's default group.

ALTER TABLE realm ADD COLUMN allow_message_editing BOOLEAN NOT NULL DEFAULT TRUE;
ALTER TABLE realm ADD COLUMN message_content_edit_limit_seconds BIGINT NOT NULL DEFAULT 600;
ALTER TABLE realm ADD COLUMN move_messages_within_stream_limit_seconds BIGINT NOT NULL DEFAULT 604800;
ALTER TABLE realm ADD COLUMN move_messages_between_streams_limit_seconds BIGINT NOT NULL DEFAULT 604800;
ALTER TABLE realm ADD COLUMN message_edit_history_visibility_policy TEXT NOT NULL DEFAULT 'all';
ALTER TABLE realm ADD COLUMN can_move_messages_between_topics_group TEXT NOT NULL DEFAULT '';
ALTER TABLE realm ADD COLUMN can_move_messages_between_channels_group TEXT NOT NULL DEFAULT '';
ALTER TABLE realm ADD COLUMN can_resolve_topics_group TEXT NOT NULL DEFAULT '';

ALTER TABLE messages ADD COLUMN edit_history TEXT;
