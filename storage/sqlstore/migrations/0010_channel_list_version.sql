-- The channels table gets a version row too (see 0009 and cache.go).
INSERT INTO table_versions (name, version) VALUES ('channels', 0);
