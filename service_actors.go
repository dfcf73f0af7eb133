package chat

import (
	"errors"

	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// loadActor reads the acting user and refuses a deactivated one.
func loadActor(r storage.UserReader, actor Actor) (users.User, error) {
	u, err := r.Get(actor.UserID)
	if errors.Is(err, storage.ErrNotFound) {
		return users.User{}, Errorf(CodeUnauthorized, msgInvalidKey)
	}
	if err != nil {
		return users.User{}, err
	}
	if !u.IsActive {
		return users.User{}, Errorf(CodeUnauthorized, msgUserDeactivated)
	}
	return u, nil
}

// loadAdmin is loadActor for operations of administrators: anyone else is refused.
func loadAdmin(r storage.UserReader, actor Actor) (users.User, error) {
	u, err := loadActor(r, actor)
	if err == nil && !u.Role.IsAdmin() {
		return users.User{}, errMustBeAdmin()
	}
	return u, err
}

func errNoSuchUser() *Error { return badRequest(msgNoSuchUser) }

// errMustBeAdmin and errMustBeOwner are the role-gate refusals (UNAUTHORIZED_PRINCIPAL).
func errMustBeAdmin() *Error { return Errorf(CodeUnauthorizedPrincipal, msgMustBeAdmin) }

func errMustBeOwner() *Error { return Errorf(CodeUnauthorizedPrincipal, msgMustBeOwner) }

// actingUser reloads the authenticated user inside the transaction; an anonymous actor is not
// logged in.
func actingUser(r storage.UserReader, actor Actor) (users.User, error) {
	if actor.Anonymous() {
		return users.User{}, ErrNotLoggedIn()
	}
	return loadActor(r, actor)
}

// humanActor is actingUser for endpoints that refuse bots (human_users_only).
func humanActor(r storage.UserReader, actor Actor) (users.User, error) {
	u, err := actingUser(r, actor)
	if err == nil && u.IsBot() {
		return users.User{}, badRequest(msgNoBots)
	}
	return u, err
}

// memberActor is actingUser for endpoints closed to guests and bots (require_member_or_admin).
func memberActor(r storage.UserReader, actor Actor) (users.User, error) {
	u, err := humanActor(r, actor)
	if err == nil && u.Role == users.RoleGuest {
		return users.User{}, badRequest(msgNotForGuests)
	}
	return u, err
}

// targetUser loads the user an operation names, with Zulip's "No such user" for unknown ids.
func targetUser(r storage.UserReader, id users.ID) (users.User, error) {
	u, err := r.Get(id)
	if errors.Is(err, storage.ErrNotFound) {
		return users.User{}, errNoSuchUser()
	}
	return u, err
}

// adminTarget loads the target of an administrative operation (access_user_by_id with
// for_admin): unknown → No such user; an actor who is neither an administrator nor, for a bot,
// its owner → Insufficient permission.
func adminTarget(r storage.UserReader, actor users.User, id users.ID) (users.User, error) {
	t, err := targetUser(r, id)
	if err != nil {
		return t, err
	}
	if !actor.Role.IsAdmin() && !(t.IsBot() && t.BotOwnerID == actor.ID) {
		return users.User{}, badRequest(msgInsufficientPerm)
	}
	return t, nil
}
