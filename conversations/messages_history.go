package conversations

import (
	"context"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/narrows"
	"github.com/teamchat/chat/topics"
	"github.com/teamchat/chat/users"
)

// GetMessageHistoryParams are the parameters of GET /messages/{message_id}/history.
type GetMessageHistoryParams struct {
	MessageID messages.ID
	// AllowEmptyTopicName keeps the empty topic as "" instead of the organization's display
	// name for it.
	AllowEmptyTopicName bool
}

// MessageSnapshot is one version of a message in its edit history: the values after an edit
// (or, for the first one, as sent) and, for what the edit changed, the values before it.
type MessageSnapshot struct {
	Topic               string       `json:"topic"`
	PrevTopic           *string      `json:"prev_topic,omitempty"`
	Stream              *channels.ID `json:"stream,omitempty"`
	PrevStream          *channels.ID `json:"prev_stream,omitempty"`
	Content             string       `json:"content"`
	RenderedContent     string       `json:"rendered_content"`
	PrevContent         *string      `json:"prev_content,omitempty"`
	PrevRenderedContent *string      `json:"prev_rendered_content,omitempty"`
	ContentHTMLDiff     *string      `json:"content_html_diff,omitempty"`
	UserID              users.ID     `json:"user_id"`
	Timestamp           int64        `json:"timestamp"`
}

// GetMessageHistoryResult is the message's versions, oldest first.
type GetMessageHistoryResult struct {
	MessageHistory []MessageSnapshot `json:"message_history"`
}

// GetMessageHistory returns the versions of a message the actor may read, as far as the
// organization's message_edit_history_visibility_policy shows them: every edit ("all"), the
// moves only, without the content changes ("moves"), or an error ("none").
func (s *Service) GetMessageHistory(ctx context.Context, actor engine.Actor, p GetMessageHistoryParams) (GetMessageHistoryResult, error) {
	var res GetMessageHistoryResult
	err := s.eng.Read(ctx, actor, engine.SignedIn, func(o *engine.ReadOp) error {
		w := o.World()
		policy := messages.EditHistoryPolicy(w.Org().MessageEditHistoryVisibilityPolicy)
		if policy == messages.EditHistoryNone {
			return engine.BadRequest("Message edit history is disabled in this organization")
		}
		m, _, err := narrows.ReadableMessage(w, o.Tx.Messages(), o.Me, p.MessageID)
		if err != nil {
			return err
		}
		topic := func(t string) string {
			if m.IsDirect() {
				return ""
			}
			return topics.Display(t, w.Org().EmptyTopicDisplayName, p.AllowEmptyTopicName)
		}
		res.MessageHistory = visibleSnapshots(messageSnapshots(m, topic), policy)
		return nil
	})
	if err != nil {
		return GetMessageHistoryResult{}, err
	}
	return res, nil
}

// messageSnapshots fills m's stored edits (newest first, holding only what changed) into
// whole versions, oldest first: each edit's values after it, then the message as sent.
func messageSnapshots(m messages.Message, topic func(string) string) []MessageSnapshot {
	content, rendered, cur := m.Content, m.Rendered, topic(m.Topic)
	out := make([]MessageSnapshot, 0, len(m.EditHistory)+1)
	for _, e := range m.EditHistory {
		s := MessageSnapshot{Topic: cur, Content: content, RenderedContent: rendered, UserID: e.UserID, Timestamp: e.Timestamp}
		if e.PrevTopic != nil {
			cur = topic(*e.PrevTopic)
			prev := cur
			s.PrevTopic = &prev
		}
		if e.PrevContent != nil {
			prevContent, prevRendered := *e.PrevContent, ""
			if e.PrevRenderedContent != nil {
				prevRendered = *e.PrevRenderedContent
			}
			diff := messages.HighlightHTMLDifferences(prevRendered, rendered)
			s.PrevContent, s.PrevRenderedContent, s.ContentHTMLDiff = &prevContent, &prevRendered, &diff
			content, rendered = prevContent, prevRendered
		}
		if e.PrevStream != nil {
			s.PrevStream, s.Stream = e.PrevStream, e.Stream
		}
		out = append(out, s)
	}
	out = append(out, MessageSnapshot{Topic: cur, Content: content, RenderedContent: rendered, UserID: m.SenderID, Timestamp: m.Timestamp})
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// visibleSnapshots keeps what policy shows (Zulip's visible_edit_history_for_message): under
// "moves", a content edit that moved nothing is left out, and one that also changed the topic
// loses its previous content and diff.
func visibleSnapshots(list []MessageSnapshot, policy messages.EditHistoryPolicy) []MessageSnapshot {
	if policy == messages.EditHistoryAll {
		return list
	}
	out := make([]MessageSnapshot, 0, len(list))
	for _, s := range list {
		if s.PrevContent != nil {
			if s.PrevTopic == nil {
				continue
			}
			s.PrevContent, s.PrevRenderedContent, s.ContentHTMLDiff = nil, nil, nil
		}
		out = append(out, s)
	}
	return out
}
