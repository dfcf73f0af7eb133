package files

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/teamchat/chat/blobs"
	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/uploads"
)

// TemporaryURLLifetime is how long a URL from GetFileTemporaryURL works (Zulip's 60 seconds).
const TemporaryURLLifetime = 60 * time.Second

// GetUploadedFileParams name an uploaded file by its path id ({realm_id}/..., as in its URL,
// unescaped), or one of its thumbnails.
type GetUploadedFileParams struct {
	PathID string
	// Thumbnail names one of uploads.ThumbnailFormats to read instead of the file ("" for
	// the file itself).
	Thumbnail string
}

// UploadedFile is an open uploaded file (or thumbnail): its bytes, seekable for range
// requests, and how to serve them. The caller closes it.
type UploadedFile struct {
	blobs.Object
	// Name is the file's name, for Content-Disposition.
	Name        string
	ContentType string
	// Inline says that browsers may show the file (uploads.ServedInline); anything else is
	// served as a download.
	Inline bool
}

// GetUploadedFile opens an uploaded file for a user who may read it: its owner, and whoever
// may read a message that links it (recipients; subscribers of a channel with shared
// history; members of a public channel). Others get 403, unknown files 404.
func (s *Service) GetUploadedFile(ctx context.Context, actor engine.Actor, p GetUploadedFileParams) (UploadedFile, error) {
	a, err := s.readAttachment(ctx, actor, p.PathID)
	if err != nil {
		return UploadedFile{}, err
	}
	return s.openAttachment(ctx, a, p.Thumbnail)
}

// readAttachment reads the attachment of a path id for an actor who may read it (see
// readableAttachment); without a blob store there are no files.
func (s *Service) readAttachment(ctx context.Context, actor engine.Actor, pathID string) (uploads.Attachment, error) {
	if s.cfg.Blobs == nil {
		return uploads.Attachment{}, errFileNotFound
	}
	var a uploads.Attachment
	err := s.eng.Read(ctx, actor, engine.SignedIn, func(o *engine.ReadOp) error {
		var err error
		a, err = readableAttachment(o, pathID)
		return err
	})
	return a, err
}

// readableAttachment loads the attachment of a path id if the actor may read it.
func readableAttachment(o *engine.ReadOp, pathID string) (uploads.Attachment, error) {
	tx, me, w := o.Tx, o.Me, o.World()
	if !uploads.ValidPathID(pathID) {
		return uploads.Attachment{}, errFileNotFound
	}
	a, err := tx.Attachments().GetByPath(pathID)
	if err != nil {
		return uploads.Attachment{}, notFoundAs(err, errFileNotFound)
	}
	ok, err := mayReadAttachment(w, tx.Attachments(), tx.Messages(), me, a)
	if err != nil {
		return uploads.Attachment{}, err
	}
	if !ok {
		return uploads.Attachment{}, errFileForbidden
	}
	return a, nil
}

// openAttachment opens the bytes of a or of its thumbnail.
func (s *Service) openAttachment(ctx context.Context, a uploads.Attachment, thumbnail string) (UploadedFile, error) {
	key, ct, name := uploads.BlobKey(a.PathID), a.ContentType, a.Name
	if thumbnail != "" {
		if !a.Thumbnailed || !slices.ContainsFunc(uploads.ThumbnailFormats, func(f uploads.ThumbnailFormat) bool { return f.Name == thumbnail }) {
			return UploadedFile{}, errFileNotFound
		}
		key, ct, name = uploads.ThumbnailKey(a.PathID, thumbnail), "image/jpeg", thumbnail
	}
	o, err := s.cfg.Blobs.Open(ctx, key)
	if errors.Is(err, blobs.ErrNotFound) {
		return UploadedFile{}, errFileNotFound
	}
	if err != nil {
		return UploadedFile{}, engine.StorageError(s.log, err)
	}
	return UploadedFile{Object: o, Name: name, ContentType: ct, Inline: uploads.ServedInline(ct)}, nil
}

// GetFileTemporaryURLParams are the parameters of GET /user_uploads/{realm_id_str}/{filename}
// (the API form): the file's path id.
type GetFileTemporaryURLParams struct {
	PathID string
}

// GetFileTemporaryURLResult is a URL that serves the file without authentication for
// TemporaryURLLifetime.
type GetFileTemporaryURLResult struct {
	URL string `json:"url"`
}

