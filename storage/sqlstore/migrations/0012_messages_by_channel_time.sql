-- A channel's messages by time: its last message's timestamp and its recent traffic
-- (is_recently_active, stream_weekly_traffic) are read with a seek and a short range scan.
CREATE INDEX messages_channel_time ON messages (channel_id, timestamp);
