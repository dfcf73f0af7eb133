// Package benchorg builds large organizations quickly for benchmarks and load tests: thousands
// of users and channels with their subscriptions, written in a few bulk storage transactions
// instead of one ProvisionUser (with its announcement to every user) per user.
//
// It writes through storage.Storage directly and sends no events, so it must run before any
// event queue is registered (right after chat.New and CreateOrganization). Users get no
// password; their API keys come back in Org.
//
// It may import chat, storage and the leaf packages. Not safe for concurrent use with other
// writers of the same store.
package benchorg
