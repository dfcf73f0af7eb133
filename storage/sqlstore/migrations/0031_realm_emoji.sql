-- The organization's custom emoji. Deactivated emoji stay (reactions keep naming them); at
-- most one active emoji has a name.

CREATE TABLE realm_emoji (
	id {{id}},
	name TEXT NOT NULL,
	author_id BIGINT NOT NULL,
	deactivated BOOLEAN NOT NULL,
	file_name TEXT NOT NULL,
	still_file_name TEXT NOT NULL
);
CREATE UNIQUE INDEX realm_emoji_active_name ON realm_emoji (name) WHERE NOT deactivated;
