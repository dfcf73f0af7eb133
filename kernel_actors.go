package chat

import (
	"github.com/teamchat/chat/internal/engine"
)

// Actor is the authenticated user on whose behalf an operation runs. The zero Actor is an
// unauthenticated spectator. It is defined in the engine; this alias keeps embedders' code
// compiling.
type Actor = engine.Actor

// gate is an operation's one access check (engine.Gate): engine.NoActor, engine.Spectators,
// engine.SignedIn, engine.Humans, engine.Members, engine.Admins, engine.Owners, or an area's
// own gate built on them (draftsUsers, nonGuests, userCreators).
type gate = engine.Gate
