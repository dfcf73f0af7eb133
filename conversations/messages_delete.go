package conversations

import (
	"context"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/internal/world"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/narrows"
	"github.com/teamchat/chat/users"
)

// DeleteMessageParams are the parameters of DELETE /messages/{message_id}.
type DeleteMessageParams struct {
	MessageID messages.ID
}

var errCannotDeleteMessage = &engine.Error{Code: engine.CodeBadRequest, Msg: "You don't have permission to delete this message"}

// deleteEditBuffer is Zulip's grace past the delete time limit (a request sent just in time).
const deleteEditBuffer = 20

// DeleteMessageResult is DeleteMessage's answer: nothing beyond success.
type DeleteMessageResult struct{}

// DeleteMessage deletes one message, by Zulip's rules: members of the organization's
// can_delete_any_message_group may delete any message they can read, members of the channel's
// can_delete_any_message_group any message of the channel; a sender (or the owner of the
// sending bot) their own message where the organization's or the channel's
// can_delete_own_message_group allows, within the organization's delete time limit.
func (s *Service) DeleteMessage(ctx context.Context, actor engine.Actor, p DeleteMessageParams) (DeleteMessageResult, error) {
	return DeleteMessageResult{}, s.eng.Mutate(ctx, actor, engine.SignedIn, func(o *engine.WriteOp) error {
		tx, ev, me, w := o.Tx, o.Ev, o.Me, o.World()
		m, _, err := narrows.ReadableMessage(w, tx.Messages(), me, p.MessageID)
		if err != nil {
			return err
		}
		if err := checkCanDelete(w, me, m, o.Now.Unix()); err != nil {
			return err
		}
		return s.DeleteMessages(tx, ev, w, me, []messages.ID{m.ID})
	})
}

// checkCanDelete applies the delete permissions to one message at time now.
func checkCanDelete(w *world.World, me users.User, m messages.Message, now int64) error {
	var c channels.Channel
	if !m.IsDirect() {
		c, _ = w.Channel(m.ChannelID)
	}
	if w.Membership().Allows(w.Org().CanDeleteAnyMessageGroup, me.ID) || !m.IsDirect() && w.Membership().Allows(c.CanDeleteAnyMessageGroup, me.ID) {
		return nil
	}
	if m.SenderID != me.ID && w.User(m.SenderID).BotOwnerID != me.ID {
		return errCannotDeleteMessage
	}
	if !w.Membership().Allows(w.Org().CanDeleteOwnMessageGroup, me.ID) && (m.IsDirect() || !w.Membership().Allows(c.CanDeleteOwnMessageGroup, me.ID)) {
		return errCannotDeleteMessage
	}
	realm := w.Org()
	if limit := realm.Value("message_content_delete_limit_seconds"); limit != nil && now-m.Timestamp > limit.(int64)+deleteEditBuffer {
		return engine.BadRequest("The time limit for deleting this message has passed")
	}
	return nil
}
