package conversations

import (
	"context"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/topics"
)

// GetStreamTopicsParams are the parameters of GET /users/me/{stream_id}/topics.
type GetStreamTopicsParams struct {
	StreamID            channels.ID
	AllowEmptyTopicName bool
}

// TopicRecord is one topic of a channel: its name and newest message.
type TopicRecord struct {
	Name  string      `json:"name"`
	MaxID messages.ID `json:"max_id"`
}

// GetStreamTopicsResult lists a channel's topics, newest first.
type GetStreamTopicsResult struct {
	Topics []TopicRecord `json:"topics"`
}

// GetStreamTopics lists the topics of a channel among the messages the actor may read.
func (s *Service) GetStreamTopics(ctx context.Context, actor engine.Actor, p GetStreamTopicsParams) (GetStreamTopicsResult, error) {
	res := GetStreamTopicsResult{Topics: []TopicRecord{}}
	err := s.eng.Read(ctx, actor, engine.SignedIn, func(o *engine.ReadOp) error {
		tx, me, w := o.Tx, o.Me, o.World()
		c, ok := w.Channel(p.StreamID)
		if !ok || !w.Metadata(c, me) {
			return ErrInvalidChannelID
		}
		full := (!c.InviteOnly || c.HistoryPublicToSubscribers) && w.Content(c, me)
		list, err := tx.Messages().Topics(c.ID, me.ID, full)
		if err != nil {
			return err
		}
		for _, t := range list {
			res.Topics = append(res.Topics, TopicRecord{
				Name:  topics.Display(t.Name, w.Org().EmptyTopicDisplayName, p.AllowEmptyTopicName),
				MaxID: t.MaxID,
			})
		}
		return nil
	})
	if err != nil {
		return GetStreamTopicsResult{}, err
	}
	return res, nil
}
