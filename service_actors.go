package chat

import (
	"errors"

	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// gate is an operation's one access check: it loads the acting user inside the transaction (so
// a concurrent deactivation or demotion wins) and refuses those the operation is not for. The
// gates, from the most open:
//
//	noActor     operations without an acting user (logins, sign-ups): loads nobody
//	spectators  an authenticated user, or the anonymous actor where the organization allows
//	            spectator access (the zero User)
//	signedIn    an authenticated, active user
//	humans      signedIn, not a bot (Zulip's human_users_only)
//	members     humans, not a guest (require_member_or_admin)
//	admins      an organization administrator (or owner)
//	owners      an organization owner
//
// An area may add its own gate built on these (draftsUsers, nonGuests, userCreators).
type gate func(tx storage.ReadTx, actor Actor) (users.User, error)

func noActor(storage.ReadTx, Actor) (users.User, error) { return users.User{}, nil }

func spectators(tx storage.ReadTx, actor Actor) (users.User, error) {
	if !actor.Anonymous() {
		return signedIn(tx, actor)
	}
	realm, err := tx.Realm().Get()
	if err != nil {
		return users.User{}, err
	}
	if !realm.EnableSpectatorAccess {
		return users.User{}, ErrNotLoggedIn()
	}
	return users.User{}, nil
}

func signedIn(tx storage.ReadTx, actor Actor) (users.User, error) {
	if actor.Anonymous() {
		return users.User{}, ErrNotLoggedIn()
	}
	u, err := tx.Users().Get(actor.UserID)
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

func humans(tx storage.ReadTx, actor Actor) (users.User, error) {
	u, err := signedIn(tx, actor)
	if err == nil && u.IsBot() {
		return users.User{}, badRequest(msgNoBots)
	}
	return u, err
}

func members(tx storage.ReadTx, actor Actor) (users.User, error) {
	u, err := humans(tx, actor)
	if err == nil && u.Role == users.RoleGuest {
		return users.User{}, badRequest(msgNotForGuests)
	}
	return u, err
}

func admins(tx storage.ReadTx, actor Actor) (users.User, error) {
	u, err := signedIn(tx, actor)
	if err == nil && !u.Role.IsAdmin() {
		return users.User{}, errMustBeAdmin()
	}
	return u, err
}

func owners(tx storage.ReadTx, actor Actor) (users.User, error) {
	u, err := signedIn(tx, actor)
	if err == nil && u.Role != users.RoleOwner {
		return users.User{}, errMustBeOwner()
	}
	return u, err
}

func errNoSuchUser() *Error { return badRequest(msgNoSuchUser) }

// errMustBeAdmin and errMustBeOwner are the role-gate refusals (UNAUTHORIZED_PRINCIPAL).
func errMustBeAdmin() *Error { return Errorf(CodeUnauthorizedPrincipal, msgMustBeAdmin) }

func errMustBeOwner() *Error { return Errorf(CodeUnauthorizedPrincipal, msgMustBeOwner) }

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
