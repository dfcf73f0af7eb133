package people

// The names of the area's events (engine.Event): each event type says which event it is, and
// engine.Events.Emit records it under that name.

// EventType is "alert_words".
func (AlertWordsEvent) EventType() string { return "alert_words" }

// EventType is "custom_profile_fields".
func (CustomProfileFieldsEvent) EventType() string { return "custom_profile_fields" }

// EventType is "invites_changed".
func (InvitesChangedEvent) EventType() string { return "invites_changed" }

// EventType is "muted_users".
func (MutedUsersEvent) EventType() string { return "muted_users" }

// EventType is "onboarding_steps".
func (OnboardingStepsEvent) EventType() string { return "onboarding_steps" }

// EventType is "presence".
func (PresenceChange) EventType() string { return "presence" }

// EventType is "realm_bot".
func (RealmBotEvent) EventType() string { return "realm_bot" }

// EventType is "realm_user".
func (RealmUserEvent) EventType() string { return "realm_user" }

// EventType is "user_group".
func (UserGroupAddEvent) EventType() string { return "user_group" }

// EventType is "user_group".
func (UserGroupMembersEvent) EventType() string { return "user_group" }

// EventType is "user_group".
func (UserGroupSubgroupsEvent) EventType() string { return "user_group" }

// EventType is "user_group".
func (UserGroupUpdateEvent) EventType() string { return "user_group" }

// EventType is "user_settings".
func (UserSettingsEvent) EventType() string { return "user_settings" }

// EventType is "user_status".
func (UserStatusEvent) EventType() string { return "user_status" }
