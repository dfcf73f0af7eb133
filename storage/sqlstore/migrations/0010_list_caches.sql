-- The channels table gets a version row too (SQLite; see 0009 and cache.go).
INSERT INTO table_versions (name, version) VALUES ('channels', 0);

-- PostgreSQL's form of the list caches: each transaction that writes a cached table records
-- its transaction id (pg_current_xact_id) here, so that a reader can tell whether any write
-- committed between the snapshot a kept list was read in and its own (cache.go). Rows are
-- pruned after an hour. SQLite does not use this table.
CREATE TABLE table_changes (
	tbl TEXT NOT NULL,
	xid BIGINT NOT NULL,
	at BIGINT NOT NULL
);
CREATE INDEX table_changes_tbl_xid ON table_changes (tbl, xid);
