package engine

import (
	"errors"
	"strconv"
	"strings"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/internal/world"
	"github.com/teamchat/chat/realms"
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

// UserByAPIEmail resolves an email as seen by viewer.
func UserByAPIEmail(r storage.UserReader, realm realms.Realm, viewer users.User, email string) (users.User, error) {
	email = strings.TrimSpace(email)
	if id, ok := PlaceholderID(realm, email); ok {
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

// PlaceholderID parses user{id}@{realm host}, case-insensitively.
func PlaceholderID(realm realms.Realm, email string) (users.ID, bool) {
	local, host, ok := strings.Cut(strings.ToLower(email), "@")
	if !ok || host != strings.ToLower(realm.Host()) {
		return 0, false
	}
	digits, ok := strings.CutPrefix(local, "user")
	if !ok || digits == "" || len(digits) > 18 {
		return 0, false
	}
	n, err := strconv.ParseInt(digits, 10, 64)
	if err != nil || n <= 0 || strconv.FormatInt(n, 10) != digits {
		return 0, false
	}
	return users.ID(n), true
}
