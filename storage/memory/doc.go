// Package memory is the in-memory storage backend: the default for tests and for programs that
// embed the chat Service without a database.
//
// It imports storage and the leaf domain packages only.
//
// Concurrency: one sync.RWMutex guards all data. View holds it shared, Update exclusively, so
// writers are serialised and readers see only committed states. Every write of an Update is
// recorded in an undo journal; when the closure returns an error the journal is replayed
// backwards and the store is exactly as before. A write of a string that
// storage.ValidString refuses makes the transaction fail with storage.ErrInvalidString when
// its closure returns (strings.go), rolled back, as the SQL backend refuses the statement. Records are copied on the way in and out, so a
// caller never shares memory with the store. Clone copies a store's committed data into an
// independent store (test fixtures build an organization once and clone it per test): a new
// field of data needs a line in clone.go, and TestCloneCopiesEveryField names any it lacks.
//
// Messages are indexed as a database would index them: sorted id lists of every message, of
// each channel (channel_index.go), topic, sender, direct conversation and of the messages each
// user has a row for (message_index.go), written with the messages through the journal. A
// query reads the smallest list that holds every message it can match and walks it from the
// end of its id range (messages_query.go), so a page of a narrow costs what SQLite's costs,
// whatever the history holds; TestMessageIndexesFollowWrites checks the lists and the
// answers against scans after random writes and rollbacks.
//
// A channel message stored with CreateForSubscribers has implicit rows (storage/receivers.go):
// no row per recipient, but each (user, channel)'s receiving intervals, opened and closed where
// the subscriber counts move, and read mark (receivers.go). A user's received messages are
// their list of explicit rows merged with the spans of the channels' lists of implicit-rows
// messages their intervals hold (receivers_view.go); reads of rows move the marks forward and
// drop the explicit rows equal to implicit ones (receivers_write.go).
package memory
