-- The organization's settings (issue 18): the group permissions that had no column, and one
-- JSON column for the scalar settings, the announcement channels other than new channels',
-- the email domains and the defaults of new users' settings (sqlstore's storedRealmExtra).
-- The new permissions are '' in existing rows: the zero setting, which the Service reads as
-- the setting's default group.

ALTER TABLE realm ADD COLUMN extra TEXT NOT NULL DEFAULT '';
ALTER TABLE realm ADD COLUMN can_access_all_users_group TEXT NOT NULL DEFAULT '';
ALTER TABLE realm ADD COLUMN can_add_custom_emoji_group TEXT NOT NULL DEFAULT '';
ALTER TABLE realm ADD COLUMN can_create_bots_group TEXT NOT NULL DEFAULT '';
ALTER TABLE realm ADD COLUMN can_create_write_only_bots_group TEXT NOT NULL DEFAULT '';
ALTER TABLE realm ADD COLUMN can_delete_any_message_group TEXT NOT NULL DEFAULT '';
ALTER TABLE realm ADD COLUMN can_delete_own_message_group TEXT NOT NULL DEFAULT '';
ALTER TABLE realm ADD COLUMN can_manage_billing_group TEXT NOT NULL DEFAULT '';
ALTER TABLE realm ADD COLUMN can_set_delete_message_policy_group TEXT NOT NULL DEFAULT '';
ALTER TABLE realm ADD COLUMN can_set_topics_policy_group TEXT NOT NULL DEFAULT '';
ALTER TABLE realm ADD COLUMN can_summarize_topics_group TEXT NOT NULL DEFAULT '';
ALTER TABLE realm ADD COLUMN create_multiuse_invite_group TEXT NOT NULL DEFAULT '';
ALTER TABLE realm ADD COLUMN direct_message_initiator_group TEXT NOT NULL DEFAULT '';
ALTER TABLE realm ADD COLUMN direct_message_permission_group TEXT NOT NULL DEFAULT '';
