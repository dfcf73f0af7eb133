// Package drafts holds the per-user composing aids of the chat engine and their rules: drafts
// (messages being written), saved snippets (reusable message text) and navigation views (the
// user's configuration of the left sidebar's views).
//
// It is a leaf domain package: it imports only users and the standard library, does no I/O and
// reads no clock (callers pass the time in). Its functions are pure and safe for concurrent
// use; its records are plain values.
package drafts
