// Package narrows is the narrows and search of the chat engine: a client's narrow (GET
// /messages, POST /messages/flags/narrow, GET /messages/matches_narrow, register's narrow)
// resolved against the world of one transaction into storage's terms, with Zulip's
// BAD_NARROW errors; which channels' history a narrow reaches (Zulip's
// ok_to_include_history); and who may read a message (ReadableMessage, whose one answer
// for a message that does not exist and one the user may not read every area gives).
//
// It has no operations of its own: it sits below the conversations area, whose operations
// (and register, in package chat) call it inside their transactions, so that a narrow is
// decided on the same facts as the read it filters. Evaluating resolved terms on a message
// is the leaf package messages' (messages.Term); the storage backends turn them into queries.
//
// Files, by aspect:
//
//	resolve   Resolve, Queue (register's narrow), HistoryChannels, the with operator
//	          (resolve.go); the forms of operands (operands.go)
//	access    ReadableMessage, ErrInvalidMessage, MaxDirectRecipients (access.go)
//
// A new narrow operator goes into resolve.go (its operand's form in operands.go), and
// package messages and the storage backends learn to match its term. This package takes no
// operation of its own: an operation that takes a narrow is package conversations'.
//
// Imports: internal/engine, internal/world, storage and the leaves; no area package.
package narrows
