// Package files is the files area of the chat engine: uploaded files and their attachments to
// messages, thumbnails, avatars, and the images served under /user_avatars/ (Zulip's
// /user_uploads, /attachments, /users/me/avatar, /avatar and /user_avatars).
//
// Each operation is a method of Service, written the one way the engine describes
// (internal/engine): check the form of the parameters, then one engine Read or Mutate with the
// operation's gate, then shape the result. The package owns its Params and Result types;
// package chat aliases them and its Service delegates to this one. The conversations call
// LinkAttachments and UploadPreviews when a message is sent or edited, and
// ReleaseAttachments and DeleteAttachmentBlobs when messages are deleted.
//
// Files, by aspect: UploadFile (uploads.go); GetAttachments, RemoveAttachment, the messages
// linking a file (uploads_attachments.go); GetUploadedFile, GetFileTemporaryURL,
// GetUploadedFileByToken (uploads_serve.go); thumbnails (uploads_images.go); SweepUploads
// (uploads_sweep.go); UploadAvatar, DeleteAvatar, GetAvatarImage, GetAvatarURL,
// GetCustomEmojiImage (uploads_avatars.go).
//
// A new operation goes into the file of its aspect, or a new one: it belongs here when it
// deals in stored bytes (blobs) and their rows.
//
// Imports: people and org (avatars and custom emoji), internal/engine, internal/world,
// storage, blobs and the leaves; never package chat, and no area above it.
package files
