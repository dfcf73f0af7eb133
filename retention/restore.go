package retention

import (
	"context"
	"errors"
	"fmt"

	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/uploads"
)

// RestoreArchiveParams are the parameters of RestoreArchive.
type RestoreArchiveParams struct {
	// ArchiveID is the archive to restore (ArchiveMessagesResult.Archives).
	ArchiveID storage.ArchiveID
}

// RestoreArchiveResult counts what RestoreArchive brought back.
type RestoreArchiveResult struct {
	Messages int
}

var errNoArchive = &engine.Error{Code: engine.CodeBadRequest, Msg: "No such archive"}

// RestoreArchive brings an archive's messages back (Zulip's restore_data_from_archive) under
// their own ids, with their users' rows, reactions and attachment links; attachments whose
// last link the archive held get their rows again. The archive is then deleted. In one
// transaction, without events, as in Zulip.
func (s *Service) RestoreArchive(ctx context.Context, p RestoreArchiveParams) (RestoreArchiveResult, error) {
	var res RestoreArchiveResult
	err := s.eng.Mutate(ctx, engine.Actor{}, engine.NoActor, func(o *engine.WriteOp) error {
		tx := o.Tx
		ar, err := tx.Archives().Get(p.ArchiveID)
		if err := engine.NotFound(err, func() *engine.Error { return errNoArchive }); err != nil {
			return err
		}
		if err := tx.Archives().Reinsert(ar.Messages, ar.Rows, ar.Reactions); err != nil {
			return err
		}
		newID := map[uploads.ID]uploads.ID{}
		for _, a := range ar.Attachments {
			old := a.ID
			if cur, err := tx.Attachments().GetByPath(a.PathID); err == nil {
				newID[old] = cur.ID
				continue
			} else if !errors.Is(err, storage.ErrNotFound) {
				return err
			}
			if newID[old], err = tx.Attachments().Create(a); err != nil {
				return err
			}
		}
		links := make([]uploads.Link, len(ar.Links))
		for i, l := range ar.Links {
			if id, ok := newID[l.AttachmentID]; ok {
				l.AttachmentID = id
			}
			links[i] = l
		}
		if err := tx.Attachments().Link(links); err != nil {
			return err
		}
		res.Messages = len(ar.Messages)
		return tx.Archives().Delete([]storage.ArchiveID{p.ArchiveID})
	})
	if err != nil {
		return RestoreArchiveResult{}, fmt.Errorf("retention: restoring archive %d: %w", p.ArchiveID, err)
	}
	return res, nil
}
