// Package people is the people area of the chat engine: what users say about themselves and
// their devices: alert words, push and client devices, onboarding steps and presence (Zulip's
// /users/me/alert_words, /users/me/apns_device_token, /users/me/android_gcm_reg_id,
// /register_client_device, /users/me/onboarding_steps, /users/me/presence, /realm/presence and
// /users/{user}/presence). Users, bots, groups, sessions, invitations, statuses, settings and
// profile fields join it as their ties to the other areas are cut (internal/areagraph's
// TestAreaGraph lists what is left).
//
// Each operation is a method of Service, written the one way the engine describes
// (internal/engine): check the form of the parameters, then one engine Read or Mutate with the
// operation's gate, then shape the result. The package owns its Params, Result, Record and
// Event types; package chat aliases them and its Service delegates to this one. register's
// sections of this area come from RegisterAlertWords, RegisterOnboarding and RegisterPresence;
// a send asks AlertedUsers who gets the has_alert_word flag.
//
// Imports: internal/engine, internal/world, internal/clients, storage and the leaves (users,
// realms, markdown); never package chat, and no area above it.
package people
