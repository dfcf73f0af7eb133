-- What retention passes removed (Zulip's ArchiveTransaction with its ArchivedMessage,
-- ArchivedUserMessage, ArchivedReaction and ArchivedAttachment rows): one row per batch, its
-- content as JSON, kept until the purge after the grace period or a restore.

CREATE TABLE message_archives (
	id {{id}},
	archived_at BIGINT NOT NULL,
	content TEXT NOT NULL
);

CREATE INDEX message_archives_archived_at ON message_archives (archived_at);
