package retention

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/uploads"
)

// ArchiveMessagesParams are the parameters of ArchiveMessages (none).
type ArchiveMessagesParams struct{}

// ArchiveMessagesResult counts what one pass did.
type ArchiveMessagesResult struct {
	// Archived counts the messages removed into archives, Archives the archives made (one
	// per batch, ascending); Purged counts the archived messages purged and PurgedArchives
	// their archives.
	Archived       int
	Archives       []storage.ArchiveID
	Purged         int
	PurgedArchives int
}

// day is a retention day in seconds.
const day = 24 * 60 * 60

// ArchiveMessages runs one retention pass at the Service's clock's current time: it archives
// every message older than its retention period, in batches of Config.BatchSize each in its
// own transaction and followed by a pause as long as it took (so that sends keep about half
// of the store's write time), then purges the archives older than Config.GracePeriod. No event is sent
// (as in Zulip, clients learn of retention deletions when they reload). The background pass
// (Start) calls it; tests call it after moving their clock.
func (s *Service) ArchiveMessages(ctx context.Context, _ ArchiveMessagesParams) (ArchiveMessagesResult, error) {
	var res ArchiveMessagesResult
	policies, err := s.policies(ctx)
	if err != nil {
		return res, err
	}
	for _, q := range policies {
		for {
			start := time.Now()
			id, n, err := s.archiveBatch(ctx, q)
			if err != nil {
				s.monitor(res)
				return res, fmt.Errorf("retention: archiving: %w", err)
			}
			if n == 0 {
				break
			}
			res.Archived += n
			res.Archives = append(res.Archives, id)
			if n < q.Limit {
				break
			}
			// Leave the store to the sends for as long as the batch held it: without the
			// pause, on SQLite (one writer) a pass of many batches starves every send
			// (BENCHMARKS.md, "Message retention").
			if err := pause(ctx, time.Since(start)); err != nil {
				s.monitor(res)
				return res, err
			}
		}
	}
	err = s.purge(ctx, &res)
	s.monitor(res)
	if err != nil {
		return res, fmt.Errorf("retention: purging: %w", err)
	}
	return res, nil
}

func (s *Service) monitor(r ArchiveMessagesResult) {
	if s.cfg.Archived != nil && r.Archived > 0 {
		s.cfg.Archived(r.Archived)
	}
	if s.cfg.Purged != nil && r.Purged > 0 {
		s.cfg.Purged(r.Purged)
	}
}

// policies reads the retention settings and returns one query per retention period in
// force: the channels with that period, and the direct messages with the organization's.
func (s *Service) policies(ctx context.Context) ([]storage.ExpiredQuery, error) {
	var out []storage.ExpiredQuery
	err := s.eng.Read(ctx, engine.Actor{}, engine.NoActor, func(o *engine.ReadOp) error {
		w := o.World()
		now := o.Now.Unix()
		orgDays := int64(-1)
		realm := w.Org()
		if v, ok := realm.Value("message_retention_days").(int64); ok {
			orgDays = v
		}
		byDays := map[int64][]channels.ID{}
		for _, c := range w.AllChannels() {
			d := orgDays
			if c.MessageRetentionDays != nil {
				d = int64(*c.MessageRetentionDays)
			}
			if d > 0 {
				byDays[d] = append(byDays[d], c.ID)
			}
		}
		if orgDays > 0 {
			// Direct messages follow the organization's setting (Zulip's
			// archive_personal_and_huddle_messages).
			out = append(out, storage.ExpiredQuery{ChannelIDs: byDays[orgDays], Direct: true, Before: now - orgDays*day})
			delete(byDays, orgDays)
		}
		days := make([]int64, 0, len(byDays))
		for d := range byDays {
			days = append(days, d)
		}
		slices.Sort(days)
		for _, d := range days {
			out = append(out, storage.ExpiredQuery{ChannelIDs: byDays[d], Before: now - d*day})
		}
		return nil
	})
	for i := range out {
		out[i].Limit = s.cfg.BatchSize
	}
	return out, err
}

// claim runs a batch's transaction at READ COMMITTED (storage.UpdateReadCommitted), where the
// PostgreSQL backend's Expired locks the messages it returns and skips those another process
// holds.
func (s *Service) claim(ctx context.Context, fn func(storage.Tx) error) error {
	return storage.UpdateReadCommitted(ctx, s.cfg.Store, fn)
}

// archiveBatch archives at most q.Limit expired messages in one transaction and returns the
// archive made and how many messages it holds (0: none was due, no archive).
func (s *Service) archiveBatch(ctx context.Context, q storage.ExpiredQuery) (storage.ArchiveID, int, error) {
	var (
		id storage.ArchiveID
		n  int
	)
	err := s.eng.MutateWith(ctx, s.claim, engine.Actor{}, engine.NoActor, func(o *engine.WriteOp) error {
		id, n = 0, 0
		tx := o.Tx
		ids, err := tx.Archives().Expired(q)
		if err != nil || len(ids) == 0 {
			return err
		}
		ar := storage.Archive{ArchivedAt: o.Now.Unix()}
		if ar.Messages, err = tx.Messages().GetMany(ids); err != nil {
			return err
		}
		if ar.Rows, err = tx.Messages().Rows(ids); err != nil {
			return err
		}
		if ar.Reactions, err = tx.Messages().Reactions(ids); err != nil {
			return err
		}
		if ar.Links, err = tx.Attachments().MessageLinks(ids); err != nil {
			return err
		}
		// The release's events (attachment updates and removals) are not sent: retention
		// deletions send none. The orphaned attachments' bytes stay until the purge.
		var silent engine.Events
		if ar.Attachments, err = s.cfg.Files.ReleaseAttachments(tx, &silent, ids); err != nil {
			return err
		}
		if err := tx.Messages().Delete(ids); err != nil {
			return err
		}
		if id, err = tx.Archives().Create(ar); err != nil {
			return err
		}
		n = len(ar.Messages)
		return nil
	})
	return id, n, err
}

// purge deletes the archives older than the grace period, in batches, and frees the bytes of
// their attachments that no attachment refers to any more (a restore may have brought one
// back under the same path).
func (s *Service) purge(ctx context.Context, res *ArchiveMessagesResult) error {
	for {
		var (
			free []uploads.Attachment
			ids  []storage.ArchiveID
			n    int
		)
		err := s.eng.MutateWith(ctx, s.claim, engine.Actor{}, engine.NoActor, func(o *engine.WriteOp) error {
			free, n = nil, 0
			var err error
			before := o.Now.Add(-s.cfg.GracePeriod).Unix()
			if ids, err = o.Tx.Archives().List(before, purgeBatch); err != nil || len(ids) == 0 {
				return err
			}
			for _, id := range ids {
				ar, err := o.Tx.Archives().Get(id)
				if err != nil {
					return err
				}
				n += len(ar.Messages)
				for _, a := range ar.Attachments {
					if _, err := o.Tx.Attachments().GetByPath(a.PathID); errors.Is(err, storage.ErrNotFound) {
						free = append(free, a)
					} else if err != nil {
						return err
					}
				}
			}
			return o.Tx.Archives().Delete(ids)
		})
		if err != nil {
			return err
		}
		for _, a := range free {
			s.cfg.Files.DeleteAttachmentBlobs(ctx, a)
		}
		res.Purged += n
		res.PurgedArchives += len(ids)
		if len(ids) < purgeBatch {
			return nil
		}
	}
}

// pause waits d, or until ctx ends.
func pause(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// purgeBatch is how many archives one purge transaction deletes (Zulip's
// TRANSACTION_DELETION_BATCH_SIZE).
const purgeBatch = 100
