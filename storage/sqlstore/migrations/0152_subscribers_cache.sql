-- The subscriptions get a version (see 0009, 0150, cache.go, subscribers.go) on SQLite: every
-- message reads its channel's subscribers, and the table is rarely written.
INSERT INTO table_versions (name, version) VALUES ('subscriptions', 0);
