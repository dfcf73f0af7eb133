package files

import (
	"context"
	"strings"
	"time"

	"github.com/teamchat/chat/blobs"
	"github.com/teamchat/chat/internal/engine"
)

// DefaultUploadSweepGrace is how old bytes without an attachment row must be before
// SweepUploads removes them: older than any upload still under way.
const DefaultUploadSweepGrace = time.Hour

// SweepUploadsParams configure one clean-up pass.
type SweepUploadsParams struct {
	// Grace spares objects younger than this (default DefaultUploadSweepGrace), so that
	// uploads under way, whose row is not written yet, are left alone.
	Grace time.Duration
}

// SweepUploadsResult counts what a pass removed.
type SweepUploadsResult struct {
	// Orphans are uploaded files and thumbnails that no attachment row references.
	Orphans int
	// Partial are remains of interrupted writes (blobs.PartialSweeper backends).
	Partial int
}

// sweepBatch is how many keys one pass checks against the store at a time.
const sweepBatch = 500

// SweepUploads removes the bytes no attachment references: files whose upload was
// interrupted between the write of the bytes and the commit of the row (a killed process),
// and files whose deletion after a commit did not finish. Only objects older than the grace
// period are considered. It changes no row and sends no event; run it periodically (the
// example server does).
func (s *Service) SweepUploads(ctx context.Context, p SweepUploadsParams) (SweepUploadsResult, error) {
	var res SweepUploadsResult
	if s.cfg.Blobs == nil {
		return res, nil
	}
	if p.Grace <= 0 {
		p.Grace = DefaultUploadSweepGrace
	}
	cutoff := s.now().Add(-p.Grace)
	for _, prefix := range []string{"uploads/", "thumbnails/"} {
		n, err := s.sweepPrefix(ctx, prefix, cutoff)
		res.Orphans += n
		if err != nil {
			return res, err
		}
	}
	if ps, ok := s.cfg.Blobs.(blobs.PartialSweeper); ok {
		n, err := ps.SweepPartial(ctx, cutoff)
		res.Partial = n
		if err != nil {
			return res, engine.StorageError(s.log, err)
		}
	}
	return res, nil
}

// sweepPrefix removes the objects under prefix older than cutoff whose path id has no row.
func (s *Service) sweepPrefix(ctx context.Context, prefix string, cutoff time.Time) (int, error) {
	removed := 0
	var batch []blobs.Info
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		paths := make([]string, len(batch))
		for i, info := range batch {
			paths[i] = sweptPathID(prefix, info.Key)
		}
		known := map[string]bool{}
		err := s.eng.Read(ctx, engine.Actor{}, engine.NoActor, func(o *engine.ReadOp) error {
			tx := o.Tx
			found, err := tx.Attachments().GetByPaths(paths)
			for _, a := range found {
				known[a.PathID] = true
			}
			return err
		})
		if err != nil {
			return err
		}
		for i, info := range batch {
			if known[paths[i]] {
				continue
			}
			if err := s.cfg.Blobs.Delete(ctx, info.Key); err != nil {
				return engine.StorageError(s.log, err)
			}
			s.log.Info("removed an unreferenced upload", "key", info.Key, "size", info.Size)
			removed++
		}
		batch = batch[:0]
		return nil
	}
	err := s.cfg.Blobs.List(ctx, prefix, func(info blobs.Info) error {
		if !info.ModTime.Before(cutoff) {
			return nil
		}
		batch = append(batch, info)
		if len(batch) >= sweepBatch {
			return flush()
		}
		return nil
	})
	if err == nil {
		err = flush()
	}
	if err != nil {
		if _, ok := err.(*engine.Error); ok {
			return removed, err
		}
		return removed, engine.StorageError(s.log, err)
	}
	return removed, nil
}

// sweptPathID is the path id an object under prefix belongs to (see uploads.BlobKey and
// uploads.ThumbnailKey): the key without the prefix,
// and for a thumbnail without its format.
func sweptPathID(prefix, key string) string {
	p := strings.TrimPrefix(key, prefix)
	if prefix == "thumbnails/" {
		if i := strings.LastIndex(p, "/"); i >= 0 {
			p = p[:i]
		}
	}
	return p
}
