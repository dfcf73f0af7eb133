// Package emailgateway is the channels' email gateway of the chat engine (Zulip's
// email_mirror): the address that posts to a channel by email (GET
// /streams/{stream_id}/email_address) and the posting of an email received at such an
// address as a message of the channel.
//
// It sits above the conversations area and sends through it (conversations.DeliverMessage,
// the path every message takes), so nothing below it knows of email: a channel's email
// addresses are rows of storage, the address form and the reading of an email are this
// package's. The operations are methods of Service, written the one way the engine describes
// (internal/engine); package chat aliases the Params and Result types and its Service
// delegates to this one.
//
// Files, by aspect (a new operation of the gateway goes into the file of its aspect):
//
//	address  GetStreamEmailAddress and the address form: EncodeEmailAddress,
//	         DecodeEmailAddress (address.go)
//	mirror   EmailMirrorMessage: the token's channel and sender, the body made a message
//	         (mirror.go); reading the email: its parts, charsets, quotations, footers, the
//	         HTML made Markdown (parse.go)
//	service  Service, Config, New (service.go)
//
// Imports: conversations and people (the areas below), internal/engine, internal/world,
// storage and the leaves; never package chat.
package emailgateway
