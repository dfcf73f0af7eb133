// Package emoji holds the emoji of reactions and messages: the unicode emoji with the names
// and aliases Zulip's clients use (generated from emoji-datasource and Zulip's emoji_names.py,
// see generate.go), Zulip's extra emoji, the rules of custom (realm) emoji names, and the
// reaction types that tell the three namespaces apart.
//
// It is a leaf: it imports only users and the standard library, does no I/O and holds no
// mutable state.
package emoji
