// Package blobs is the contract between the chat Service and the stores of uploaded bytes
// (files, thumbnails, avatars, emoji images): a small Store interface, the ErrNotFound
// sentinel and the rules of keys. Rows describing the bytes (attachments, the messages that
// link them) live in storage; only the bytes live here.
//
// Backends: blobs/disk (the local file system, the default beside the SQLite file),
// blobs/memory (tests and the memory store) and blobs/s3 (an S3-compatible object store, for
// several processes). blobs/blobstest is the conformance suite every backend passes.
//
// It imports the standard library only.
//
// Contract, pinned by blobs/blobstest:
//   - Put streams its reader to the store and the object appears whole or not at all: a Put
//     whose reader fails, or whose context is cancelled, leaves nothing under the key (and
//     the object an earlier Put left there, if any, unchanged). Memory use does not grow with
//     the object's size (the memory backend excepted).
//   - Open returns a seekable reader (for HTTP range requests) and the object's size;
//     ErrNotFound (wrapped) for a missing object.
//   - Delete of a missing object is no error.
//   - List visits the objects under a prefix in ascending key order.
//   - Keys are checked by CheckKey before any backend sees them.
//   - Every method is safe for concurrent use.
package blobs
