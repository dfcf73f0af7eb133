// Package uploads holds the records and pure rules of uploaded files: the Attachment record
// and the Link between an attachment and a message that references it, file-name
// sanitizing, path ids, the upload links found in a message's content, which content types
// are shown inline or thumbnailed, and the size limits.
//
// Link table (for readers such as search's has:attachment and has:image): one Link per
// (attachment, message) pair where the message's content links the attachment's URL
// (/user_uploads/{path_id}) and its sender could read the attachment when the link was
// written. storage's AttachmentReader.MessageLinks lists them by message;
// Attachment.IsImage says whether the linked file is an image.
//
// It imports users, messages and the standard library (and golang.org/x/text for Unicode
// normalization).
package uploads
