// Package messages holds the message records and their pure rules: the Message record (the
// topic is a field on it), a user's per-message flags (UserMessage), content normalisation and
// limits, the narrow terms of GET /messages with the predicate that evaluates them (so that
// every storage backend and the Service agree on what a narrow matches), and the rules of
// editing: edit history entries and what the organization's policy shows of them, propagate
// modes, and resolving topics.
//
// It imports users, channels (for the channel id type) and the standard library only. It does
// no I/O and reads no clock; everything in it is safe for concurrent use.
package messages
