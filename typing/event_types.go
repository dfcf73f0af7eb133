package typing

import "github.com/teamchat/chat/internal/engine"

// The names of the area's events (engine.Event): each event type says which event it is.

// EventType is "typing".
func (TypingEvent) EventType() string { return "typing" }

// EventType is "typing_edit_message".
func (TypingEditMessageEvent) EventType() string { return "typing_edit_message" }

// pending is e for recipients as the engine records it (engine.Events.Emit): kept so that
// its stop can be sent when the start expires.
func pending(e engine.Event, recipients []int64) engine.Pending {
	return engine.Pending{Type: e.EventType(), Payload: e, Recipients: recipients}
}
