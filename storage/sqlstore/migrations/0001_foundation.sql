-- The organization, users, user groups, persisted event queues, drafts, saved snippets,
-- navigation views, channels and subscriptions.

CREATE TABLE realm (
	id INTEGER PRIMARY KEY CHECK (id = 1),
	name TEXT NOT NULL,
	description TEXT NOT NULL,
	icon_url TEXT NOT NULL,
	url TEXT NOT NULL,
	date_created BIGINT,
	deactivated BOOLEAN NOT NULL,
	enable_spectator_access BOOLEAN NOT NULL,
	waiting_period_threshold BIGINT NOT NULL,
	default_email_visibility BIGINT NOT NULL,
	password_auth_enabled BOOLEAN NOT NULL,
	empty_topic_display_name TEXT NOT NULL,
	-- Group settings, encoded by groupSettingText.
	can_create_public_channel_group TEXT NOT NULL,
	can_create_private_channel_group TEXT NOT NULL,
	can_create_web_public_channel_group TEXT NOT NULL,
	can_add_subscribers_group TEXT NOT NULL,
	can_invite_users_group TEXT NOT NULL,
	can_create_groups TEXT NOT NULL,
	can_manage_all_groups TEXT NOT NULL,
	can_mention_many_users_group TEXT NOT NULL
);

CREATE TABLE users (
	id {{id}},
	email TEXT NOT NULL,
	-- email_key is users.NormalizeEmail(email): uniqueness and lookups ignore case.
	email_key TEXT NOT NULL UNIQUE,
	full_name TEXT NOT NULL,
	role BIGINT NOT NULL,
	bot_type BIGINT NOT NULL,
	bot_owner_id BIGINT NOT NULL,
	is_active BOOLEAN NOT NULL,
	api_key TEXT NOT NULL,
	password_hash TEXT NOT NULL,
	timezone TEXT NOT NULL,
	date_joined BIGINT,
	avatar_source TEXT NOT NULL,
	avatar_version BIGINT NOT NULL,
	is_imported_stub BOOLEAN NOT NULL,
	email_visibility BIGINT NOT NULL,
	can_create_users BOOLEAN NOT NULL,
	can_change_user_emails BOOLEAN NOT NULL
);
CREATE UNIQUE INDEX users_api_key ON users (api_key) WHERE api_key <> '';
CREATE INDEX users_bot_owner ON users (bot_owner_id) WHERE bot_owner_id <> 0;

CREATE TABLE user_groups (
	id {{id}},
	name TEXT NOT NULL UNIQUE,
	description TEXT NOT NULL,
	is_system_group BOOLEAN NOT NULL,
	creator_id BIGINT NOT NULL,
	date_created BIGINT NOT NULL,
	deactivated BOOLEAN NOT NULL,
	-- group_settings is a JSON object: permission name -> groupSettingText's form.
	group_settings TEXT NOT NULL
);

CREATE TABLE user_group_members (
	group_id BIGINT NOT NULL REFERENCES user_groups (id) ON DELETE CASCADE,
	user_id BIGINT NOT NULL,
	PRIMARY KEY (group_id, user_id)
);
CREATE INDEX user_group_members_user ON user_group_members (user_id, group_id);

CREATE TABLE user_group_subgroups (
	group_id BIGINT NOT NULL REFERENCES user_groups (id) ON DELETE CASCADE,
	subgroup_id BIGINT NOT NULL,
	PRIMARY KEY (group_id, subgroup_id)
);
CREATE INDEX user_group_subgroups_subgroup ON user_group_subgroups (subgroup_id);

CREATE TABLE saved_queues (
	id TEXT {{binary}} PRIMARY KEY,
	owner BIGINT NOT NULL,
	state {{bytes}}
);

CREATE TABLE drafts (
	id {{id}},
	user_id BIGINT NOT NULL,
	type TEXT NOT NULL,
	-- to_ids is a JSON array of ids; NULL for a nil list.
	to_ids TEXT,
	topic TEXT NOT NULL,
	content TEXT NOT NULL,
	timestamp BIGINT NOT NULL
);
CREATE INDEX drafts_user ON drafts (user_id, timestamp, id);

CREATE TABLE draft_sync_disabled (
	user_id BIGINT PRIMARY KEY
);

CREATE TABLE saved_snippets (
	id {{id}},
	user_id BIGINT NOT NULL,
	title TEXT NOT NULL,
	content TEXT NOT NULL,
	date_created BIGINT NOT NULL
);
CREATE INDEX saved_snippets_user ON saved_snippets (user_id, id);

CREATE TABLE navigation_views (
	seq {{id}},
	user_id BIGINT NOT NULL,
	fragment TEXT NOT NULL,
	is_pinned BOOLEAN NOT NULL,
	name TEXT,
	UNIQUE (user_id, fragment)
);
CREATE UNIQUE INDEX navigation_views_name ON navigation_views (user_id, name) WHERE name IS NOT NULL;

