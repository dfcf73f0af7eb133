// Package org is the org area of the chat engine: the organization's own settings and
// resources: video calls (Zoom, Webex, BigBlueButton links), the domains whose addresses may
// join, code playgrounds and linkifiers (Zulip's /calls, /realm/domains, /realm/playgrounds
// and /realm/linkifiers). The realm's settings, custom emoji, profile fields and user defaults
// join it as their ties to the other areas are cut (internal/areagraph's TestAreaGraph lists
// what is left).
//
// Each operation is a method of Service, written the one way the engine describes
// (internal/engine): check the form of the parameters, then one engine Read or Mutate with the
// operation's gate, then shape the result. The package owns its Params, Result, Record and
// Event types (RealmUpdateEvent, the realm update event every setting change sends, among
// them); package chat aliases them and its Service delegates to this one. register's sections
// of this area come from DomainRecords, LinkifierRecords and PlaygroundRecords.
//
// Imports: internal/engine, internal/clients, storage and the leaves (users, realms,
// linkifiers); never package chat, and no area above it.
package org
