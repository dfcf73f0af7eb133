package files

// The names of the area's events (engine.Event): each event type says which event it is, and
// engine.Events.Emit records it under that name.

// EventType is "attachment".
func (AttachmentEvent) EventType() string { return "attachment" }