CREATE TABLE channels (
	id {{id}},
	name TEXT NOT NULL,
	-- name_key is channels.NormalizeName(name): names are unique case-insensitively.
	name_key TEXT NOT NULL UNIQUE,
	description TEXT NOT NULL,
	date_created BIGINT NOT NULL,
	creator_id BIGINT NOT NULL,
	invite_only BOOLEAN NOT NULL,
	is_web_public BOOLEAN NOT NULL,
	history_public_to_subscribers BOOLEAN NOT NULL,
	message_retention_days BIGINT,
	topics_policy BIGINT NOT NULL,
	folder_id BIGINT NOT NULL,
	is_archived BOOLEAN NOT NULL,
	is_default BOOLEAN NOT NULL,
	-- group_settings is a JSON object: setting name -> groupSettingText's form.
	group_settings TEXT NOT NULL
);

CREATE TABLE subscriptions (
	user_id BIGINT NOT NULL,
	channel_id BIGINT NOT NULL,
	active BOOLEAN NOT NULL,
	color TEXT NOT NULL,
	is_muted BOOLEAN NOT NULL,
	pin_to_top BOOLEAN NOT NULL,
	desktop_notifications BOOLEAN,
	audible_notifications BOOLEAN,
	push_notifications BOOLEAN,
	email_notifications BOOLEAN,
	wildcard_mentions_notify BOOLEAN,
	PRIMARY KEY (user_id, channel_id)
);
CREATE INDEX subscriptions_channel ON subscriptions (channel_id, user_id);

CREATE TABLE linkifiers (
	id {{id}},
	pattern TEXT NOT NULL UNIQUE,
	url_template TEXT NOT NULL,
	example_input TEXT,
	reverse_template TEXT,
	-- alternative_url_templates is a JSON array of strings.
	alternative_url_templates TEXT NOT NULL,
	ord BIGINT NOT NULL
);

CREATE TABLE playgrounds (
	id {{id}},
	name TEXT NOT NULL,
	language TEXT NOT NULL,
	url_template TEXT NOT NULL,
	UNIQUE (language, name)
);

CREATE TABLE messages (
	id {{id}},
	sender_id BIGINT NOT NULL,
	-- channel_id is 0 for a direct message.
	channel_id BIGINT NOT NULL,
	topic TEXT NOT NULL,
	-- topic_key is topics.Key(topic): topics compare case-insensitively.
	topic_key TEXT {{binary}} NOT NULL,
	-- recipients is a JSON array of user ids; NULL for a nil list.
	recipients TEXT,
	content TEXT NOT NULL,
	rendered TEXT NOT NULL,
	timestamp BIGINT NOT NULL,
	client TEXT NOT NULL,
	last_edit_timestamp BIGINT NOT NULL,
	last_moved_timestamp BIGINT NOT NULL
);
CREATE INDEX messages_channel_topic ON messages (channel_id, topic_key, id);
CREATE INDEX messages_channel ON messages (channel_id, id);

-- direct_recipients indexes the recipients of direct messages (DirectWith).
CREATE TABLE direct_recipients (
	user_id BIGINT NOT NULL,
	message_id BIGINT NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
	PRIMARY KEY (user_id, message_id)
);
CREATE INDEX direct_recipients_message ON direct_recipients (message_id);

CREATE TABLE user_messages (
	user_id BIGINT NOT NULL,
	message_id BIGINT NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
	flags BIGINT NOT NULL,
	PRIMARY KEY (user_id, message_id)
);
CREATE INDEX user_messages_message ON user_messages (message_id, user_id);

CREATE TABLE user_topics (
	user_id BIGINT NOT NULL,
	channel_id BIGINT NOT NULL,
	topic_key TEXT {{binary}} NOT NULL,
	topic TEXT NOT NULL,
	policy BIGINT NOT NULL,
	last_updated BIGINT NOT NULL,
	PRIMARY KEY (user_id, channel_id, topic_key)
);
CREATE INDEX user_topics_topic ON user_topics (channel_id, topic_key, user_id);

CREATE TABLE invites (
	id {{id}},
	invite_key TEXT NOT NULL UNIQUE,
	invited_by BIGINT NOT NULL,
	invited_as BIGINT NOT NULL,
	-- channel_ids and group_ids are JSON arrays of ids; NULL for a nil list.
	channel_ids TEXT,
	group_ids TEXT,
	include_realm_default_subscriptions BOOLEAN NOT NULL,
	welcome_message_custom_text TEXT,
	created BIGINT NOT NULL,
	expires_at BIGINT NOT NULL,
	revoked BOOLEAN NOT NULL
);
