-- Missed-message email notifications waiting for the end of their user's batching period
-- (Zulip's ScheduledMessageNotificationEmail), written in the send's transaction and removed
-- when handled; due_at (UNIX milliseconds) is also the lease of the process working on it.

CREATE TABLE pending_emails (
	id {{id}},
	user_id BIGINT NOT NULL,
	message_id BIGINT NOT NULL,
	trigger_kind TEXT NOT NULL,
	due_at BIGINT NOT NULL,
	attempts INTEGER NOT NULL
);
CREATE INDEX pending_emails_due ON pending_emails (due_at, id);
CREATE INDEX pending_emails_user ON pending_emails (user_id, id);

-- The days whose digest emails were queued: one process queues each day's.
CREATE TABLE digest_days (
	day BIGINT PRIMARY KEY
);
