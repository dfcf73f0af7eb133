-- Uploaded files (their bytes live in the blob store), the messages that link each one, and
-- the secret that signs temporary upload URLs (one row).

CREATE TABLE attachments (
	id {{id}},
	owner_id BIGINT NOT NULL,
	path_id TEXT {{binary}} NOT NULL UNIQUE,
	name TEXT NOT NULL,
	size BIGINT NOT NULL,
	content_type TEXT NOT NULL,
	create_time BIGINT NOT NULL,
	width INTEGER NOT NULL,
	height INTEGER NOT NULL,
	thumbnailed BOOLEAN NOT NULL
);

CREATE INDEX attachments_owner ON attachments (owner_id, id);

-- One row per (attachment, message) where the message's content links the attachment.
-- Readers such as search's has:attachment / has:image narrows join it by message_id (and
-- attachments.thumbnailed for images).
CREATE TABLE attachment_messages (
	attachment_id BIGINT NOT NULL,
	message_id BIGINT NOT NULL,
	PRIMARY KEY (attachment_id, message_id)
);

CREATE INDEX attachment_messages_message ON attachment_messages (message_id, attachment_id);

CREATE TABLE upload_url_key (
	id INTEGER PRIMARY KEY,
	secret {{bytes}} NOT NULL
);
