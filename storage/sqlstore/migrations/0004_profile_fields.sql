-- Custom profile fields of the organization and users' values.

CREATE TABLE profile_fields (
	id {{id}},
	field_type INTEGER NOT NULL,
	name TEXT NOT NULL UNIQUE,
	hint TEXT NOT NULL,
	field_data TEXT NOT NULL,
	field_order INTEGER NOT NULL,
	display_in_profile_summary BOOLEAN NOT NULL,
	required BOOLEAN NOT NULL,
	editable_by_user BOOLEAN NOT NULL
);

CREATE TABLE profile_values (
	user_id BIGINT NOT NULL,
	field_id BIGINT NOT NULL REFERENCES profile_fields (id) ON DELETE CASCADE,
	value TEXT NOT NULL,
	rendered_value TEXT NOT NULL,
	PRIMARY KEY (user_id, field_id)
);
