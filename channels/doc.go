// Package channels holds the records and pure rules of channels ("streams") and
// subscriptions: the Channel and Subscription records, channel folders, topics policies,
// message-retention values, name/description/colour rules, the default values of a channel's
// group settings, and the access predicates (metadata access, content access, administer,
// subscribe, add and remove subscribers, post) evaluated over users.GroupSetting values with a
// users.Membership.
//
// It imports only users and the standard library. It does no I/O and reads no clock; its
// functions are safe for concurrent use (a Membership is not, see package users).
package channels
