package conversations

import (
	"context"
	"slices"

	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/narrows"
	"github.com/teamchat/chat/users"
)

// GetReadReceiptsParams are the parameters of GET /messages/{message_id}/read_receipts.
type GetReadReceiptsParams struct {
	MessageID messages.ID
}

// GetReadReceiptsResult lists, ascending, the users who have read the message.
type GetReadReceiptsResult struct {
	UserIDs []users.ID `json:"user_ids"`
}

// GetReadReceipts lists who has read a message the actor may read, where the organization
// enables read receipts: the active users with the message marked read, except its sender,
// those who turned send_read_receipts off, those the actor muted and those who muted the
// actor (Zulip's rules).
func (s *Service) GetReadReceipts(ctx context.Context, actor engine.Actor, p GetReadReceiptsParams) (GetReadReceiptsResult, error) {
	res := GetReadReceiptsResult{UserIDs: []users.ID{}}
	err := s.eng.Read(ctx, actor, engine.SignedIn, func(o *engine.ReadOp) error {
		tx, me, w := o.Tx, o.Me, o.World()
		m, _, err := narrows.ReadableMessage(w, tx.Messages(), me, p.MessageID)
		if err != nil {
			return err
		}
		realm := w.Org()
		if !realm.Bool("enable_read_receipts") {
			return engine.BadRequest("Read receipts are disabled in this organization.")
		}
		rows, err := tx.Messages().Rows([]messages.ID{m.ID})
		if err != nil {
			return err
		}
		var readers []users.ID
		for _, r := range rows {
			if r.Flags&messages.FlagRead != 0 && r.UserID != m.SenderID {
				readers = append(readers, r.UserID)
			}
		}
		hidden, err := mutingEitherWay(o, me.ID)
		if err != nil {
			return err
		}
		settings, err := tx.UserSettings().GetMany(readers)
		if err != nil {
			return err
		}
		for _, id := range readers {
			u, ok := w.Lookup(id)
			if ok && u.IsActive && !hidden[id] && settings[id].Value("send_read_receipts") == true {
				res.UserIDs = append(res.UserIDs, id)
			}
		}
		slices.Sort(res.UserIDs)
		return nil
	})
	if err != nil {
		return GetReadReceiptsResult{}, err
	}
	return res, nil
}

// mutingEitherWay returns the users u muted and those who muted u.
func mutingEitherWay(o *engine.ReadOp, u users.ID) (map[users.ID]bool, error) {
	out := map[users.ID]bool{}
	muted, err := o.Tx.MutedUsers().List(u)
	if err != nil {
		return nil, err
	}
	for _, m := range muted {
		out[m.MutedUserID] = true
	}
	muters, err := o.World().MutersOf(o.Tx.MutedUsers(), u)
	if err != nil {
		return nil, err
	}
	for _, id := range muters {
		out[id] = true
	}
	return out, nil
}
