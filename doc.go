// Package chat is a Zulip-compatible team-chat engine: the Service type has one method per
// operation of the Zulip API (named after its operationId), works on any storage.Storage
// backend, and delivers real-time events through in-process event queues.
//
// Every method takes a context first, then the acting user (an Actor produced by one of the
// authentication methods) where the operation has one, then a Params struct; it returns a Result
// struct and an error. Errors are *Error values carrying the API's code and HTTP status.
//
// Each mutation runs in one storage transaction; the events it causes are collected during the
// transaction and published only after it commits, in commit order. Registration of an event
// queue is race-free: the state it returns plus every event delivered after its last_event_id
// equals the true state.
//
// Imports: the leaf domain packages, storage, queue, ratelimit and markdown; never a storage
// backend and never httpapi.
package chat
