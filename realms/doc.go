// Package realms holds the organization (Zulip's "realm") record: its name, description, icon,
// URL and the organization-wide settings the other areas consult, plus the pure rules over them.
//
// It imports only the users package and the standard library; it does no I/O.
package realms
