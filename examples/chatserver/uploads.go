package main

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"time"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/blobs"
	"github.com/teamchat/chat/blobs/disk"
	blobmemory "github.com/teamchat/chat/blobs/memory"
	"github.com/teamchat/chat/blobs/s3"
)

// uploadFlags choose where uploaded files go and their limits.
type uploadFlags struct {
	Uploads             string        `help:"Where uploaded files go: a directory, or s3://ACCESS:SECRET@HOST:PORT/BUCKET[/PREFIX]?secure=false (an S3-compatible store, for several processes). Default: a directory beside the SQLite file (PATH-uploads), ./chat-uploads with PostgreSQL, memory with --store memory."`
	MaxUploadMiB        int           `help:"Largest uploaded file, in MiB (max_file_upload_size_mib)." name:"max-upload-mib" default:"25"`
	UploadQuotaMiB      int           `help:"The organization's upload quota, in MiB (0: none)." name:"upload-quota-mib" default:"0"`
	UploadSweepInterval time.Duration `help:"How often files that no attachment references (interrupted uploads) are removed; 0 disables." name:"upload-sweep-interval" default:"10m"`
}

// openBlobs opens the blob store of --uploads, or the default that goes with --store.
func (f uploadFlags) openBlobs(ctx context.Context, store string) (blobs.Store, error) {
	spec := f.Uploads
	if spec == "" {
		switch {
		case store == "memory":
			return blobmemory.New(), nil
		case strings.HasPrefix(store, "postgres://") || strings.HasPrefix(store, "postgresql://"):
			spec = "./chat-uploads"
		default:
			path, _, _ := strings.Cut(strings.TrimPrefix(store, "sqlite:"), "?")
			spec = strings.TrimSuffix(path, filepath.Ext(path)) + "-uploads"
		}
	}
	if strings.HasPrefix(spec, "s3://") {
		cfg, err := s3.ParseURL(spec)
		if err != nil {
			return nil, fmt.Errorf("--uploads: %w", err)
		}
		st, err := s3.Open(ctx, cfg)
		if err != nil {
			return nil, fmt.Errorf("--uploads: %w", err)
		}
		return st, nil
	}
	st, err := disk.Open(spec)
	if err != nil {
		return nil, fmt.Errorf("--uploads: %w", err)
	}
	return st, nil
}

// sweepUploads runs the Service's clean-up of unreferenced uploads every interval (and once
// at start) until ctx ends.
func sweepUploads(ctx context.Context, svc *chat.Service, every time.Duration, logger *slog.Logger) {
	if every <= 0 {
		return
	}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		res, err := svc.SweepUploads(ctx, chat.SweepUploadsParams{})
		if err != nil && ctx.Err() == nil {
			logger.Warn("sweeping uploads", "err", err)
		} else if res.Orphans+res.Partial > 0 {
			logger.Info("swept uploads", "orphans", res.Orphans, "partial", res.Partial)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
