package files

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"io"
	"net/http"

	"github.com/teamchat/chat/blobs"
	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/uploads"
	"github.com/teamchat/chat/users"
)

// UploadFileParams are the parameters of POST /user_uploads: the file's name as the client
// gave it, the content type it declared, and its bytes, read once, as they arrive.
type UploadFileParams struct {
	Filename    string
	ContentType string
	// Content is read to its end (or to the first byte past the size limit). An error it
	// returns aborts the upload; a *engine.Error is passed through to the caller.
	Content io.Reader
}

// UploadFileResult is the new file's URL, under Zulip's two names for it, and the name it was
// stored as.
type UploadFileResult struct {
	URI      string `json:"uri"`
	URL      string `json:"url"`
	Filename string `json:"filename"`
}

// Errors of uploads, as Zulip words them.
var (
	errNoFile          = engine.BadRequest("You must specify a file to upload")
	errOneFileAtATime  = engine.BadRequest("You may only upload one file at a time")
	errEmptyFile       = engine.BadRequest("Uploaded file is empty")
	errUploadQuota     = &engine.Error{Code: engine.CodeRealmUploadQuota, Msg: "Upload would exceed your organization's upload quota."}
	errUploadsDisabled = &engine.Error{Code: engine.CodeBadRequest, Msg: "File uploads are not enabled on this server"}
)

// ErrNoFile is the refusal of an upload request without a file.
func ErrNoFile() *engine.Error { return errNoFile }

// ErrOneFileAtATime is the refusal of an upload request with several files.
func ErrOneFileAtATime() *engine.Error { return errOneFileAtATime }

func errFileTooLarge(mib int) *engine.Error {
	return engine.BadRequest("File is larger than this server's configured maximum upload size (%d MiB).", mib)
}

// UploadLimits are register's keys of upload limits (in the realm section).
type UploadLimits struct {
	MaxFileUploadSizeMiB int `json:"max_file_upload_size_mib"`
	// RealmUploadQuotaMiB is null without a quota.
	RealmUploadQuotaMiB    *int                      `json:"realm_upload_quota_mib"`
	ServerThumbnailFormats []uploads.ThumbnailFormat `json:"server_thumbnail_formats"`
	MaxAvatarFileSizeMiB   int                       `json:"max_avatar_file_size_mib"`
	MaxIconFileSizeMiB     int                       `json:"max_icon_file_size_mib"`
	MaxLogoFileSizeMiB     int                       `json:"max_logo_file_size_mib"`
}

// UploadLimits are the limits the Service applies, as register shows them.
func (s *Service) UploadLimits() UploadLimits {
	l := UploadLimits{
		MaxFileUploadSizeMiB: s.cfg.MaxFileUploadSizeMiB, ServerThumbnailFormats: uploads.ThumbnailFormats,
		MaxAvatarFileSizeMiB: uploads.MaxAvatarFileSizeMiB, MaxIconFileSizeMiB: uploads.MaxIconFileSizeMiB,
		MaxLogoFileSizeMiB: uploads.MaxLogoFileSizeMiB,
	}
	if s.cfg.UploadQuotaMiB > 0 {
		q := s.cfg.UploadQuotaMiB
		l.RealmUploadQuotaMiB = &q
	}
	return l
}

// maxUploadBytes is the size limit of one upload.
func (s *Service) maxUploadBytes() int64 { return int64(s.cfg.MaxFileUploadSizeMiB) << 20 }

// MaxUploadBytes is the largest file POST /user_uploads accepts, in bytes.
func (s *Service) MaxUploadBytes() int64 { return s.maxUploadBytes() }

// UploadFile stores a file for the actor and returns its URL. Only the actor can read it
// until a message links it. The bytes go to the blob store first, streaming (memory does not
// grow with the file); the attachment's row is written after, in one transaction, so that an
// interrupted upload leaves at most bytes without a row, which SweepUploads removes. A
// refused upload (too large, empty, over the organization's quota) stores nothing. Images
// get thumbnails (uploads.ThumbnailFormats). The actor gets an attachment add event.
func (s *Service) UploadFile(ctx context.Context, actor engine.Actor, p UploadFileParams) (UploadFileResult, error) {
	return s.upload(ctx, actor, engine.SignedIn, actor.UserID, p)
}

// UploadFileFor is UploadFile as a trusted, server-side operation (the email gateway's
// attachments, as Zulip's email mirror uploads them): the file belongs to owner, a user or a
// system bot, with the same limits, quota and thumbnails.
func (s *Service) UploadFileFor(ctx context.Context, owner users.ID, p UploadFileParams) (UploadFileResult, error) {
	return s.upload(ctx, engine.Actor{}, engine.NoActor, owner, p)
}

