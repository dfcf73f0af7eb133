-- Bots' storage (Zulip's BotStorageData, /bot_storage) and the pending jobs of service bots:
-- a message that triggered an outgoing webhook or embedded bot, written in the send's
-- transaction and removed when handled; due_at (UNIX milliseconds) is also the lease of the
-- process working on it.

CREATE TABLE bot_storage (
	bot_id BIGINT NOT NULL,
	entry_key TEXT NOT NULL,
	entry_value TEXT NOT NULL,
	PRIMARY KEY (bot_id, entry_key)
);

CREATE TABLE service_jobs (
	id {{id}},
	bot_id BIGINT NOT NULL,
	message_id BIGINT NOT NULL,
	trigger_kind TEXT NOT NULL,
	message TEXT NOT NULL,
	due_at BIGINT NOT NULL,
	attempts INTEGER NOT NULL
);
CREATE INDEX service_jobs_due ON service_jobs (due_at, id);
