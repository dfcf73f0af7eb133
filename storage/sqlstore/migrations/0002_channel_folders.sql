-- Channel folders. Names are not unique here: an archived folder may share the name of a live
-- one, and the Service checks names.

CREATE TABLE channel_folders (
	id {{id}},
	name TEXT NOT NULL,
	description TEXT NOT NULL,
	folder_order BIGINT NOT NULL,
	date_created BIGINT NOT NULL,
	creator_id BIGINT NOT NULL,
	is_archived BOOLEAN NOT NULL
);
