package httpapi

import (
	"encoding/json"
	"strconv"
	"strings"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/users"
)

// clientName is the sending client: the client parameter, else the first word of the
// User-Agent.
func clientName(r *request) string {
	if c, ok := r.params.str("client"); ok && c != "" {
		return c
	}
	ua := r.http.Header.Get("User-Agent")
	name, _, _ := strings.Cut(ua, "/")
	name, _, _ = strings.Cut(name, " ")
	return name
}

// sendMessage serves POST /messages.
func (h *Handler) sendMessage(r *request) (any, error) {
	var (
		sp  chat.SendMessageParams
		err error
	)
	if sp.Type, err = r.params.requiredStr("type"); err != nil {
		return nil, err
	}
	sp.Type = strings.Trim(strings.TrimSpace(sp.Type), `"`)
	to, err := r.params.requiredStr("to")
	if err != nil {
		return nil, err
	}
	switch sp.Type {
	case "stream", "channel":
		sp.ChannelID, sp.ChannelName, err = channelTo(to)
	case "direct", "private":
		sp.UserIDs, sp.Emails, err = directTo(to)
	}
	if err != nil {
		return nil, err
	}
	if sp.Topic, err = topicParam(r); err != nil {
		return nil, err
	}
	if sp.Content, err = r.params.requiredStr("content"); err != nil {
		return nil, err
	}
	if sp.ReadBySender, err = r.params.boolean("read_by_sender"); err != nil {
		return nil, err
	}
	sp.QueueID, _ = r.params.str("queue_id")
	sp.LocalID, _ = r.params.str("local_id")
	sp.Client = clientName(r)
	return h.svc.SendMessage(r.ctx, r.actor, sp)
}

// topicParam reads topic or its legacy alias subject (nil when neither is given).
func topicParam(r *request) (*string, error) {
	topic, hasTopic := r.params.str("topic")
	subject, hasSubject := r.params.str("subject")
	switch {
	case hasTopic && hasSubject:
		return nil, chat.Errorf(chat.CodeRequestConfusingVar, "Can't decide between 'topic' and 'subject' arguments")
	case hasTopic:
		return &topic, nil
	case hasSubject:
		return &subject, nil
	}
	return nil, nil
}

// updateMessage serves PATCH /messages/{message_id}.
func (h *Handler) updateMessage(r *request) (any, error) {
	up := chat.UpdateMessageParams{MessageID: pathID[messages.ID](r, "message_id"), Content: r.params.optStr("content")}
	var err error
	if up.Topic, err = topicParam(r); err != nil {
		return nil, err
	}
	id, err := r.params.integer("stream_id")
	if err != nil {
		return nil, err
	}
	if id != nil {
		c := channels.ID(*id)
		up.StreamID = &c
	}
	if mode := r.params.optStr("propagate_mode"); mode != nil {
		up.PropagateMode = *mode
	}
	if up.SendNotificationToOldThread, err = r.params.boolean("send_notification_to_old_thread"); err != nil {
		return nil, err
	}
	if up.SendNotificationToNewThread, err = r.params.boolean("send_notification_to_new_thread"); err != nil {
		return nil, err
	}
	up.PrevContentSHA256 = r.params.optStr("prev_content_sha256")
	return h.svc.UpdateMessage(r.ctx, r.actor, up)
}

// channelTo reads the to of a channel message: an id (9 or "9"), a JSON list of one id or
// name, or a channel name. A JSON value of another kind (a fraction such as 1.9, true, null)
// is refused as Zulip refuses it.
func channelTo(to string) (*channels.ID, string, error) {
	s := strings.TrimSpace(to)
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil || dec.More() {
		return nil, s, nil // a bare channel name
	}
	if list, ok := v.([]any); ok {
		if len(list) != 1 {
			return nil, "", chat.InvalidArgument("to", "a channel message needs exactly one channel")
		}
		v = list[0]
	}
	switch v := v.(type) {
	case json.Number:
		n, err := strconv.ParseInt(string(v), 10, 64)
		if err != nil {
			break
		}
		id := channels.ID(n)
		return &id, "", nil
	case string:
		if n, err := strconv.ParseInt(v, 10, 64); err == nil {
			id := channels.ID(n)
			return &id, "", nil
		}
		return nil, v, nil
	}
	return nil, "", chat.Errorf(chat.CodeBadRequest, "Invalid data type for channel")
}

// directTo reads the to of a direct message: a JSON list of ids or of emails, or
// comma-separated emails.
func directTo(to string) ([]users.ID, []string, error) {
	s := strings.TrimSpace(to)
	var ids []users.ID
	if json.Unmarshal([]byte(s), &ids) == nil {
		return ids, nil, nil
	}
	var emails []string
	if json.Unmarshal([]byte(s), &emails) == nil {
		return nil, emails, nil
	}
	var one users.ID
	if json.Unmarshal([]byte(s), &one) == nil {
		return []users.ID{one}, nil, nil
	}
	for _, e := range strings.Split(s, ",") {
		if e = strings.TrimSpace(e); e != "" {
			emails = append(emails, e)
		}
	}
	return nil, emails, nil
}

