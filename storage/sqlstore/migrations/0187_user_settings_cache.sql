-- The true values of user_settings join the list caches (see 0151, cache.go): every channel
-- message asks who has enable_stream_email_notifications on (missed-message emails).
INSERT INTO table_versions (name, version) VALUES ('user_settings', 0);