// GetFileTemporaryURL gives a user who may read an uploaded file a short-lived URL of it
// (/user_uploads/temporary/{token}/{filename}) that needs no credentials.
func (s *Service) GetFileTemporaryURL(ctx context.Context, actor engine.Actor, p GetFileTemporaryURLParams) (GetFileTemporaryURLResult, error) {
	a, err := s.readAttachment(ctx, actor, p.PathID)
	if err != nil {
		return GetFileTemporaryURLResult{}, err
	}
	key, err := s.uploadURLKey(ctx)
	if err != nil {
		return GetFileTemporaryURLResult{}, err
	}
	expires := s.now().Add(TemporaryURLLifetime).Unix()
	payload := strconv.FormatInt(expires, 10) + ":" + a.PathID
	token := base64.RawURLEncoding.EncodeToString([]byte(payload)) + "." + base64.RawURLEncoding.EncodeToString(signUpload(key, payload))
	return GetFileTemporaryURLResult{URL: "/user_uploads/temporary/" + token + "/" + url.PathEscape(a.Name)}, nil
}

func signUpload(key []byte, payload string) []byte {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(payload))
	return m.Sum(nil)[:20]
}

// GetUploadedFileByTokenParams name a file through a temporary URL: its token and the file
// name that follows it.
type GetUploadedFileByTokenParams struct {
	Token    string
	Filename string
}

var (
	errInvalidToken    = engine.BadRequest("Invalid token")
	errInvalidFilename = engine.BadRequest("Invalid filename")
)

// GetUploadedFileByToken opens the file of a temporary URL while the URL is valid. It needs
// no credentials: the token is the permission.
func (s *Service) GetUploadedFileByToken(ctx context.Context, p GetUploadedFileByTokenParams) (UploadedFile, error) {
	if s.cfg.Blobs == nil || len(p.Token) > 4096 {
		return UploadedFile{}, errInvalidToken
	}
	enc, sig, ok := strings.Cut(p.Token, ".")
	raw, err1 := base64.RawURLEncoding.DecodeString(enc)
	mac, err2 := base64.RawURLEncoding.DecodeString(sig)
	if !ok || err1 != nil || err2 != nil {
		return UploadedFile{}, errInvalidToken
	}
	key, err := s.uploadURLKey(ctx)
	if err != nil {
		return UploadedFile{}, err
	}
	payload := string(raw)
	expiry, pathID, ok := strings.Cut(payload, ":")
	exp, err := strconv.ParseInt(expiry, 10, 64)
	if !ok || err != nil || !hmac.Equal(mac, signUpload(key, payload)) || s.now().Unix() > exp {
		return UploadedFile{}, errInvalidToken
	}
	if pathID[strings.LastIndex(pathID, "/")+1:] != p.Filename {
		return UploadedFile{}, errInvalidFilename
	}
	var a uploads.Attachment
	err = s.eng.Read(ctx, engine.Actor{}, engine.NoActor, func(o *engine.ReadOp) error {
		tx := o.Tx
		var err error
		a, err = tx.Attachments().GetByPath(pathID)
		return notFoundAs(err, errFileNotFound)
	})
	if err != nil && !errors.Is(err, errFileNotFound) || a.ID == 0 {
		return UploadedFile{}, errFileNotFound
	}
	return s.openAttachment(ctx, a, "")
}

// uploadKeyCache keeps the secret of temporary URLs once read from the store, where it is
// made on first use (so that every process sharing the store signs alike).
type uploadKeyCache struct {
	mu  sync.Mutex
	key []byte
}

// uploadURLKey returns the secret that signs temporary URLs, creating it on first use.
func (s *Service) uploadURLKey(ctx context.Context) ([]byte, error) {
	c := &s.uploadKey
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.key != nil {
		return bytes.Clone(c.key), nil
	}
	var key []byte
	err := s.eng.Read(ctx, engine.Actor{}, engine.NoActor, func(o *engine.ReadOp) error {
		tx := o.Tx
		var err error
		key, err = tx.Attachments().URLKey()
		if isNotFound(err) {
			return nil
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	if key == nil {
		fresh := make([]byte, 32)
		if _, err := rand.Read(fresh); err != nil {
			return nil, engine.InternalError(err)
		}
		err = s.eng.Mutate(ctx, engine.Actor{}, engine.NoActor, func(o *engine.WriteOp) error {
			tx := o.Tx
			existing, err := tx.Attachments().URLKey()
			if err == nil {
				key = existing // another process was first
				return nil
			}
			if !isNotFound(err) {
				return err
			}
			key = fresh
			return tx.Attachments().PutURLKey(fresh)
		})
		if err != nil {
			return nil, err
		}
	}
	c.key = key
	return bytes.Clone(key), nil
}
