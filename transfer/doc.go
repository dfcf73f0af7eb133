// Package transfer moves an organization in and out of a store: consistent backups of a live
// SQLite store with its uploads (WriteBackup, RestoreBackup), and Zulip's export format
// (Export writes it; ImportDir and Import read it into an empty store, as the Slack and
// Mattermost converters' output is read too).
//
// It reads and writes the store through package storage only (never through the Service's
// operations, never through a backend), and the bytes of uploads, avatars and emoji through
// package blobs. Imports: storage, blobs and the leaf domain packages.
//
// Memory stays bounded whatever the organization's size: messages and their per-user rows
// are read, written and imported in batches (ExportBatch messages per transaction and per
// messages-NNNNNN.json file), blobs are streamed, and no step holds more than one batch.
//
// Transactions: a backup's database copy is one read transaction of SQLite (VACUUM INTO); an
// export reads the organization's small tables in one View and the messages in one View per
// batch, by ascending id up to the largest id seen at the start; an import writes each batch
// in one Update, into a store it first checks to be empty, and on any failure removes what it
// had written (Import's cleanup), so that a refused archive leaves the store empty.
//
// Long runs report progress through a Progress: a line rewritten in place on a terminal, a
// log line every few seconds otherwise.
package transfer
