// Package people is the people area of the chat engine: the accounts of an organization and
// what their users say about themselves (Zulip's /users, /bots, /user_groups, /invites,
// /settings, /users/me/status, /realm/profile_fields, /users/me/muted_users, the login and
// API-key endpoints, /users/me/alert_words, the push and client devices,
// /users/me/onboarding_steps and presence).
//
// Each operation is a method of Service, written the one way the engine describes
// (internal/engine): check the form of the parameters, then one engine Read or Mutate with the
// operation's gate, then shape the result. The package owns its Params, Result, Record and
// Event types; package chat aliases them and its Service delegates to this one. register's
// sections of this area come from the *StateOf functions and RealmUserState, RegisterAlertWords,
// RegisterOnboarding and RegisterPresence; a send asks AlertedUsers who gets the has_alert_word
// flag. The steps of its operations that belong to the areas above it (subscribing a new user,
// deleting a deactivated user's messages, the notification bot's messages, the read flags of
// a muted sender's messages) are Hooks that package chat sets.
//
// Files, by aspect (a new operation goes into the file of its aspect, or a new one):
//
//	auth      AuthenticateAPIKey, AuthenticateWebhookAPIKey, FetchAPIKey, JWTFetchAPIKey,
//	          DevFetchAPIKey, DevListUsers (auth.go); RegenerateAPIKey (auth_apikeys.go);
//	          password hashing (auth_passwords.go); the cache of checked API keys and sessions
//	          and ForgetCredentials (auth_cache.go); the failure limits of wrong API keys,
//	          AuthenticateAPIKeyFrom, AuthenticateWebhookAPIKeyFrom, CachedAPIKey and
//	          AuthenticationStats (auth_failures.go); web sessions: StartSession,
//	          StartSessionWithPassword, AuthenticateSession, EndSession (auth_sessions.go);
//	          the "new login" email (auth_login_email.go, its HTML part auth_login_email_html.go)
//	users     ProvisionUser (users.go); GetUsers, GetUser, GetUserByEmail, GetOwnUser
//	          (users_get.go); CreateUser, UpdateUser, UpdateUserByEmail (users_admin.go);
//	          DeactivateUser, DeactivateOwnUser, ReactivateUser (users_deactivate.go);
//	          CreateBot (users_bots.go); GetBots and register's realm_bots
//	          (users_bots_admin.go); UpdateBot, RegenerateBotAPIKey, DeactivateBot
//	          (users_bots_update.go); UpdateSettings, ConfirmEmailChange (users_settings.go;
//	          other users' settings, users_settings_others.go); UpdateStatus,
//	          UpdateStatusForUser, GetUserStatus (users_status.go); MuteUser, UnmuteUser
//	          (users_muted.go); user records (users_record.go, users_record_cache.go) and
//	          events (users_events.go)
//	groups    GetUserGroups, GetUserGroupMembers, GetUserGroupSubgroups, GetIsUserGroupMember
//	          (groups.go); CreateUserGroup, UpdateUserGroupMembers, UpdateUserGroupSubgroups
//	          (groups_write.go); UpdateUserGroup, DeactivateUserGroup (groups_settings.go);
//	          register's group records kept across registrations (groups_record_cache.go)
//	invites   CreateInviteLink, GetInvites, RevokeInviteLink, RedeemInviteLink (invites.go);
//	          EditInviteLink (invites_edit.go);
//	          SendInvites, RevokeEmailInvite, ResendEmailInvite and the Mailer (invites_email.go)
//	realm     custom profile fields: GetCustomProfileFields, CreateCustomProfileField,
//	          UpdateProfileData, RemoveProfileData (realm_profile.go); UpdateCustomProfileField,
//	          RemoveCustomProfileField, ReorderCustomProfileFields (realm_profile_fields.go)
//	others    alert words (alertwords.go), devices (devices.go), onboarding steps
//	          (onboarding.go), presence (presence.go, presence_format.go)
//
// Imports: org (custom emoji of statuses), internal/engine, internal/world, internal/clients,
// storage and the leaves (users, realms, channels, messages, markdown, emoji, ratelimit,
// uploads); never package chat, and no area above it.
package people
