// Package typing is the typing notifications of the chat engine (Zulip's POST /typing and
// POST /messages/{message_id}/typing): who is told that the actor started or stopped
// composing a message or editing one, and the stops the Service sends itself for starts a
// client did not renew within TypingExpiry.
//
// It sits above the conversations area: the recipients of a notification are those of the
// message being composed, found the way a send finds them (conversations.ChannelForSend,
// conversations.ActiveSubscribers, conversations.ReactableMessage), so nothing below it
// knows of typing. Its state is its own and not in the store: the starts noted after their
// commits and the janitor that expires them (StartExpiry, StopExpiry). The operations are
// methods of Service, written the one way the engine describes (internal/engine); package
// chat aliases the Params, Result and Event types and its Service delegates to this one.
//
// Files, by aspect:
//
//	typing   SetTypingStatus, SetTypingStatusForMessageEdit, the events and their
//	         recipients (typing.go)
//	events   the event types and their names (event_types.go)
//	expiry   the starts not yet stopped and the janitor that stops them (expiry.go)
//	service  Service, Config, New, StartExpiry, StopExpiry, Expire (service.go)
//
// A new kind of typing notification goes into typing.go, its event type in event_types.go.
//
// Imports: conversations and narrows (below it), internal/engine, internal/world,
// internal/clients, storage and the leaves; never package chat.
package typing
