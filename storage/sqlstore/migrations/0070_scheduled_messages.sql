-- Scheduled messages and reminders (issue 23). A row stays after its delivery (delivered,
-- delivered_message_id), written in the transaction that sends the message; the scheduler
-- claims due rows through scheduled_messages_due (PostgreSQL: FOR UPDATE SKIP LOCKED).

CREATE TABLE scheduled_messages (
	id {{id}},
	kind BIGINT NOT NULL,
	sender_id BIGINT NOT NULL,
	channel_id BIGINT NOT NULL,
	topic TEXT NOT NULL,
	-- recipients is a JSON array of user ids (direct messages); NULL for channel messages.
	recipients TEXT,
	content TEXT NOT NULL,
	rendered TEXT NOT NULL,
	deliver_at BIGINT NOT NULL,
	read_by_sender BOOLEAN NOT NULL,
	client TEXT NOT NULL,
	failed BOOLEAN NOT NULL,
	failure_message TEXT NOT NULL,
	delivered BOOLEAN NOT NULL,
	delivered_message_id BIGINT NOT NULL,
	reminder_target_id BIGINT NOT NULL,
	reminder_note TEXT NOT NULL
);
CREATE INDEX scheduled_messages_due ON scheduled_messages (deliver_at, id) WHERE NOT delivered AND NOT failed;
CREATE INDEX scheduled_messages_sender ON scheduled_messages (sender_id, kind, deliver_at) WHERE NOT delivered;
