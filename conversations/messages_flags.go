package conversations

import (
	"context"
	"slices"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/internal/clients"
	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/topics"
	"github.com/teamchat/chat/users"
)

// UpdateMessageFlagsParams are the parameters of POST /messages/flags.
type UpdateMessageFlagsParams struct {
	Messages []messages.ID
	// Op is "add" or "remove".
	Op string
	// Flag is read, starred, collapsed or hide_link_previews.
	Flag string
}

// UpdateMessageFlagsResult lists the messages whose flag changed.
type UpdateMessageFlagsResult struct {
	Messages []messages.ID `json:"messages"`
}

// UpdateMessageFlagsEvent is an update_message_flags event. MessageDetails describes messages
// marked unread, so that clients can put them back in their unread lists.
type UpdateMessageFlagsEvent struct {
	Type           string                               `json:"type"`
	Op             string                               `json:"op"`
	Operation      string                               `json:"operation"`
	Flag           string                               `json:"flag"`
	Messages       []messages.ID                        `json:"messages"`
	All            bool                                 `json:"all"`
	MessageDetails map[messages.ID]UnreadMessageDetails `json:"message_details,omitempty"`

	emptyTopicLabel string
}

// UnreadMessageDetails describes one message marked unread.
type UnreadMessageDetails struct {
	Type      string       `json:"type"`
	Mentioned bool         `json:"mentioned,omitempty"`
	UserIDs   *[]users.ID  `json:"user_ids,omitempty"`
	StreamID  *channels.ID `json:"stream_id,omitempty"`
	Topic     *string      `json:"topic,omitempty"`
	// topic is the stored topic, shown per client.
	topic string
}

// ForClient shows the empty topic of message details as its display name to clients that do
// not know it.
func (e UpdateMessageFlagsEvent) ForClient(o clients.Options) (any, bool) {
	if o.Capabilities.EmptyTopicName || e.MessageDetails == nil {
		return e, true
	}
	details := make(map[messages.ID]UnreadMessageDetails, len(e.MessageDetails))
	for id, d := range e.MessageDetails {
		if d.Topic != nil {
			t := topics.Display(d.topic, e.emptyTopicLabel, false)
			d.Topic = &t
		}
		details[id] = d
	}
	e.MessageDetails = details
	return e, true
}

// MaxFlagMessages bounds the messages of one flags request.
const MaxFlagMessages = 5000

// UpdateMessageFlags adds or removes a flag on the actor's messages. Starring a message the
// actor reads from a channel's history adds it to their messages (with the historical flag).
func (s *Service) UpdateMessageFlags(ctx context.Context, actor engine.Actor, p UpdateMessageFlagsParams) (UpdateMessageFlagsResult, error) {
	flag, err := checkFlagUpdate(p.Flag, p.Op)
	if err != nil {
		return UpdateMessageFlagsResult{}, err
	}
	if len(p.Messages) > MaxFlagMessages {
		return UpdateMessageFlagsResult{}, engine.BadRequest("messages is too long (limit: %d items)", MaxFlagMessages)
	}
	var res UpdateMessageFlagsResult
	err = s.eng.Mutate(ctx, actor, engine.SignedIn, func(o *engine.WriteOp) error {
		tx, ev, me, w := o.Tx, o.Ev, o.Me, o.World()
		ids := slices.Clone(p.Messages)
		slices.Sort(ids)
		ids = slices.Compact(ids)
		msgs, err := tx.Messages().GetMany(ids)
		if err != nil {
			return err
		}
		rows, err := tx.Messages().UserRows(me.ID, ids)
		if err != nil {
			return err
		}
		received := map[messages.ID]bool{}
		for _, r := range rows {
			received[r.MessageID] = true
		}
		if len(msgs) != len(ids) {
			return errInvalidMessage
		}
		var historical []messages.UserMessage
		for _, m := range msgs {
			if !w.CanRead(me, m, received[m.ID]) {
				return errInvalidMessage
			}
			if !received[m.ID] && flag == messages.FlagStarred && p.Op == "add" {
				historical = append(historical, messages.UserMessage{UserID: me.ID, MessageID: m.ID, Flags: messages.FlagRead | messages.FlagHistorical})
			}
		}
		res.Messages, err = setFlags(w, tx, ev, me, ids, historical, flag, p.Op, p.Flag)
		return err
	})
	if err != nil {
		return UpdateMessageFlagsResult{}, err
	}
	return res, nil
}

// checkFlagUpdate reads the flag and operation of a flags request.
func checkFlagUpdate(name, op string) (messages.Flags, error) {
	flag, ok := messages.ParseFlag(name)
	if !ok {
		return 0, engine.BadRequest("Invalid flag: '%s'", name)
	}
	if !messages.UserEditable(flag) {
		return 0, engine.BadRequest("Flag not editable: '%s'", name)
	}
	if op != "add" && op != "remove" {
		return 0, engine.BadRequest("Invalid message flag operation: '%s'", op)
	}
	return flag, nil
}

// unreadDetails describes the messages of changed for clients putting them back in their
// unread lists.
func unreadDetails(msgs []messages.Message, changed []messages.ID, rows []messages.UserMessage, me users.ID) map[messages.ID]UnreadMessageDetails {
	flags := map[messages.ID]messages.Flags{}
	for _, r := range rows {
		flags[r.MessageID] = r.Flags
	}
	out := map[messages.ID]UnreadMessageDetails{}
	for _, m := range msgs {
		if !slices.Contains(changed, m.ID) {
			continue
		}
		d := UnreadMessageDetails{
			Mentioned: flags[m.ID]&(messages.FlagMentioned|messages.FlagStreamWildcardMentioned|messages.FlagTopicWildcardMentioned) != 0,
		}
		if m.IsDirect() {
			d.Type = "private"
			others := []users.ID{}
			for _, id := range m.Recipients {
				if id != me {
					others = append(others, id)
				}
			}
			d.UserIDs = &others
		} else {
			d.Type = "stream"
			c, t := m.ChannelID, m.Topic
			d.StreamID, d.Topic, d.topic = &c, &t, t
		}
		out[m.ID] = d
	}
	return out
}
