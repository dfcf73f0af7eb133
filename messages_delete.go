package chat

import (
	"context"

	"github.com/teamchat/chat/messages"
)

// DeleteMessageParams are the parameters of DELETE /messages/{message_id}.
type DeleteMessageParams struct {
	MessageID messages.ID
}

var errCannotDeleteMessage = &Error{Code: CodeBadRequest, Msg: "You don't have permission to delete this message"}

// DeleteMessage deletes one message. Administrators may delete any message they can read,
// members of the channel's can_delete_any_message_group any message of the channel, and
// senders their own messages where the channel's can_delete_own_message_group allows (direct
// messages: always).
func (s *Service) DeleteMessage(ctx context.Context, actor Actor, p DeleteMessageParams) error {
	return s.mutate(ctx, actor, signedIn, func(o *writeOp) error {
		tx, ev, me, w := o.tx, o.ev, o.me, o.world()
		m, _, err := w.readableMessage(tx.Messages(), me, p.MessageID)
		if err != nil {
			return err
		}
		allowed := me.Role.IsAdmin()
		if !m.IsDirect() {
			c, _ := w.channel(m.ChannelID)
			allowed = allowed || w.membership().Allows(c.CanDeleteAnyMessageGroup, me.ID) ||
				m.SenderID == me.ID && w.membership().Allows(c.CanDeleteOwnMessageGroup, me.ID)
		} else {
			allowed = allowed || m.SenderID == me.ID
		}
		if !allowed {
			return errCannotDeleteMessage
		}
		return s.deleteMessages(tx, ev, w, me, []messages.ID{m.ID})
	})
}
