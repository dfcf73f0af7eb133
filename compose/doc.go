// Package compose is the compose area of the chat engine: what a user prepares before (or
// instead of) sending: drafts, saved snippets and navigation views (Zulip's
// /drafts, /saved_snippets and /navigation_views). Scheduled messages and reminders join it
// once the conversations area, which sends them, is a package of its own.
//
// Each operation is a method of Service, written the one way the engine describes
// (internal/engine): check the form of the parameters, then one engine Read or Mutate with the
// operation's gate, then shape the result. The package owns its Params, Result, Record and
// Event types; package chat aliases them and its Service delegates to this one. register's
// sections of this area come from RegisterDrafts, RegisterSavedSnippets and
// RegisterNavigationViews.
//
// Imports: internal/engine, storage and the leaves (drafts, users, channels); never package
// chat, and no area above it.
package compose
