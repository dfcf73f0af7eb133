package engine

import (
	"errors"

	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// Actor is the authenticated user on whose behalf an operation runs. The zero Actor is an
// unauthenticated spectator.
type Actor struct {
	UserID users.ID
	// session is the store key of the web session that authenticated the actor, "" for
	// other credentials.
	session string
}

// SessionActor is the actor of user authenticated by the web session whose store key is key.
func SessionActor(user users.ID, key string) Actor { return Actor{UserID: user, session: key} }

// Anonymous reports whether a is the unauthenticated spectator.
func (a Actor) Anonymous() bool { return a.UserID == 0 }

// SessionKey is the store key of the web session that authenticated a ("" for other
// credentials).
func (a Actor) SessionKey() string { return a.session }

// The messages of the gates' refusals, as Zulip words them.
const (
	MsgNotLoggedIn     = "Not logged in: API authentication or user session required"
	MsgInvalidKey      = "Invalid API key"
	MsgUserDeactivated = "Account is deactivated"
	MsgNotForGuests    = "Not allowed for guest users"
	MsgNoBots          = "This endpoint does not accept bot requests."
	MsgMustBeAdmin     = "Must be an organization administrator"
	MsgMustBeOwner     = "Must be an organization owner"
)

// ErrNotLoggedIn is the refusal of an operation that needs an authenticated user.
func ErrNotLoggedIn() *Error { return Errorf(CodeUnauthorized, MsgNotLoggedIn) }

// ErrMustBeAdmin and ErrMustBeOwner are the role-gate refusals (UNAUTHORIZED_PRINCIPAL).
func ErrMustBeAdmin() *Error { return Errorf(CodeUnauthorizedPrincipal, MsgMustBeAdmin) }

// ErrMustBeOwner is the refusal of an operation for organization owners only.
func ErrMustBeOwner() *Error { return Errorf(CodeUnauthorizedPrincipal, MsgMustBeOwner) }

// Gate is an operation's one access check: it loads the acting user inside the transaction (so
// a concurrent deactivation or demotion wins) and refuses those the operation is not for. The
// gates, from the most open:
//
//	NoActor     operations without an acting user (logins, sign-ups): loads nobody
//	Spectators  an authenticated user, or the anonymous actor where the organization allows
//	            spectator access (the zero User)
//	SignedIn    an authenticated, active user
//	Humans      SignedIn, not a bot (Zulip's human_users_only)
//	Members     Humans, not a guest (require_member_or_admin)
//	Admins      an organization administrator (or owner)
//	Owners      an organization owner
//
// An area may add its own gate built on these.
type Gate func(tx storage.ReadTx, actor Actor) (users.User, error)

// NoActor is the gate of operations without an acting user: it loads nobody.
func NoActor(storage.ReadTx, Actor) (users.User, error) { return users.User{}, nil }

// Spectators admits an authenticated user, or the anonymous actor where the organization
// allows spectator access (as the zero User).
func Spectators(tx storage.ReadTx, actor Actor) (users.User, error) {
	if !actor.Anonymous() {
		return SignedIn(tx, actor)
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

// SignedIn admits an authenticated, active user.
func SignedIn(tx storage.ReadTx, actor Actor) (users.User, error) {
	if actor.Anonymous() {
		return users.User{}, ErrNotLoggedIn()
	}
	u, err := tx.Users().Get(actor.UserID)
	if errors.Is(err, storage.ErrNotFound) {
		return users.User{}, Errorf(CodeUnauthorized, MsgInvalidKey)
	}
	if err != nil {
		return users.User{}, err
	}
	if !u.IsActive {
		return users.User{}, Errorf(CodeUnauthorized, MsgUserDeactivated)
	}
	return u, nil
}

// Humans admits SignedIn users that are not bots.
func Humans(tx storage.ReadTx, actor Actor) (users.User, error) {
	u, err := SignedIn(tx, actor)
	if err == nil && u.IsBot() {
		return users.User{}, BadRequest(MsgNoBots)
	}
	return u, err
}

// Members admits Humans that are not guests.
func Members(tx storage.ReadTx, actor Actor) (users.User, error) {
	u, err := Humans(tx, actor)
	if err == nil && u.Role == users.RoleGuest {
		return users.User{}, BadRequest(MsgNotForGuests)
	}
	return u, err
}

// Admins admits organization administrators and owners.
func Admins(tx storage.ReadTx, actor Actor) (users.User, error) {
	u, err := SignedIn(tx, actor)
	if err == nil && !u.Role.IsAdmin() {
		return users.User{}, ErrMustBeAdmin()
	}
	return u, err
}

// Owners admits organization owners.
func Owners(tx storage.ReadTx, actor Actor) (users.User, error) {
	u, err := SignedIn(tx, actor)
	if err == nil && u.Role != users.RoleOwner {
		return users.User{}, ErrMustBeOwner()
	}
	return u, err
}
