// Package compose is the compose area of the chat engine: what a user prepares before (or
// instead of) sending: drafts, saved snippets, navigation views, scheduled messages and
// reminders (Zulip's /drafts, /saved_snippets, /navigation_views, /scheduled_messages and
// /reminders), and the scheduler that delivers the scheduled ones.
//
// Each operation is a method of Service, written the one way the engine describes
// (internal/engine): check the form of the parameters, then one engine Read or Mutate with the
// operation's gate, then shape the result. The package owns its Params, Result, Record and
// Event types; package chat aliases them and its Service delegates to this one. register's
// sections of this area come from DraftsStateOf (state.go: with the organization's linkifiers
// and code playgrounds, which clients keep beside them) and ScheduledStateOf.
//
// Files, by aspect: drafts (drafts.go), saved snippets (snippets.go), navigation views
// (navigation_views.go); GetScheduledMessages, CreateScheduledMessage,
// UpdateScheduledMessage, DeleteScheduledMessage (scheduled_messages.go); GetReminders,
// CreateMessageReminder, DeleteReminder (scheduled_reminders.go); the scheduler:
// DeliverScheduledMessages, StartScheduler, register's scheduled_messages and reminders
// (scheduled_deliver.go). A due message is claimed, sent through the conversations' send path
// (conversations.SendAs) and recorded in one transaction.
//
// A new operation goes into the file of its aspect, or a new one: it belongs here when it
// prepares what a user will send, and sends through package conversations.
//
// Imports: conversations (the area below that sends), people and org, internal/engine, internal/world,
// internal/clients, storage and the leaves (drafts, users, channels, messages, topics,
// realms); never package chat, and no area above it.
package compose
