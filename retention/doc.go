// Package retention is the area of message retention (Zulip's zerver/lib/retention.py): a
// periodic pass removes the messages older than their channel's message_retention_days (the
// organization's when the channel inherits it; direct messages follow the organization's;
// -1 keeps everything), archives them so that RestoreArchive can bring them back, and purges
// the archives once the grace period (Zulip's ARCHIVED_DATA_VACUUMING_DELAY_DAYS) is over.
//
// Removal is message deletion without its events, as in Zulip: the messages, their users'
// rows (and so the unread counts), reactions and search index entries go in one transaction
// per batch, their attachment links are released through package files (attachments no
// message links any more lose their rows), and the batch's archive (storage.Archive) keeps it
// all. The uploaded bytes stay until the purge, which frees those no attachment refers to.
// Batches are claimed with storage.UpdateReadCommitted, as the scheduler's, so that several
// processes on one PostgreSQL database never archive a message twice.
//
// Files:
//
//	service.go   Config, Service, New, the background pass (Start, Stop)
//	archive.go   ArchiveMessages: the pass, its batches and the purge
//	restore.go   RestoreArchive
//
// A new operation on archived messages goes into archive.go or restore.go, beside the pass it
// works with.
//
// Imports: files, the kernel (internal/engine, internal/world), storage and the leaves.
package retention
