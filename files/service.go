package files

import (
	"log/slog"
	"time"

	"github.com/teamchat/chat/blobs"
	"github.com/teamchat/chat/images"
	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/org"
)

// Config is what the files area needs to know of the server.
type Config struct {
	// Now is the clock outside operations (the sweep's age of unreferenced uploads).
	Now func() time.Time
	// Log receives the area's logs (storage failures, files removed by the sweep).
	Log *slog.Logger
	// Blobs stores uploaded files, their thumbnails and avatars; nil refuses uploads.
	Blobs blobs.Store
	// EmojiImages stores the images of custom emoji (served under /user_avatars/).
	EmojiImages org.EmojiImageStore
	// MaxFileUploadSizeMiB bounds one uploaded file; UploadQuotaMiB bounds the
	// organization's files together (0: no quota).
	MaxFileUploadSizeMiB int
	UploadQuotaMiB       int
	// FileUploaded, when set, is called once per stored upload with its size in bytes.
	FileUploaded func(bytes int64)
	// Images decodes and resizes thumbnails and avatars within the Service's memory bounds.
	Images *images.Processor
}

// Service is the files area's operations. It is safe for concurrent use.
type Service struct {
	eng *engine.Engine
	cfg Config
	now func() time.Time
	log *slog.Logger
	// images is Config.Images.
	images *images.Processor
	// uploadKey caches the secret of temporary upload URLs.
	uploadKey uploadKeyCache
}

// New returns the files area's operations, run by eng.
func New(eng *engine.Engine, cfg Config) *Service {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	return &Service{eng: eng, cfg: cfg, now: cfg.Now, log: cfg.Log, images: cfg.Images}
}

// monitorUpload reports a stored upload of bytes to Config.FileUploaded.
func (s *Service) monitorUpload(bytes int64) {
	if s.cfg.FileUploaded != nil {
		s.cfg.FileUploaded(bytes)
	}
}
