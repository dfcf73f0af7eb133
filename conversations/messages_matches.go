package conversations

import (
	"context"
	"strconv"

	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/narrows"
	"github.com/teamchat/chat/storage"
)

// MaxMatchNarrowIDs bounds the message ids of one GET /messages/matches_narrow.
const MaxMatchNarrowIDs = MaxMessagesPerFetch

// CheckMessagesMatchNarrowParams are the parameters of GET /messages/matches_narrow.
type CheckMessagesMatchNarrowParams struct {
	MsgIDs []messages.ID
	Narrow []NarrowTerm
}

// NarrowMatch is how one message matches a narrow: its rendered content and its topic (as
// HTML), with the words of the narrow's search highlighted.
type NarrowMatch struct {
	MatchContent string `json:"match_content"`
	MatchSubject string `json:"match_subject"`
}

// CheckMessagesMatchNarrowResult maps the ids (as strings) of the messages that match to
// their highlighted fields.
type CheckMessagesMatchNarrowResult struct {
	Messages map[string]NarrowMatch `json:"messages"`
}

// CheckMessagesMatchNarrow tells which of the given messages, among those the actor received,
// match the narrow (the web client asks it for searches it cannot evaluate itself).
func (s *Service) CheckMessagesMatchNarrow(ctx context.Context, actor engine.Actor, p CheckMessagesMatchNarrowParams) (CheckMessagesMatchNarrowResult, error) {
	if len(p.MsgIDs) > MaxMatchNarrowIDs {
		return CheckMessagesMatchNarrowResult{}, engine.BadRequest("msg_ids is too long (limit: %d items)", MaxMatchNarrowIDs)
	}
	if len(p.Narrow) > MaxNarrowLength {
		return CheckMessagesMatchNarrowResult{}, engine.BadRequest("narrow is too long (limit: %d items)", MaxNarrowLength)
	}
	res := CheckMessagesMatchNarrowResult{Messages: map[string]NarrowMatch{}}
	err := s.eng.Read(ctx, actor, engine.SignedIn, func(o *engine.ReadOp) error {
		tx, me, w := o.Tx, o.Me, o.World()
		terms, err := narrows.Resolve(w, tx.UserTopics(), me, p.Narrow)
		if err != nil {
			return err
		}
		// Only the messages the actor received: no channel history.
		matches, err := fetchIDs(tx.Messages(), storage.MessageQuery{User: me.ID, Terms: terms}, p.MsgIDs)
		if err != nil {
			return err
		}
		search, _ := narrowSearch(terms)
		for _, m := range matches {
			if !m.Received {
				continue
			}
			res.Messages[strconv.FormatInt(int64(m.Message.ID), 10)] = NarrowMatch{
				MatchContent: search.Highlight(m.Message.Rendered),
				MatchSubject: search.HighlightTopic(m.Message.Topic),
			}
		}
		return nil
	})
	if err != nil {
		return CheckMessagesMatchNarrowResult{}, err
	}
	return res, nil
}
