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
// Several processes may share one store and its events (Options.Bus, Options.NodeID; the
// PostgreSQL implementation is eventbus/pgbus). The only change to the write path is where the
// events go: the Service hands each transaction's events to the bus inside that transaction
// (the bus finds its own way into it through the optional storage.SQLTx capability), so the
// database delivers them to every process on commit, in commit order, and never for a
// rollback; each process then fills its own queues. Without a Bus the in-process path is
// unchanged. Queue ids name the node holding the queue ("NODE:UUID"); httpapi forwards event
// requests to it. bus.go details the design, including race-free registration across
// processes.
//
// Imports: the leaf domain packages, storage, queue, ratelimit and markdown; never a storage
// backend and never httpapi.
package chat
