package chat

import (
	"context"

	"github.com/teamchat/chat/files"
)

// Uploads, attachments, thumbnails and avatars are the files area's operations (package files);
// the Service delegates to it.

// The types of the files area, defined in package files: these aliases keep embedders' code
// compiling.
type (
	RemoveAttachmentResult       = files.RemoveAttachmentResult
	UploadFileParams             = files.UploadFileParams
	UploadFileResult             = files.UploadFileResult
	UploadLimits                 = files.UploadLimits
	AttachmentMessage            = files.AttachmentMessage
	AttachmentRecord             = files.AttachmentRecord
	AttachmentEvent              = files.AttachmentEvent
	GetAttachmentsParams         = files.GetAttachmentsParams
	GetAttachmentsResult         = files.GetAttachmentsResult
	RemoveAttachmentParams       = files.RemoveAttachmentParams
	UploadAvatarParams           = files.UploadAvatarParams
	AvatarResult                 = files.AvatarResult
	GetAvatarImageParams         = files.GetAvatarImageParams
	GetAvatarURLParams           = files.GetAvatarURLParams
	GetCustomEmojiImageParams    = files.GetCustomEmojiImageParams
	GetUploadedFileParams        = files.GetUploadedFileParams
	UploadedFile                 = files.UploadedFile
	GetFileTemporaryURLParams    = files.GetFileTemporaryURLParams
	GetFileTemporaryURLResult    = files.GetFileTemporaryURLResult
	GetUploadedFileByTokenParams = files.GetUploadedFileByTokenParams
	SweepUploadsParams           = files.SweepUploadsParams
	SweepUploadsResult           = files.SweepUploadsResult
)

// MaxUploadBytes is the largest file POST /user_uploads accepts, in bytes.
func (s *Service) MaxUploadBytes() int64 {
	return s.files.MaxUploadBytes()
}

// UploadFile stores a file for the actor and returns its URL. Only the actor can read it
// until a message links it. The bytes go to the blob store first, streaming (memory does not
// grow with the file); the attachment's row is written after, in one transaction, so that an
// interrupted upload leaves at most bytes without a row, which SweepUploads removes. A
// refused upload (too large, empty, over the organization's quota) stores nothing. Images
// get thumbnails (uploads.ThumbnailFormats). The actor gets an attachment add event.
func (s *Service) UploadFile(ctx context.Context, actor Actor, p UploadFileParams) (UploadFileResult, error) {
	return s.files.UploadFile(ctx, actor, p)
}

// GetAttachments lists the files the actor uploaded, each with the messages that link it.
func (s *Service) GetAttachments(ctx context.Context, actor Actor, p GetAttachmentsParams) (GetAttachmentsResult, error) {
	return s.files.GetAttachments(ctx, actor, p)
}

// RemoveAttachment deletes a file the actor uploaded: its row and links in one transaction,
// its bytes after the commit. Messages that linked it keep their content. The actor gets an
// attachment remove event.
func (s *Service) RemoveAttachment(ctx context.Context, actor Actor, p RemoveAttachmentParams) (RemoveAttachmentResult, error) {
	return s.files.RemoveAttachment(ctx, actor, p)
}

// UploadAvatar makes an uploaded image the actor's avatar: it is cropped to a square and
// stored at uploads.AvatarSize and uploads.MediumAvatarSize as PNG, then avatar_source
// becomes "U" and avatar_version grows by one; everyone gets a realm_user update.
func (s *Service) UploadAvatar(ctx context.Context, actor Actor, p UploadAvatarParams) (AvatarResult, error) {
	return s.files.UploadAvatar(ctx, actor, p)
}

// DeleteAvatar returns the actor to the Gravatar avatar (avatar_version grows by one) and
// removes the uploaded images.
func (s *Service) DeleteAvatar(ctx context.Context, actor Actor) (AvatarResult, error) {
	return s.files.DeleteAvatar(ctx, actor)
}

// GetAvatarImage opens an uploaded avatar image. Avatars are public, as in Zulip: no
// credentials are needed.
func (s *Service) GetAvatarImage(ctx context.Context, p GetAvatarImageParams) (UploadedFile, error) {
	return s.files.GetAvatarImage(ctx, p)
}

// GetAvatarURL is the URL /avatar/{email_or_id} redirects to: the user's avatar (medium
// size with Medium). An unknown user gets 404.
func (s *Service) GetAvatarURL(ctx context.Context, actor Actor, p GetAvatarURLParams) (string, error) {
	return s.files.GetAvatarURL(ctx, actor, p)
}

// GetCustomEmojiImage opens the image of a custom emoji, with the content type its extension
// says. Emoji images are public, as in Zulip (clients load them without credentials); an
// unknown path is 404.
func (s *Service) GetCustomEmojiImage(ctx context.Context, p GetCustomEmojiImageParams) (UploadedFile, error) {
	return s.files.GetCustomEmojiImage(ctx, p)
}

// GetUploadedFile opens an uploaded file for a user who may read it: its owner, and whoever
// may read a message that links it (recipients; subscribers of a channel with shared
// history; members of a public channel). Others get 403, unknown files 404.
func (s *Service) GetUploadedFile(ctx context.Context, actor Actor, p GetUploadedFileParams) (UploadedFile, error) {
	return s.files.GetUploadedFile(ctx, actor, p)
}

// GetFileTemporaryURL gives a user who may read an uploaded file a short-lived URL of it
// (/user_uploads/temporary/{token}/{filename}) that needs no credentials.
func (s *Service) GetFileTemporaryURL(ctx context.Context, actor Actor, p GetFileTemporaryURLParams) (GetFileTemporaryURLResult, error) {
	return s.files.GetFileTemporaryURL(ctx, actor, p)
}

// GetUploadedFileByToken opens the file of a temporary URL while the URL is valid. It needs
// no credentials: the token is the permission.
func (s *Service) GetUploadedFileByToken(ctx context.Context, p GetUploadedFileByTokenParams) (UploadedFile, error) {
	return s.files.GetUploadedFileByToken(ctx, p)
}

// SweepUploads removes the bytes no attachment references: files whose upload was
// interrupted between the write of the bytes and the commit of the row (a killed process),
// and files whose deletion after a commit did not finish. Only objects older than the grace
// period are considered. It changes no row and sends no event; run it periodically (the
// example server does).
func (s *Service) SweepUploads(ctx context.Context, p SweepUploadsParams) (SweepUploadsResult, error) {
	return s.files.SweepUploads(ctx, p)
}

// ErrNoFile is the refusal of an upload request without a file (files.ErrNoFile).
func ErrNoFile() *Error { return files.ErrNoFile() }

// ErrOneFileAtATime is the refusal of an upload request with several files.
func ErrOneFileAtATime() *Error { return files.ErrOneFileAtATime() }

// ErrOneAvatar is the refusal of an avatar request without exactly one file.
func ErrOneAvatar() *Error { return files.ErrOneAvatar() }

// TemporaryURLLifetime and DefaultUploadSweepGrace are files.TemporaryURLLifetime and
// files.DefaultUploadSweepGrace.
const (
	TemporaryURLLifetime    = files.TemporaryURLLifetime
	DefaultUploadSweepGrace = files.DefaultUploadSweepGrace
)
