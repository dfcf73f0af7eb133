package chat

import "context"

// Users, bots, settings, statuses and muted users of the people area (package people).

// ProvisionUser creates a user or bot without an acting user (a trusted, server-side
// operation). The user joins the system group of its role (a human also the default
// channels), and every active user of the organization receives a realm_user add event.
func (s *Service) ProvisionUser(ctx context.Context, p ProvisionUserParams) (ProvisionUserResult, error) {
	return s.people.ProvisionUser(ctx, p)
}

// UpdateUser changes another user's name, role, custom profile data or email. It is for
// administrators (and for the owner of a bot); only owners give or take the owner role, the
// only owner keeps it, and a guest cannot be made an administrator directly. Every change
// sends a realm_user update; a role change also moves the user between the system groups.
func (s *Service) UpdateUser(ctx context.Context, actor Actor, p UpdateUserParams) (UpdateUserResult, error) {
	return s.people.UpdateUser(ctx, actor, p)
}

// UpdateUserByEmail is UpdateUser for the user with that email. An email the actor may not
// see is "No such user", as for GET /users/{email}.
func (s *Service) UpdateUserByEmail(ctx context.Context, actor Actor, p UpdateUserByEmailParams) (UpdateUserByEmailResult, error) {
	return s.people.UpdateUserByEmail(ctx, actor, p)
}

// DeactivateUser deactivates a human user (administrators; an owner only by an owner; never
// the only owner). The bots the user owns are deactivated first, then the user; the actions
// apply to each in that order. Everyone who can access them gets realm_user update
// is_active=false. Group memberships are kept but never count for deactivated users, so the
// user leaves every group as far as anyone can tell.
func (s *Service) DeactivateUser(ctx context.Context, actor Actor, p DeactivateUserParams) (DeactivateUserResult, error) {
	return s.people.DeactivateUser(ctx, actor, p)
}

// ReactivateUser reactivates a deactivated user or bot (administrators, or a bot's owner).
// Everyone who can access the user gets realm_user update is_active=true.
func (s *Service) ReactivateUser(ctx context.Context, actor Actor, p ReactivateUserParams) (ReactivateUserResult, error) {
	return s.people.ReactivateUser(ctx, actor, p)
}

// CreateUser creates a member account, subscribed to the default channels. The actor must be
// an administrator holding the special can_create_users permission.
func (s *Service) CreateUser(ctx context.Context, actor Actor, p CreateUserParams) (CreateUserResult, error) {
	return s.people.CreateUser(ctx, actor, p)
}

// DeactivateOwnUser deactivates the actor's own account, and first the bots the actor owns,
// as an administrator's deactivation does. The organization's last active user and its only
// owner are refused (CANNOT_DEACTIVATE_LAST_USER).
func (s *Service) DeactivateOwnUser(ctx context.Context, actor Actor, p DeactivateOwnUserParams) (DeactivateOwnUserResult, error) {
	return s.people.DeactivateOwnUser(ctx, actor, p)
}

// CreateBot creates a bot owned by the actor (a member or above; not guests, not bots) with
// its own API key. Everyone gets realm_user add, and those who administer the bot realm_bot
// add. Outgoing webhook bots need a payload URL; embedded bots are not enabled on this server.
func (s *Service) CreateBot(ctx context.Context, actor Actor, p CreateBotParams) (CreateBotResult, error) {
	return s.people.CreateBot(ctx, actor, p)
}

// GetBots lists the active bots the actor owns, oldest first (administrators too see only
// their own here; register's realm_bots has every bot for them).
func (s *Service) GetBots(ctx context.Context, actor Actor) (GetBotsResult, error) {
	return s.people.GetBots(ctx, actor)
}

// UpdateBot changes a bot the actor administers: its name, role (administrators), owner,
// default channels and service. Each change is announced as Zulip does: realm_user updates to
// everyone for the name and owner, realm_bot updates (and, for an owner change, delete and add)
// to those who administer the bot.
func (s *Service) UpdateBot(ctx context.Context, actor Actor, p UpdateBotParams) (UpdateBotResult, error) {
	return s.people.UpdateBot(ctx, actor, p)
}

