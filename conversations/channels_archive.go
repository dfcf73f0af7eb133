package conversations

import (
	"context"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/internal/engine"
)

// ArchiveStreamParams are the parameters of DELETE /streams/{stream_id}.
type ArchiveStreamParams struct{ StreamID channels.ID }

// ArchiveStreamResult is the (empty) response.
type ArchiveStreamResult struct{}

// ArchiveStream archives a channel: it stays readable and its subscriptions can still be
// changed, but it leaves the default channels and no longer appears in most lists. Users who
// could see it receive stream delete with for_archiving true.
func (s *Service) ArchiveStream(ctx context.Context, actor engine.Actor, p ArchiveStreamParams) (ArchiveStreamResult, error) {
	err := s.eng.Mutate(ctx, actor, engine.SignedIn, func(o *engine.WriteOp) error {
		tx, ev, w := o.Tx, o.Ev, o.World()
		c, err := administeredChannel(o, p.StreamID)
		if err != nil {
			return err
		}
		if c.IsArchived {
			return engine.BadRequest("Channel is already deactivated")
		}
		wasDefault := c.IsDefault
		c.IsArchived, c.IsDefault = true, false
		if err := tx.Channels().Update(c); err != nil {
			return err
		}
		w.SetChannel(c)
		ev.Emit(newArchiveEvent(c, channelRecord(w, c), true), w.Watchers(c, nil))
		if wasDefault {
			ev.Emit(defaultStreamsEvent(w), w.ActiveUserIDs())
		}
		return nil
	})
	return ArchiveStreamResult{}, err
}
