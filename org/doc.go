// Package org is the org area of the chat engine: the organization's own settings and
// resources: video calls (Zoom, Webex, BigBlueButton links), the domains whose addresses may
// join, code playgrounds and linkifiers (Zulip's /calls, /realm/domains, /realm/playgrounds
// and /realm/linkifiers), the organization's settings and their events (UpdateRealm,
// realm_update.go and realm_editing.go; register's realm keys, realm_state.go; the defaults of
// new users' settings, realm_user_defaults.go), the creation of the organization (realm.go) and
// what the server says of itself before login (GetServerSettings, Version and FeatureLevel,
// realm_server.go). Custom emoji and profile fields join it as their ties to the other areas
// are cut (internal/areagraph's TestAreaGraph lists what is left).
//
// Each operation is a method of Service, written the one way the engine describes
// (internal/engine): check the form of the parameters, then one engine Read or Mutate with the
// operation's gate, then shape the result. The package owns its Params, Result, Record and
// Event types (RealmUpdateEvent, the realm update event every setting change sends, among
// them); package chat aliases them and its Service delegates to this one. register's sections
// of this area come from DomainRecords, LinkifierRecords and PlaygroundRecords.
//
// A new operation goes into the file of its resource (calls.go, domains.go, linkifiers.go,
// playgrounds.go, realm_emoji.go) or, for a setting of the organization, realm_*.go; a new
// resource gets its own file. An operation on accounts or messages is not this area's.
//
// Imports: internal/engine, internal/world, internal/clients, storage and the leaves (users,
// realms, channels, messages, linkifiers, markdown, integrations' registry); never package
// chat, and no area above it.
package org