// upload is UploadFile for the operations' actor and gate, the file belonging to owner.
func (s *Service) upload(ctx context.Context, actor engine.Actor, gate engine.Gate, owner users.ID, p UploadFileParams) (UploadFileResult, error) {
	if s.cfg.Blobs == nil {
		return UploadFileResult{}, errUploadsDisabled
	}
	if p.Content == nil {
		return UploadFileResult{}, errNoFile
	}
	err := s.eng.Read(ctx, actor, gate, func(o *engine.ReadOp) error {
		tx := o.Tx
		return s.checkQuota(tx.Attachments(), 0)
	})
	if err != nil {
		return UploadFileResult{}, err
	}
	name := uploads.SanitizeName(p.Filename)
	pathID, err := newPathID(name)
	if err != nil {
		return UploadFileResult{}, engine.InternalError(err)
	}
	a := uploads.Attachment{OwnerID: owner, PathID: pathID, Name: name, ContentType: uploads.ContentType(p.ContentType, name)}
	limited := &sizeLimit{r: p.Content, left: s.maxUploadBytes()}
	n, err := s.cfg.Blobs.Put(ctx, uploads.BlobKey(pathID), limited)
	if err != nil {
		if limited.over {
			return UploadFileResult{}, errFileTooLarge(s.cfg.MaxFileUploadSizeMiB)
		}
		var e *engine.Error
		if errors.As(err, &e) {
			return UploadFileResult{}, e
		}
		return UploadFileResult{}, engine.StorageError(s.log, err)
	}
	a.Size = n
	removeBlobs := func() { s.DeleteAttachmentBlobs(context.WithoutCancel(ctx), a) }
	if n == 0 {
		removeBlobs()
		return UploadFileResult{}, errEmptyFile
	}
	if uploads.Thumbnailable(a.ContentType) {
		a.Width, a.Height, a.Thumbnailed = s.makeThumbnails(ctx, a)
	}
	err = s.eng.Mutate(ctx, actor, gate, func(o *engine.WriteOp) error {
		tx, ev := o.Tx, o.Ev
		if err := s.checkQuota(tx.Attachments(), a.Size); err != nil {
			return err
		}
		a.CreateTime = o.Now.UnixMilli()
		id, err := tx.Attachments().Create(a)
		if err != nil {
			return err
		}
		a.ID = id
		return addAttachmentEvent(tx.Attachments(), tx.Messages(), ev, "add", a)
	})
	if err != nil {
		removeBlobs()
		return UploadFileResult{}, err
	}
	s.monitorUpload(a.Size)
	url := uploads.URL(pathID)
	return UploadFileResult{URI: url, URL: url, Filename: name}, nil
}

// checkQuota refuses an upload of size bytes that would take the organization's uploads
// past its quota (none without Options.UploadQuotaMiB).
func (s *Service) checkQuota(r storage.AttachmentReader, size int64) error {
	if s.cfg.UploadQuotaMiB <= 0 {
		return nil
	}
	used, err := r.TotalSize()
	if err != nil {
		return err
	}
	if used+size > int64(s.cfg.UploadQuotaMiB)<<20 || size == 0 && used >= int64(s.cfg.UploadQuotaMiB)<<20 {
		return errUploadQuota
	}
	return nil
}

// newPathID draws the random parts of a new upload's path id, as Zulip does: a shard of one
// byte and an 18-byte token.
func newPathID(name string) (string, error) {
	var b [19]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return uploads.NewPathID(b[0], base64.RawURLEncoding.EncodeToString(b[1:]), name), nil
}

// sizeLimit reads at most left bytes of r; one byte more fails the read and sets over.
type sizeLimit struct {
	r    io.Reader
	left int64
	over bool
}

var errOverLimit = errors.New("upload larger than the limit")

func (l *sizeLimit) Read(p []byte) (int, error) {
	if l.left < 0 {
		l.over = true
		return 0, errOverLimit
	}
	if int64(len(p)) > l.left+1 {
		p = p[:l.left+1]
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	if l.left < 0 {
		l.over = true
		return 0, errOverLimit
	}
	return n, err
}

// DeleteAttachmentBlobs removes an attachment's bytes and thumbnails, logging failures (what
// is left is removed by SweepUploads).
func (s *Service) DeleteAttachmentBlobs(ctx context.Context, a uploads.Attachment) {
	keys := []string{uploads.BlobKey(a.PathID)}
	for _, f := range uploads.ThumbnailFormats {
		keys = append(keys, uploads.ThumbnailKey(a.PathID, f.Name))
	}
	for _, k := range keys {
		if err := s.cfg.Blobs.Delete(ctx, k); err != nil && !errors.Is(err, blobs.ErrNotFound) {
			s.log.Warn("deleting an upload's bytes", "key", k, "err", err)
		}
	}
}

// errFileNotFound and errFileForbidden are the answers of a download of a file that does not
// exist and of one the caller may not read.
var (
	errFileNotFound  = &engine.Error{Code: engine.CodeNotFound, Status: http.StatusNotFound, Msg: "File not found."}
	errFileForbidden = &engine.Error{Code: engine.CodeUnauthorized, Status: http.StatusForbidden, Msg: "You are not authorized to view this file."}
)
