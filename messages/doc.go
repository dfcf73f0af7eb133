// Package messages holds the message records and their pure rules: the Message record (the
// topic is a field on it), a user's per-message flags (UserMessage), content normalisation and
// limits, and the narrow terms of GET /messages with the predicate that evaluates them, so that
// every storage backend and the Service agree on what a narrow matches.
//
// It imports users, channels (for the channel id type) and the standard library only. It does
// no I/O and reads no clock; everything in it is safe for concurrent use.
package messages
