-- Messages by sender, in id order: a deactivation that deletes a user's messages and the
-- sender: narrow read them without scanning every message.
CREATE INDEX messages_sender ON messages (sender_id, id);
