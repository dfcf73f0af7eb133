package chat

import (
	"github.com/teamchat/chat/internal/engine"
)

// Actor is the authenticated user on whose behalf an operation runs. The zero Actor is an
// unauthenticated spectator. It is defined in the engine; this alias keeps embedders' code
// compiling.
type Actor = engine.Actor
