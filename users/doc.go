// Package users holds the records and pure rules about the people and bots of an organization:
// User, Role, BotType, user groups (system and named), group-setting values and membership
// resolution over subgroups.
//
// It imports only the standard library. It does no I/O, reads no clock and knows nothing of
// storage or HTTP; the chat package applies its rules inside storage transactions.
package users
