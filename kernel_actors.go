package chat

import (
	"errors"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/internal/world"

	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// Actor is the authenticated user on whose behalf an operation runs. The zero Actor is an
// unauthenticated spectator. It is defined in the engine; this alias keeps embedders' code
// compiling.
type Actor = engine.Actor

// msgNoSuchUser is Zulip's refusal of an unknown user.
const msgNoSuchUser = "No such user"

// msgInsufficientPerm is Zulip's refusal of an operation on another user's object.
const msgInsufficientPerm = "Insufficient permission"

// gate is an operation's one access check (engine.Gate): engine.NoActor, engine.Spectators,
// engine.SignedIn, engine.Humans, engine.Members, engine.Admins, engine.Owners, or an area's
// own gate built on them (draftsUsers, nonGuests, userCreators).
type gate = engine.Gate

func errNoSuchUser() *Error { return engine.BadRequest(msgNoSuchUser) }

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
		return users.User{}, engine.BadRequest(msgInsufficientPerm)
	}
	return t, nil
}

// channelRef finds a channel by id for actor: unknown and invisible channels give the same
// "Invalid channel ID".
func channelRef(w *world.World, me users.User, id channels.ID) (channels.Channel, error) {
	c, ok := w.Channel(id)
	if !ok || !w.Metadata(c, me) {
		return channels.Channel{}, engine.BadRequest("Invalid channel ID")
	}
	return c, nil
}
