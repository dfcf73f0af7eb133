-- The alert words join the list caches (see 0009, 0010, 0150, cache.go): every message asks
-- for its recipients' words, and the table is small and rarely written.
INSERT INTO table_versions (name, version) VALUES ('alert_words', 0);