// RegenerateBotAPIKey gives a bot the actor administers a new API key; the old one stops
// working at once. Those who administer the bot get a realm_bot update.
func (s *Service) RegenerateBotAPIKey(ctx context.Context, actor Actor, p BotParams) (RegenerateAPIKeyResult, error) {
	return s.people.RegenerateBotAPIKey(ctx, actor, p)
}

// DeactivateBot deactivates a bot the actor administers (DELETE /bots/{bot_id}), as an
// administrator's deactivation of a user does.
func (s *Service) DeactivateBot(ctx context.Context, actor Actor, p BotParams) (DeactivateBotResult, error) {
	return s.people.DeactivateBot(ctx, actor, p)
}

// GetUsers lists the users of the organization as the actor may see them.
func (s *Service) GetUsers(ctx context.Context, actor Actor, p GetUsersParams) (GetUsersResult, error) {
	return s.people.GetUsers(ctx, actor, p)
}

// GetUser returns one user (deactivated users and bots included).
func (s *Service) GetUser(ctx context.Context, actor Actor, p GetUserParams) (GetUserResult, error) {
	return s.people.GetUser(ctx, actor, p)
}

// GetUserByEmail returns the user with an API email (the placeholder user{id}@{host} works
// for every user) or a real email the actor may see. Anything else is "No such user", so that
// hidden addresses cannot be probed.
func (s *Service) GetUserByEmail(ctx context.Context, actor Actor, p GetUserByEmailParams) (GetUserResult, error) {
	return s.people.GetUserByEmail(ctx, actor, p)
}

// GetOwnUser returns the actor's own record.
func (s *Service) GetOwnUser(ctx context.Context, actor Actor, q UserQueryOptions) (GetOwnUserResult, error) {
	return s.people.GetOwnUser(ctx, actor, q)
}

// MuteUser mutes a user for the actor: the actor's unread messages from that user are marked
// read (an update_message_flags event), their later messages arrive already read, and the
// actor gets a muted_users event.
func (s *Service) MuteUser(ctx context.Context, actor Actor, p MuteUserParams) (MuteUserResult, error) {
	return s.people.MuteUser(ctx, actor, p)
}

// UnmuteUser unmutes a user for the actor, who gets a muted_users event. Messages marked read
// by the mute stay read.
func (s *Service) UnmuteUser(ctx context.Context, actor Actor, p MuteUserParams) (UnmuteUserResult, error) {
	return s.people.UnmuteUser(ctx, actor, p)
}

// UpdateSettings changes the actor's own settings (or, with TargetUsers, other users'). Only
// values that change are written, each with a user_settings update event to its user; name
// and time-zone changes also send realm_user updates; an email change only starts a
// confirmation; a password change needs the old password.
func (s *Service) UpdateSettings(ctx context.Context, actor Actor, p UpdateSettingsParams) (UpdateSettingsResult, error) {
	return s.people.UpdateSettings(ctx, actor, p)
}

// ConfirmEmailChange completes an email change started through UpdateSettings. It is a
// trusted operation (the key is the credential): unknown, used or expired keys are refused.
// Those who may see the email get realm_user update delivery_email (and everyone new_email
// when it is the API email).
func (s *Service) ConfirmEmailChange(ctx context.Context, p ConfirmEmailChangeParams) (ConfirmEmailChangeResult, error) {
	return s.people.ConfirmEmailChange(ctx, p)
}

// UpdateStatus changes the actor's status (human users only). Away turns the presence_enabled
// setting off (or on), as Zulip still does for older clients; every active user gets a
// user_status event with the fields given.
func (s *Service) UpdateStatus(ctx context.Context, actor Actor, p UpdateStatusParams) (UpdateStatusResult, error) {
	return s.people.UpdateStatus(ctx, actor, p)
}

// UpdateStatusForUser changes another user's status text and emoji (administrators only; the
// target is a human user, active). Away cannot be set for someone else.
func (s *Service) UpdateStatusForUser(ctx context.Context, actor Actor, p UpdateStatusForUserParams) (UpdateStatusForUserResult, error) {
	return s.people.UpdateStatusForUser(ctx, actor, p)
}

// GetUserStatus returns a human user's status.
func (s *Service) GetUserStatus(ctx context.Context, actor Actor, p GetUserStatusParams) (GetUserStatusResult, error) {
	return s.people.GetUserStatus(ctx, actor, p)
}
