-- The organization's row and its linkifiers join the list caches (see 0009, 0010, cache.go).
INSERT INTO table_versions (name, version) VALUES ('realm', 0), ('linkifiers', 0);
