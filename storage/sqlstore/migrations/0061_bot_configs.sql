-- Bots' configurations: default channels, and the service of outgoing webhook and embedded
-- bots (config_data is a JSON object of strings).

CREATE TABLE bot_configs (
	user_id BIGINT PRIMARY KEY,
	default_sending_stream BIGINT NOT NULL,
	default_events_register_stream BIGINT NOT NULL,
	default_all_public_streams BOOLEAN NOT NULL,
	service_name TEXT NOT NULL,
	service_base_url TEXT NOT NULL,
	service_interface INTEGER NOT NULL,
	service_token TEXT NOT NULL,
	config_data TEXT NOT NULL
);
