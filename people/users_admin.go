package people

import (
	"context"
	"errors"
	"strings"
	"unicode/utf8"

	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/internal/world"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/realms"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// MaxDeactivationCommentLength bounds deactivation_notification_comment.
const MaxDeactivationCommentLength = 2000

// UpdateUserParams are the parameters of PATCH /users/{user_id}. Absent fields (nil) are left
// unchanged.
type UpdateUserParams struct {
	UserID   users.ID
	FullName *string
	Role     *users.Role
	// ProfileData sets custom profile field values (a null value clears one; each item needs
	// a value).
	ProfileData []ProfileDataUpdate
	// NewEmail changes the user's email; it needs an owner holding can_change_user_emails.
	NewEmail *string
}

// UpdateUser changes another user's name, role, custom profile data or email. It is for
// administrators (and for the owner of a bot); only owners give or take the owner role, the
// only owner keeps it, and a guest cannot be made an administrator directly. Every change
// sends a realm_user update; a role change also moves the user between the system groups.
func (s *Service) UpdateUser(ctx context.Context, actor engine.Actor, p UpdateUserParams) error {
	return s.updateUser(ctx, actor, p, func(storage.UserReader, realms.Realm, users.User) (users.ID, error) { return p.UserID, nil })
}

// UpdateUserByEmailParams are the parameters of PATCH /users/{email}: the user's API email (or
// a real email the actor may see) instead of the id; UserID is ignored.
type UpdateUserByEmailParams struct {
	Email string
	UpdateUserParams
}

// UpdateUserByEmail is UpdateUser for the user with that email. An email the actor may not
// see is "No such user", as for GET /users/{email}.
func (s *Service) UpdateUserByEmail(ctx context.Context, actor engine.Actor, p UpdateUserByEmailParams) error {
	return s.updateUser(ctx, actor, p.UpdateUserParams, func(r storage.UserReader, realm realms.Realm, me users.User) (users.ID, error) {
		u, err := engine.UserByAPIEmail(r, realm, me, p.Email)
		return u.ID, err
	})
}

// updateUser is UpdateUser with the target's id found by target inside the transaction.
func (s *Service) updateUser(ctx context.Context, actor engine.Actor, p UpdateUserParams, target func(storage.UserReader, realms.Realm, users.User) (users.ID, error)) error {
	if err := checkProfileDataItems("profile_data", p.ProfileData); err != nil {
		return err
	}
	return s.eng.Mutate(ctx, actor, engine.SignedIn, func(o *engine.WriteOp) error {
		tx, ev, me := o.Tx, o.Ev, o.Me
		realm, err := tx.Realm().Get()
		if err != nil {
			return err
		}
		id, err := target(tx.Users(), realm, me)
		if err != nil {
			return err
		}
		target, err := engine.AdminTarget(tx.Users(), me, id)
		if err != nil {
			return err
		}
		old := target
		if err := changeUserRecord(tx.Users(), me, &target, p); err != nil {
			return err
		}
		if err := tx.Users().Update(target); errors.Is(err, storage.ErrConflict) {
			return engine.BadRequest("Email '%s' already in use", target.Email)
		} else if err != nil {
			return err
		}
		s.userRewritten(ev, old, target)
		if err := announceUserRecordChange(tx, ev, realm, old, target); err != nil {
			return err
		}
		if len(p.ProfileData) > 0 {
			return s.setProfileData(tx, ev, me, target, p.ProfileData, true)
		}
		return nil
	})
}

// changeUserRecord applies to target what me changes of its user record: the full name (a
// blank one is ignored), the role, the email (only an owner allowed to change emails).
func changeUserRecord(r storage.UserReader, me users.User, target *users.User, p UpdateUserParams) error {
	if p.FullName != nil && strings.TrimSpace(*p.FullName) != "" {
		name, err := users.CheckFullName(*p.FullName)
		if err != nil {
			return engine.RuleError(err)
		}
		target.FullName = name
	}
	if p.Role != nil {
		if err := checkRoleChange(r, me, *target, *p.Role); err != nil {
			return err
		}
		target.Role = *p.Role
	}
	if p.NewEmail != nil && *p.NewEmail != target.Email {
		if me.Role != users.RoleOwner || !me.CanChangeUserEmails {
			return engine.BadRequest("User not authorized to change user emails")
		}
		email := strings.TrimSpace(*p.NewEmail)
		if err := users.CheckEmail(email); err != nil {
			return engine.BadRequest("Invalid email address.")
		}
		target.Email = email
	}
	return nil
}

// announceUserRecordChange announces what changed from old to u: the full name (to a bot's
// administrators too), the role, the email.
func announceUserRecordChange(tx storage.Tx, ev *engine.Events, realm realms.Realm, old, u users.User) error {
	if u.FullName != old.FullName {
		if err := announceUserUpdate(tx.Users(), ev, person{"user_id": u.ID, "full_name": u.FullName}); err != nil {
			return err
		}
		if u.IsBot() {
			if err := announceBotUpdate(tx.Users(), ev, u, map[string]any{"full_name": u.FullName}); err != nil {
				return err
			}
		}
	}
	if u.Role != old.Role {
		if err := announceRoleChange(tx, ev, realm, old, u); err != nil {
			return err
		}
	}
	if u.Email != old.Email {
		return announceEmailChange(tx.Users(), ev, realm, u)
	}
	return nil
}

// announceRoleChange announces u's new role: realm_user update, the system groups' members,
// the emails u now sees or no longer sees, and the bots u now administers or no longer does.
func announceRoleChange(tx storage.Tx, ev *engine.Events, realm realms.Realm, old, u users.User) error {
	if err := announceUserUpdate(tx.Users(), ev, person{"user_id": u.ID, "role": u.Role}); err != nil {
		return err
	}
	if err := moveRoleGroups(tx, ev, realm, u.ID, old.Role, u.Role); err != nil {
		return err
	}
	if err := announceEmailVisibilityChange(tx.Users(), ev, old, u); err != nil {
		return err
	}
	return announceAdminBots(tx, ev, old, u)
}

// checkRoleChange applies the role rules of PATCH /users/{user_id}.
func checkRoleChange(r storage.UserReader, actor, target users.User, role users.Role) error {
	if !role.Valid() {
		return engine.InvalidArgument("role", "")
	}
	if (role == users.RoleOwner || target.Role == users.RoleOwner) && actor.Role != users.RoleOwner {
		if role != target.Role {
			return engine.ErrMustBeOwner()
		}
	}
	if target.Role == users.RoleOwner && role != users.RoleOwner {
		only, err := isOnlyOwner(r, target)
		if err != nil {
			return err
		}
		if only {
			return engine.BadRequest(msgOnlyOwnerDemote)
		}
	}
	if target.Role == users.RoleGuest && role.IsAdmin() {
		return engine.BadRequest(msgGuestAdmin)
	}
	return nil
}

// isOnlyOwner reports whether u is the organization's only active human owner.
func isOnlyOwner(r storage.UserReader, u users.User) (bool, error) {
	if u.Role != users.RoleOwner || u.IsBot() || !u.IsActive {
		return false, nil
	}
	all, err := r.List()
	if err != nil {
		return false, err
	}
	for _, o := range all {
		if o.ID != u.ID && o.IsActive && !o.IsBot() && o.Role == users.RoleOwner {
			return false, nil
		}
	}
	return true, nil
}

// announceEmailChange tells those who may see u's email its new delivery_email and, when the
// API email is the real address, everyone its new_email.
func announceEmailChange(r storage.UserReader, ev *engine.Events, realm realms.Realm, u users.User) error {
	all, err := r.List()
	if err != nil {
		return err
	}
	var seeing []int64
	for _, v := range all {
		if v.IsActive && users.CanSeeEmail(v, u) {
			seeing = append(seeing, int64(v.ID))
		}
	}
	ev.Add("realm_user", RealmUserEvent{Type: "realm_user", Op: "update",
		Person: person{"user_id": u.ID, "delivery_email": u.Email}}, seeing)
	if api := world.APIEmail(realm, u); api == u.Email {
		if err := announceUserUpdate(r, ev, person{"user_id": u.ID, "new_email": api}); err != nil {
			return err
		}
	}
	return announceAvatar(r, ev, u)
}

// announceAvatar sends u's avatar to everyone: those who may see u's email and compute
// Gravatar URLs themselves (client_gravatar) do not need it for a Gravatar avatar.
func announceAvatar(r storage.UserReader, ev *engine.Events, u users.User) error {
	all, err := r.List()
	if err != nil {
		return err
	}
	var seeing, notSeeing []int64
	for _, v := range all {
		switch {
		case !v.IsActive:
		case users.CanSeeEmail(v, u):
			seeing = append(seeing, int64(v.ID))
		default:
			notSeeing = append(notSeeing, int64(v.ID))
		}
	}
	url := AvatarURL(u)
	p := person{"user_id": u.ID, "avatar_source": u.AvatarSource, "avatar_url": url,
		"avatar_url_medium": AvatarMediumURL(u), "avatar_version": u.AvatarVersion}
	ev.Add("realm_user", RealmUserEvent{Type: "realm_user", Op: "update", Person: p,
		gravatarClient: u.AvatarSource == users.AvatarGravatar}, seeing)
	ev.Add("realm_user", RealmUserEvent{Type: "realm_user", Op: "update", Person: p}, notSeeing)
	return nil
}

// AnnounceAvatarChange sends a changed avatar to every active user (clients with client_gravatar
// drop a Gravatar URL of a user whose email they see: they compute it).
func AnnounceAvatarChange(r storage.UserReader, ev *engine.Events, u users.User) error {
	all, err := r.List()
	if err != nil {
		return err
	}
	var to []int64
	for _, v := range all {
		if v.IsActive {
			to = append(to, int64(v.ID))
		}
	}
	p := person{"user_id": u.ID, "avatar_source": u.AvatarSource, "avatar_url": AvatarURL(u),
		"avatar_url_medium": AvatarMediumURL(u), "avatar_version": u.AvatarVersion}
	// Everyone gets the URL, as from Zulip; clients with client_gravatar drop a Gravatar URL
	// they can compute themselves.
	ev.Add("realm_user", RealmUserEvent{Type: "realm_user", Op: "update", Person: p}, to)
	return nil
}

// DeactivateUserActions are the optional clean-ups of a deactivation, applied to the user's
// bots and then to the user.
type DeactivateUserActions struct {
	DeleteProfile                bool `json:"delete_profile"`
	DeletePublicChannelMessages  bool `json:"delete_public_channel_messages"`
	DeletePrivateChannelMessages bool `json:"delete_private_channel_messages"`
	DeleteDirectMessages         bool `json:"delete_direct_messages"`
}

// DeactivateUserParams are the parameters of DELETE /users/{user_id}.
type DeactivateUserParams struct {
	UserID  users.ID
	Actions *DeactivateUserActions
	// DeactivationNotificationComment, when not nil, asks for a notification email (at most
	// 2000 characters; this server sends no email and only validates it).
	DeactivationNotificationComment *string
}

// DeactivateUser deactivates a human user (administrators; an owner only by an owner; never
// the only owner). The bots the user owns are deactivated first, then the user; the actions
// apply to each in that order. Everyone who can access them gets realm_user update
// is_active=false. Group memberships are kept but never count for deactivated users, so the
// user leaves every group as far as anyone can tell.
func (s *Service) DeactivateUser(ctx context.Context, actor engine.Actor, p DeactivateUserParams) error {
	if c := p.DeactivationNotificationComment; c != nil && utf8.RuneCountInString(strings.TrimSpace(*c)) > MaxDeactivationCommentLength {
		return engine.BadRequest("deactivation_notification_comment is too long (limit: %d characters)", MaxDeactivationCommentLength)
	}
	var actions DeactivateUserActions
	if p.Actions != nil {
		actions = *p.Actions
	}
	return s.eng.Mutate(ctx, actor, engine.SignedIn, func(o *engine.WriteOp) error {
		tx, me := o.Tx, o.Me
		target, err := engine.TargetUser(tx.Users(), p.UserID)
		if err != nil {
			return err
		}
		if target.IsBot() {
			return engine.ErrNoSuchUser()
		}
		if !target.IsActive {
			return engine.BadRequest(msgUserDeactivated400)
		}
		if !me.Role.IsAdmin() {
			return engine.BadRequest(engine.MsgInsufficientPerm)
		}
		if target.Role == users.RoleOwner && me.Role != users.RoleOwner {
			return engine.ErrMustBeOwner()
		}
		if only, err := isOnlyOwner(tx.Users(), target); err != nil {
			return err
		} else if only {
			return engine.BadRequest(msgOnlyOwnerDeactivate)
		}
		return s.deactivateWithBots(o, target, actions)
	})
}

// deactivateWithBots deactivates the active bots u owns, then u, each with the actions.
func (s *Service) deactivateWithBots(o *engine.WriteOp, u users.User, a DeactivateUserActions) error {
	all, err := o.Tx.Users().List()
	if err != nil {
		return err
	}
	for _, bot := range all {
		if bot.IsBot() && bot.IsActive && bot.BotOwnerID == u.ID {
			if err := s.deactivateOne(o, bot, a); err != nil {
				return err
			}
		}
	}
	return s.deactivateOne(o, u, a)
}

// deactivateOne applies the actions to u and deactivates it (me is the acting administrator).
func (s *Service) deactivateOne(o *engine.WriteOp, u users.User, a DeactivateUserActions) error {
	tx, ev := o.Tx, o.Ev
	if err := s.deleteMessagesOf(o, u, a); err != nil {
		return err
	}
	if a.DeleteProfile {
		u.FullName = users.DeletedUserName
		u.AvatarSource = users.AvatarJdenticon
		u.AvatarVersion++
	}
	u.IsActive = false
	if err := tx.Users().Update(u); err != nil {
		return err
	}
	if err := s.endSessions(tx, ev, u.ID, ""); err != nil {
		return err
	}
	if a.DeleteProfile {
		if err := announceUserUpdate(tx.Users(), ev, person{"user_id": u.ID, "full_name": u.FullName}); err != nil {
			return err
		}
		if err := announceAvatar(tx.Users(), ev, u); err != nil {
			return err
		}
		if u.IsBot() {
			if err := announceBotUpdate(tx.Users(), ev, u, map[string]any{"full_name": u.FullName, "avatar_url": AvatarURL(u)}); err != nil {
				return err
			}
		}
	}
	ids, err := engine.ActiveUserIDs(tx.Users())
	if err != nil {
		return err
	}
	ev.Add("realm_user", RealmUserEvent{Type: "realm_user", Op: "update", Person: person{"user_id": u.ID, "is_active": false}}, ids)
	if u.IsBot() {
		if err := announceBotUpdate(tx.Users(), ev, u, map[string]any{"is_active": false}); err != nil {
			return err
		}
	}
	ev.EndQueuesOf(u.ID)
	return nil
}

// deleteMessagesOf applies the message-deleting actions of a deactivation to the messages u
// sent: to public channels (delete_public_channel_messages), to invite-only channels
// (delete_private_channel_messages) and direct messages (delete_direct_messages). As for any
// deletion, those who received them and still have access, and me when able to read them, get
// delete_message events, and channels whose oldest message goes a stream update.
func (s *Service) deleteMessagesOf(o *engine.WriteOp, u users.User, a DeactivateUserActions) error {
	tx, ev, me := o.Tx, o.Ev, o.Me
	if !a.DeletePublicChannelMessages && !a.DeletePrivateChannelMessages && !a.DeleteDirectMessages {
		return nil
	}
	sent, err := tx.Messages().SentBy(u.ID)
	if err != nil || len(sent) == 0 {
		return err
	}
	w := o.World()
	var ids []messages.ID
	for _, m := range sent {
		var doomed bool
		if m.IsDirect() {
			doomed = a.DeleteDirectMessages
		} else if c, ok := w.Channel(m.ChannelID); ok && !c.InviteOnly {
			doomed = a.DeletePublicChannelMessages
		} else {
			doomed = a.DeletePrivateChannelMessages
		}
		if doomed {
			ids = append(ids, m.ID)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	return s.hooks.DeleteMessages(tx, ev, w, me, ids)
}

// ReactivateUserParams are the parameters of POST /users/{user_id}/reactivate.
type ReactivateUserParams struct {
	UserID users.ID
}

// ReactivateUser reactivates a deactivated user or bot (administrators, or a bot's owner).
// Everyone who can access the user gets realm_user update is_active=true.
func (s *Service) ReactivateUser(ctx context.Context, actor engine.Actor, p ReactivateUserParams) error {
	return s.eng.Mutate(ctx, actor, engine.SignedIn, func(o *engine.WriteOp) error {
		tx, ev, me := o.Tx, o.Ev, o.Me
		target, err := engine.AdminTarget(tx.Users(), me, p.UserID)
		if err != nil {
			return err
		}
		if target.IsActive {
			return engine.BadRequest("User is already active")
		}
		if target.IsBot() && target.BotOwnerID != 0 {
			owner, err := tx.Users().Get(target.BotOwnerID)
			if err != nil && !errors.Is(err, storage.ErrNotFound) {
				return err
			}
			if err != nil || !owner.IsActive {
				return engine.BadRequest("Bot owner is deactivated")
			}
		}
		target.IsActive = true
		if err := tx.Users().Update(target); err != nil {
			return err
		}
		s.credentialsChanged(ev, target.ID)
		if err := announceUserUpdate(tx.Users(), ev, person{"user_id": target.ID, "is_active": true}); err != nil {
			return err
		}
		if target.IsBot() {
			if err := announceBotUpdate(tx.Users(), ev, target, map[string]any{"is_active": true}); err != nil {
				return err
			}
		}
		return announceRestoredMemberships(tx.Users(), tx.Groups(), ev, target.ID)
	})
}

// CreateUserParams are the parameters of POST /users.
type CreateUserParams struct {
	Email    string
	Password string
	FullName string
}

// CreateUserResult identifies the new user.
type CreateUserResult struct {
	UserID users.ID `json:"user_id"`
}

// userCreators is the engine.Gate of CreateUser: the administrators holding the special
// can_create_users permission.
func userCreators(tx storage.ReadTx, actor engine.Actor) (users.User, error) {
	u, err := engine.Admins(tx, actor)
	if err == nil && !u.CanCreateUsers {
		return users.User{}, engine.BadRequest(msgCannotCreateUsers)
	}
	return u, err
}

// CreateUser creates a member account, subscribed to the default channels. The actor must be
// an administrator holding the special can_create_users permission.
func (s *Service) CreateUser(ctx context.Context, actor engine.Actor, p CreateUserParams) (CreateUserResult, error) {
	// Check the engine.Gate before hashing the password.
	err := s.eng.Read(ctx, actor, userCreators, func(*engine.ReadOp) error { return nil })
	if err != nil {
		return CreateUserResult{}, err
	}
	if _, err := users.CheckFullName(p.FullName); err != nil {
		return CreateUserResult{}, engine.RuleError(err)
	}
	if err := users.CheckEmail(strings.TrimSpace(p.Email)); err != nil {
		return CreateUserResult{}, engine.BadRequest("Bad name or username")
	}
	if n := utf8.RuneCountInString(p.Password); n < PasswordMinLength || n > PasswordMaxLength {
		return CreateUserResult{}, engine.BadRequest("The password is too weak.")
	}
	u, err := s.newUser(ProvisionUserParams{Email: p.Email, FullName: p.FullName, Password: p.Password})
	if err != nil {
		return CreateUserResult{}, err
	}
	err = s.eng.Mutate(ctx, actor, userCreators, func(o *engine.WriteOp) error {
		tx, ev := o.Tx, o.Ev
		if u.ID, err = s.insertUser(tx, ev, u, users.BotConfig{}); err != nil {
			return err
		}
		return s.hooks.SubscribeNewUser(o, u.ID, defaultChannel)
	})
	if err != nil {
		return CreateUserResult{}, err
	}
	return CreateUserResult{UserID: u.ID}, nil
}

// DeactivateOwnUserParams are the parameters of DELETE /users/me (none).
type DeactivateOwnUserParams struct{}

// errCannotDeactivateLast is Zulip's CannotDeactivateLastUserError: the organization's last
// active user, or its only owner, cannot leave.
func errCannotDeactivateLast(owner bool) *engine.Error {
	entity := "user"
	if owner {
		entity = "organization owner"
	}
	return engine.Errorf(engine.CodeCannotDeactivateLastUser, "Cannot deactivate the only %s.", entity).
		With("is_last_owner", owner).With("entity", entity)
}

// DeactivateOwnUser deactivates the actor's own account, and first the bots the actor owns,
// as an administrator's deactivation does. The organization's last active user and its only
// owner are refused (CANNOT_DEACTIVATE_LAST_USER).
func (s *Service) DeactivateOwnUser(ctx context.Context, actor engine.Actor, _ DeactivateOwnUserParams) error {
	return s.eng.Mutate(ctx, actor, engine.SignedIn, func(o *engine.WriteOp) error {
		tx, me := o.Tx, o.Me
		ids, err := engine.ActiveUserIDs(tx.Users())
		if err != nil {
			return err
		}
		if len(ids) == 1 {
			return errCannotDeactivateLast(false)
		}
		if only, err := isOnlyOwner(tx.Users(), me); err != nil {
			return err
		} else if only {
			return errCannotDeactivateLast(true)
		}
		return s.deactivateWithBots(o, me, DeactivateUserActions{})
	})
}
