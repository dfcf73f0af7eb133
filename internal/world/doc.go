// Package world is the facts of one transaction that decisions read: the organization, its
// groups (as a users.Membership), its channels, and, read as decisions name them, its users,
// the channels' subscribers and their message activity; and the access predicates over those
// facts (who is a viewer of a channel, who may see its metadata, its content, its
// subscribers). Load reads a World in a transaction; the root package's operations get one from
// their op (engine.ReadOp.World), read on first use and cached for the transaction.
//
// A World holds facts and predicates only. A decision that belongs to one area (a channel's
// record, a message's edit, a narrow) is a plain function of that area taking the World, not a
// method here: what a newcomer finds in this package's method set is what every area shares.
// A read that fails is the World's sticky error (Fail, Err): the operation's helper returns it
// once the decision returns, so decisions need no error plumbing for reads of the world.
//
// A World belongs to one transaction and one goroutine; it is not safe for concurrent use.
//
// Imports: storage and the leaves (users, realms, channels, messages, linkifiers, markdown);
// nothing else of the project.
package world