// narrowParam decodes a narrow: a JSON list of {operator, operand, negated} objects or of
// [operator, operand] pairs.
func narrowParam(p *params) ([]chat.NarrowTerm, error) {
	raw, err := jsonParam[[]json.RawMessage](p, "narrow", false)
	if err != nil || raw == nil {
		return nil, err
	}
	out := make([]chat.NarrowTerm, 0, len(*raw))
	for _, item := range *raw {
		var t chat.NarrowTerm
		var pair []any
		if json.Unmarshal(item, &pair) == nil {
			if len(pair) != 2 {
				return nil, chat.InvalidArgument("narrow", "each legacy term must have two elements")
			}
			op, ok := pair[0].(string)
			if !ok {
				return nil, chat.InvalidArgument("narrow", "")
			}
			t.Operator, t.Operand = op, pair[1]
			if neg, ok := strings.CutPrefix(op, "-"); ok {
				t.Operator, t.Negated = neg, true
			}
		} else if err := json.Unmarshal(item, &t); err != nil || t.Operator == "" {
			return nil, chat.InvalidArgument("narrow", "")
		}
		out = append(out, t)
	}
	return out, nil
}

// getMessages serves GET /messages.
func (h *Handler) getMessages(r *request) (any, error) {
	var (
		gp  chat.GetMessagesParams
		err error
	)
	if a, ok := r.params.str("anchor"); ok {
		gp.Anchor = strings.Trim(strings.TrimSpace(a), `"`)
	}
	if first, err := r.params.boolOr("use_first_unread_anchor", false); err != nil {
		return nil, err
	} else if first {
		gp.Anchor = "first_unread"
	}
	if ids, err := jsonParam[[]messages.ID](r.params, "message_ids", false); err != nil {
		return nil, err
	} else if ids != nil {
		gp.MessageIDs = *ids
		if gp.MessageIDs == nil {
			gp.MessageIDs = []messages.ID{}
		}
	}
	if gp.MessageIDs == nil {
		n, err := r.params.requiredInt("num_before")
		if err != nil {
			return nil, err
		}
		gp.NumBefore = countOf(n)
		if n, err = r.params.requiredInt("num_after"); err != nil {
			return nil, err
		}
		gp.NumAfter = countOf(n)
	}
	if gp.IncludeAnchor, err = r.params.boolean("include_anchor"); err != nil {
		return nil, err
	}
	if gp.Narrow, err = narrowParam(r.params); err != nil {
		return nil, err
	}
	if gp.ClientGravatar, err = r.params.boolean("client_gravatar"); err != nil {
		return nil, err
	}
	if gp.ApplyMarkdown, err = r.params.boolean("apply_markdown"); err != nil {
		return nil, err
	}
	if gp.AllowEmptyTopicName, err = r.params.boolOr("allow_empty_topic_name", false); err != nil {
		return nil, err
	}
	return h.svc.GetMessages(r.ctx, r.actor, gp)
}

// getMessage serves GET /messages/{message_id}.
func (h *Handler) getMessage(r *request) (any, error) {
	gp := chat.GetMessageParams{MessageID: pathID[messages.ID](r, "message_id")}
	var err error
	if gp.ApplyMarkdown, err = r.params.boolean("apply_markdown"); err != nil {
		return nil, err
	}
	if gp.AllowEmptyTopicName, err = r.params.boolOr("allow_empty_topic_name", false); err != nil {
		return nil, err
	}
	return h.svc.GetMessage(r.ctx, r.actor, gp)
}

// updateMessageFlags serves POST /messages/flags.
func (h *Handler) updateMessageFlags(r *request) (any, error) {
	var (
		fp  chat.UpdateMessageFlagsParams
		err error
	)
	if fp.Messages, err = requiredJSON[[]messages.ID](r.params, "messages", false); err != nil {
		return nil, err
	}
	if fp.Op, err = r.params.requiredStr("op"); err != nil {
		return nil, err
	}
	if fp.Flag, err = r.params.requiredStr("flag"); err != nil {
		return nil, err
	}
	return h.svc.UpdateMessageFlags(r.ctx, r.actor, fp)
}

// deleteMessage serves DELETE /messages/{message_id}.
func (h *Handler) deleteMessage(r *request) (any, error) {
	return h.svc.DeleteMessage(r.ctx, r.actor, chat.DeleteMessageParams{MessageID: pathID[messages.ID](r, "message_id")})
}

// getStreamTopics serves GET /users/me/{stream_id}/topics.
func (h *Handler) getStreamTopics(r *request) (any, error) {
	gp := chat.GetStreamTopicsParams{StreamID: pathID[channels.ID](r, "stream_id")}
	var err error
	if gp.AllowEmptyTopicName, err = r.params.boolOr("allow_empty_topic_name", false); err != nil {
		return nil, err
	}
	return h.svc.GetStreamTopics(r.ctx, r.actor, gp)
}
