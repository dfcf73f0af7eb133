package compose

// The names of the area's events (engine.Event): each event type says which event it is, and
// engine.Events.Emit records it under that name.

// EventType is "drafts".
func (DraftsEvent) EventType() string { return "drafts" }

// EventType is "navigation_view".
func (NavigationViewEvent) EventType() string { return "navigation_view" }

// EventType is "reminders".
func (RemindersEvent) EventType() string { return "reminders" }

// EventType is "saved_snippets".
func (SavedSnippetsEvent) EventType() string { return "saved_snippets" }

// EventType is "scheduled_messages".
func (ScheduledMessagesEvent) EventType() string { return "scheduled_messages" }
