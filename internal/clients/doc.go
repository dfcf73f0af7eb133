// Package clients is what a client declared when it registered its event queue, and the
// events whose form depends on it: apply_markdown, client_gravatar and client_capabilities
// (Options, Capabilities), the events that adapt to them (Adapter, with the options each reads:
// Reads), and the events only clients with (or without) a capability receive (Gated).
//
// The areas define their events' forms with it; the root's queues and the event bus deliver
// them: a queue keeps its client's Options, and the bus encodes an adapted event once for each
// combination of the options it reads (Profile, Subsets), so that every process gives each
// queue the form the in-process path would.
//
// Imports: the messages leaf (a queue's narrow, for message events); nothing else of the
// project.
package clients
