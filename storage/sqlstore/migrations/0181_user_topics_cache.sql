-- The followed rows of user_topics join the list caches (see 0151, cache.go): every channel
-- message asks who follows its topic (missed-message emails).
INSERT INTO table_versions (name, version) VALUES ('user_topics', 0);
