-- Who muted whom joins the list caches (see 0009, 0010, cache.go): every message asks who
-- muted its sender, and the table is small and rarely written.
INSERT INTO table_versions (name, version) VALUES ('muted_users', 0);
