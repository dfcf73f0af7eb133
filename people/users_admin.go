package people

import (
	"context"
	"errors"
	"strings"

	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/internal/world"
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

// UpdateUserResult is UpdateUser's answer: nothing beyond success.
type UpdateUserResult struct{}

// UpdateUser changes another user's name, role, custom profile data or email. It is for
// administrators (and for the owner of a bot); only owners give or take the owner role, the
// only owner keeps it, and a guest cannot be made an administrator directly. Every change
// sends a realm_user update; a role change also moves the user between the system groups.
func (s *Service) UpdateUser(ctx context.Context, actor engine.Actor, p UpdateUserParams) (UpdateUserResult, error) {
	return UpdateUserResult{}, s.updateUser(ctx, actor, p, func(storage.UserReader, realms.Realm, users.User) (users.ID, error) { return p.UserID, nil })
}

// UpdateUserByEmailParams are the parameters of PATCH /users/{email}: the user's API email (or
// a real email the actor may see) instead of the id; UserID is ignored.
type UpdateUserByEmailParams struct {
	Email string
	UpdateUserParams
}

// UpdateUserByEmailResult is UpdateUserByEmail's answer: nothing beyond success.
type UpdateUserByEmailResult struct{}

// UpdateUserByEmail is UpdateUser for the user with that email. An email the actor may not
// see is "No such user", as for GET /users/{email}.
func (s *Service) UpdateUserByEmail(ctx context.Context, actor engine.Actor, p UpdateUserByEmailParams) (UpdateUserByEmailResult, error) {
	return UpdateUserByEmailResult{}, s.updateUser(ctx, actor, p.UpdateUserParams, func(r storage.UserReader, realm realms.Realm, me users.User) (users.ID, error) {
		u, err := engine.UserByAPIEmail(r, s.EmailDomain(realm), me, p.Email)
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
		if err := announceUserRecordChange(tx, ev, realm, s.EmailDomain(realm), old, target); err != nil {
			return err
		}
		if len(p.ProfileData) > 0 {
			return s.setProfileData(tx, ev, me, target, p.ProfileData, true)
		}
		return nil
	})
}

// changeUserRecord applies to target what me changes of its user record: the full name (a
// blank one refused, as Zulip's check_full_name does), the role, the email (only an owner allowed to change emails).
func changeUserRecord(r storage.UserReader, me users.User, target *users.User, p UpdateUserParams) error {
	if p.FullName != nil {
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
// domain is the organization's email domain (Service.EmailDomain).
func announceUserRecordChange(tx storage.Tx, ev *engine.Events, realm realms.Realm, domain string, old, u users.User) error {
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
		return announceEmailChange(tx.Users(), ev, domain, u)
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
func announceEmailChange(r storage.UserReader, ev *engine.Events, domain string, u users.User) error {
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
	ev.Emit(RealmUserEvent{Type: "realm_user", Op: "update",
		Person: person{"user_id": u.ID, "delivery_email": u.Email}}, seeing)
	if api := world.APIEmail(domain, u); api == u.Email {
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
	ev.Emit(RealmUserEvent{Type: "realm_user", Op: "update", Person: p,
		gravatarClient: u.AvatarSource == users.AvatarGravatar}, seeing)
	ev.Emit(RealmUserEvent{Type: "realm_user", Op: "update", Person: p}, notSeeing)
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
	ev.Emit(RealmUserEvent{Type: "realm_user", Op: "update", Person: p}, to)
	return nil
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
	if !s.passwordStrong(p.Password) {
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
		if err := s.hooks.SubscribeNewUser(o, u.ID, defaultChannel); err != nil {
			return err
		}
		return s.welcomeNewUser(o, u, nil)
	})
	if err != nil {
		return CreateUserResult{}, err
	}
	return CreateUserResult{UserID: u.ID}, nil
}
