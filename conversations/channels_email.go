package conversations

import (
	"context"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/people"
	"github.com/teamchat/chat/users"
)

// GetStreamEmailAddressParams are the parameters of GET /streams/{stream_id}/email_address.
type GetStreamEmailAddressParams struct {
	StreamID channels.ID
	// SenderID is who the emails would be sent as: the actor or a bot the actor administers
	// (nil: the email gateway).
	SenderID *users.ID
}

// GetStreamEmailAddressResult holds the channel's email address: empty on a server without an
// email gateway, as Zulip answers when EMAIL_GATEWAY_PATTERN is not set.
type GetStreamEmailAddressResult struct {
	Email string `json:"email"`
}

// GetStreamEmailAddress returns the address that posts to a channel by email. This server has
// no email gateway, so the address is empty; the checks are Zulip's: the actor must be able to
// post to the channel, and the sender must be the actor or a bot the actor administers.
func (s *Service) GetStreamEmailAddress(ctx context.Context, actor engine.Actor, p GetStreamEmailAddressParams) (GetStreamEmailAddressResult, error) {
	err := s.eng.Read(ctx, actor, engine.SignedIn, func(o *engine.ReadOp) error {
		tx, me, w := o.Tx, o.Me, o.World()
		c, ok := w.Channel(p.StreamID)
		if !ok || !w.Content(c, me) || c.IsArchived || !channels.CanPost(w.Membership(), c, w.Viewer(c.ID, me)) {
			return errInvalidChannelID
		}
		if p.SenderID != nil && *p.SenderID != me.ID {
			if _, err := people.AccessBot(tx.Users(), me, *p.SenderID); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return GetStreamEmailAddressResult{}, err
	}
	return GetStreamEmailAddressResult{Email: ""}, nil
}
