-- The channel messages with implicit rows, by channel and id (receivers.go): the walks of a
-- user's implicit rows (unread, starred, highest received, the marks) visit these only, not
-- the explicit messages of the same channels (imported, restored, or stored with Create after
-- the user started receiving the channel), which a walk of messages_channel would read one by one.
CREATE INDEX messages_implicit ON messages (channel_id, id) WHERE implicit_rows;
