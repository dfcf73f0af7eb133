package engine

import (
	"errors"
	"strings"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/internal/world"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// The users and channels an operation names (beside the acting user, whom the gates load),
// with Zulip's refusals.

// The messages of refusals of named objects, as Zulip words them.
const (
	MsgNoSuchUser       = "No such user"
	MsgInsufficientPerm = "Insufficient permission"
)

// ErrNoSuchUser is Zulip's refusal of an operation that names an unknown user.
func ErrNoSuchUser() *Error { return BadRequest(MsgNoSuchUser) }

// TargetUser loads the user an operation names, with Zulip's "No such user" for unknown ids.
func TargetUser(r storage.UserReader, id users.ID) (users.User, error) {
	u, err := r.Get(id)
	if errors.Is(err, storage.ErrNotFound) {
		return users.User{}, ErrNoSuchUser()
	}
	return u, err
}

// AdminTarget loads the target of an administrative operation (access_user_by_id with
// for_admin): unknown → No such user; an actor who is neither an administrator nor, for a bot,
// its owner → Insufficient permission.
func AdminTarget(r storage.UserReader, actor users.User, id users.ID) (users.User, error) {
	t, err := TargetUser(r, id)
	if err != nil {
		return t, err
	}
	if !actor.Role.IsAdmin() && !(t.IsBot() && t.BotOwnerID == actor.ID) {
		return users.User{}, BadRequest(MsgInsufficientPerm)
	}
	return t, nil
}

// ChannelRef finds a channel by id for actor: unknown and invisible channels give the same
// "Invalid channel ID".
func ChannelRef(w *world.World, me users.User, id channels.ID) (channels.Channel, error) {
	c, ok := w.Channel(id)
	if !ok || !w.Metadata(c, me) {
		return channels.Channel{}, BadRequest("Invalid channel ID")
	}
	return c, nil
}

// UserByAPIEmail resolves an email as seen by viewer, domain being the organization's email
// domain (Engine.EmailDomain), that of the placeholders of hidden addresses.
func UserByAPIEmail(r storage.UserReader, domain string, viewer users.User, email string) (users.User, error) {
	email = strings.TrimSpace(email)
	if id, ok := world.PlaceholderID(domain, email); ok {
		return TargetUser(r, id)
	}
	u, err := r.GetByEmail(email)
	if errors.Is(err, storage.ErrNotFound) {
		return users.User{}, ErrNoSuchUser()
	}
	if err != nil {
		return users.User{}, err
	}
	if !users.CanSeeEmail(viewer, u) {
		return users.User{}, ErrNoSuchUser()
	}
	return u, nil
}
