// Package transfer moves an organization in and out of a store: consistent backups of a live
// SQLite store with its uploads (WriteBackup, RestoreBackup), and Zulip's export format
// (Export writes it; ImportDir and Import read it into an empty store, as the Slack and
// Mattermost converters' output is read too).
//
// It is also the data-export area of the Service (Service: ExportRealm, GetRealmExports,
// DeleteRealmExport, GetRealmExportConsents, GetRealmExportFile, Zulip's /export/realm): an
// export requested through the API is a storage.Export record, made in the background into
// the blob store and announced to administrators with realm_export events; a change of a
// user's allow_private_data_export sends realm_export_consent (ConsentChanged).
//
// Exports and imports read and write the store through package storage only (never through
// the Service's operations, never through a backend), and the bytes of uploads, avatars and
// emoji through package blobs. Imports: internal/engine (for the Service's operations),
// storage, blobs, markdown (rendering messages an export left unrendered), transfer/zulipdir
// (the rows of Zulip's export format, which the export writes and the import reads, as the
// converters write them) and the leaf domain packages.
//
// An export's memory stays bounded whatever the organization's size: messages and their
// per-user rows are read and written in batches (DefaultExportBatch messages per read
// transaction and per messages-NNNNNN.json file), files are streamed, and no step holds more
// than one batch.
//
// Ids: an import keeps the users' ids (storage ReserveIDs), so that the user ids in rendered
// mentions stay right; the other rows are created in the order of their old ids, which on an
// empty store gives them their old ids too when the export had no gaps, and every reference
// is remapped either way.
//
// Transactions: a backup's database copy is one read transaction of SQLite (VACUUM INTO); an
// export reads the organization's small tables in one View and the messages in one View per
// batch, by ascending id (messages sent during an export may or may not be in it; each batch
// is consistent). An import into a store it first checks to be empty writes the organization
// (everything but the messages) in one Update, which also reads every message file once to
// check it without writing it, so that a refused export leaves the store empty (the files it
// had put into the blob store are removed again); then each message file in an Update of its
// own, and the scheduled messages last. Its memory holds one message file, the organization's
// id maps and the message ids' map as runs of consecutive ids (idRuns): it does not grow with
// the number of messages. A failure after the first Update is ErrIncomplete.
//
// Long runs report progress through a Progress: a line rewritten in place on a terminal, a
// log line every few seconds otherwise.
//
// A new operation on /export/realm goes into realmexports.go or service_exports.go; a change of
// the formats into export*.go, import*.go or backup.go, beside the records of its kind
// (records.go).
package transfer
