-- The organization's data exports (Zulip's RealmExport): times in Unix milliseconds, 0 for
-- "not yet"; blob_key names the finished tarball in the blob store.

CREATE TABLE realm_exports (
	id {{id}},
	acting_user_id BIGINT NOT NULL,
	export_type INTEGER NOT NULL,
	export_time BIGINT NOT NULL,
	finished_at BIGINT NOT NULL DEFAULT 0,
	failed_at BIGINT NOT NULL DEFAULT 0,
	deleted_at BIGINT NOT NULL DEFAULT 0,
	blob_key TEXT NOT NULL DEFAULT '',
	size BIGINT NOT NULL DEFAULT 0,
	from_prior_server BOOLEAN NOT NULL DEFAULT FALSE
);
