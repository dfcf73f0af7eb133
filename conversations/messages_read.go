package conversations

import (
	"context"
	"slices"
	"time"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/internal/world"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/narrows"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// Defaults of MarkAllAsRead: messages marked per transaction, and how long it runs before it
// answers complete=false (Zulip's 50 seconds).
const (
	DefaultMarkReadBatchSize = 2000
	DefaultMarkReadBudget    = 50 * time.Second
)

// MarkAllAsReadResult says whether every unread message was marked read; false when the
// budget ran out first (the client repeats the request).
type MarkAllAsReadResult struct {
	Complete bool `json:"complete"`
}

// MarkStreamAsReadParams are the parameters of POST /mark_stream_as_read.
type MarkStreamAsReadParams struct {
	StreamID channels.ID
}

// MarkTopicAsReadParams are the parameters of POST /mark_topic_as_read.
type MarkTopicAsReadParams struct {
	StreamID  channels.ID
	TopicName string
}

// readEvent is the update_message_flags event of messages marked read.
func readEvent(ids []messages.ID) UpdateMessageFlagsEvent {
	return UpdateMessageFlagsEvent{Type: "update_message_flags", Op: "add", Operation: "add", Flag: "read", Messages: ids}
}

// AnnounceRead sends user the update_message_flags event of messages marked read (people's
// Hooks.MessagesRead).
func AnnounceRead(ev *engine.Events, user users.ID, ids []messages.ID) {
	ev.Emit(readEvent(ids), []int64{int64(user)})
}

// MarkAllAsRead marks every unread message of the actor read, oldest first, in transactions
// of Options.MarkReadBatchSize messages, each with its update_message_flags event. It stops
// after Options.MarkReadBudget (measured with Now) and answers complete=false.
func (s *Service) MarkAllAsRead(ctx context.Context, actor engine.Actor) (MarkAllAsReadResult, error) {
	batch := s.cfg.MarkReadBatchSize
	if batch <= 0 {
		batch = DefaultMarkReadBatchSize
	}
	budget := s.cfg.MarkReadBudget
	if budget <= 0 {
		budget = DefaultMarkReadBudget
	}
	start := s.now()
	var after messages.ID
	for {
		if s.now().Sub(start) >= budget {
			return MarkAllAsReadResult{Complete: false}, nil
		}
		var marked []messages.ID
		err := s.eng.Mutate(ctx, actor, engine.SignedIn, func(o *engine.WriteOp) error {
			tx, ev, me := o.Tx, o.Ev, o.Me
			var err error
			if marked, err = tx.Messages().MarkRead(storage.MarkReadQuery{User: me.ID, After: after, Limit: batch}); err != nil {
				return err
			}
			if len(marked) > 0 {
				ev.Emit(readEvent(marked), []int64{int64(me.ID)})
			}
			return nil
		})
		if err != nil {
			return MarkAllAsReadResult{}, err
		}
		if len(marked) < batch {
			return MarkAllAsReadResult{Complete: true}, nil
		}
		after = marked[len(marked)-1]
	}
}

// MarkStreamAsReadResult is MarkStreamAsRead's answer: nothing beyond success.
type MarkStreamAsReadResult struct{}

// MarkStreamAsRead marks the actor's unread messages of a channel read.
func (s *Service) MarkStreamAsRead(ctx context.Context, actor engine.Actor, p MarkStreamAsReadParams) (MarkStreamAsReadResult, error) {
	return MarkStreamAsReadResult{}, s.markChannelRead(ctx, actor, p.StreamID, nil)
}

// MarkTopicAsReadResult is MarkTopicAsRead's answer: nothing beyond success.
type MarkTopicAsReadResult struct{}

// MarkTopicAsRead marks the actor's unread messages of a topic read.
func (s *Service) MarkTopicAsRead(ctx context.Context, actor engine.Actor, p MarkTopicAsReadParams) (MarkTopicAsReadResult, error) {
	if len(p.TopicName) > 4*MaxTopicLength {
		return MarkTopicAsReadResult{}, engine.BadRequest("No such topic '%s'", p.TopicName[:4*MaxTopicLength])
	}
	return MarkTopicAsReadResult{}, s.markChannelRead(ctx, actor, p.StreamID, &p.TopicName)
}

// markChannelRead marks the actor's unread messages of a channel, or of one of its topics,
// read. A topic the actor has no message of is an error (Zulip's "No such topic").
func (s *Service) markChannelRead(ctx context.Context, actor engine.Actor, id channels.ID, topic *string) error {
	return s.eng.Mutate(ctx, actor, engine.SignedIn, func(o *engine.WriteOp) error {
		tx, ev, me, w := o.Tx, o.Ev, o.Me, o.World()
		c, err := engine.ChannelRef(w, me, id)
		if err != nil {
			return err
		}
		if topic != nil && *topic != "" {
			exists, err := hasTopicRow(w, tx.Messages(), me, c.ID, *topic)
			if err != nil {
				return err
			}
			if !exists {
				return engine.BadRequest("No such topic '%s'", *topic)
			}
		}
		marked, err := tx.Messages().MarkRead(storage.MarkReadQuery{User: me.ID, ChannelID: c.ID, Topic: topic})
		if err != nil {
			return err
		}
		if len(marked) > 0 {
			ev.Emit(readEvent(marked), []int64{int64(me.ID)})
		}
		return nil
	})
}

// hasTopicRow reports whether the user has a row for a message of the channel's topic.
func hasTopicRow(w *world.World, r storage.MessageReader, me users.User, c channels.ID, topic string) (bool, error) {
	q := storage.MessageQuery{
		User:  me.ID,
		Terms: []messages.Term{{Operator: messages.OpChannel, Channel: c}, {Operator: messages.OpTopic, Text: topic}},
		Limit: 1,
	}
	got, err := r.Query(q)
	return len(got) > 0, err
}

// UpdateMessageFlagsForNarrowParams are the parameters of POST /messages/flags/narrow.
type UpdateMessageFlagsForNarrowParams struct {
	// Anchor is "newest", "oldest", "first_unread" or a message id.
	Anchor        string
	IncludeAnchor *bool // default true
	NumBefore     int
	NumAfter      int
	Narrow        []NarrowTerm
	Op            string
	Flag          string
}

// UpdateMessageFlagsForNarrowResult describes the range processed.
type UpdateMessageFlagsForNarrowResult struct {
	ProcessedCount   int          `json:"processed_count"`
	UpdatedCount     int          `json:"updated_count"`
	FirstProcessedID *messages.ID `json:"first_processed_id"`
	LastProcessedID  *messages.ID `json:"last_processed_id"`
	FoundOldest      bool         `json:"found_oldest"`
	FoundNewest      bool         `json:"found_newest"`
	// IgnoredBecauseNotSubscribedChannels lists, when marking unread, the channels whose
	// messages stayed read because the actor is not subscribed (unread messages are only in
	// subscribed channels).
	IgnoredBecauseNotSubscribedChannels *[]channels.ID `json:"ignored_because_not_subscribed_channels,omitempty"`
}

// UpdateMessageFlagsForNarrow adds or removes a flag on the messages of a narrow around an
// anchor, as GET /messages would select them.
func (s *Service) UpdateMessageFlagsForNarrow(ctx context.Context, actor engine.Actor, p UpdateMessageFlagsForNarrowParams) (UpdateMessageFlagsForNarrowResult, error) {
	flag, err := checkFlagUpdate(p.Flag, p.Op)
	if err != nil {
		return UpdateMessageFlagsForNarrowResult{}, err
	}
	gp := GetMessagesParams{Anchor: p.Anchor, IncludeAnchor: p.IncludeAnchor, NumBefore: p.NumBefore, NumAfter: p.NumAfter, Narrow: p.Narrow}
	if err := gp.checkRange(); err != nil {
		return UpdateMessageFlagsForNarrowResult{}, err
	}
	if p.Anchor == "" {
		return UpdateMessageFlagsForNarrowResult{}, engine.MissingArgument("anchor")
	}
	var res UpdateMessageFlagsForNarrowResult
	err = s.eng.Mutate(ctx, actor, engine.SignedIn, func(o *engine.WriteOp) error {
		res = UpdateMessageFlagsForNarrowResult{}
		tx, ev, me, w := o.Tx, o.Ev, o.Me, o.World()
		terms, err := narrows.Resolve(w, tx.UserTopics(), me, p.Narrow)
		if err != nil {
			return err
		}
		q := storage.MessageQuery{User: me.ID, HistoryChannels: narrows.HistoryChannels(w, me, terms), Terms: terms}
		var around GetMessagesResult
		matches, err := fetchAround(tx.Messages(), q, gp, &around)
		if err != nil {
			return err
		}
		res.ProcessedCount = len(matches)
		res.FoundOldest, res.FoundNewest = *around.FoundOldest, *around.FoundNewest
		if len(matches) == 0 {
			return nil
		}
		first, last := matches[0].Message.ID, matches[len(matches)-1].Message.ID
		res.FirstProcessedID, res.LastProcessedID = &first, &last
		var ids []messages.ID
		var historical []messages.UserMessage
		ignored := []channels.ID{}
		for _, m := range matches {
			if flag == messages.FlagRead && p.Op == "remove" && !m.Message.IsDirect() && !w.IsSubscribed(m.Message.ChannelID, me.ID) {
				if !slices.Contains(ignored, m.Message.ChannelID) {
					ignored = append(ignored, m.Message.ChannelID)
				}
				continue
			}
			if !m.Received && flag == messages.FlagStarred && p.Op == "add" {
				historical = append(historical, messages.UserMessage{UserID: me.ID, MessageID: m.Message.ID, Flags: messages.FlagRead | messages.FlagHistorical})
			}
			ids = append(ids, m.Message.ID)
		}
		if flag == messages.FlagRead && p.Op == "remove" {
			slices.Sort(ignored)
			res.IgnoredBecauseNotSubscribedChannels = &ignored
		}
		changed, err := setFlags(w, tx, ev, me, ids, historical, flag, p.Op, p.Flag)
		res.UpdatedCount = len(changed)
		return err
	})
	if err != nil {
		return UpdateMessageFlagsForNarrowResult{}, err
	}
	return res, nil
}

// setFlags adds the historical rows, then adds or removes flag on the user's rows of ids,
// and queues the update_message_flags event of the rows that changed, which it returns.
func setFlags(w *world.World, tx storage.Tx, ev *engine.Events, me users.User, ids []messages.ID, historical []messages.UserMessage, flag messages.Flags, op, name string) ([]messages.ID, error) {
	if len(historical) > 0 {
		if err := tx.Messages().PutRows(historical); err != nil {
			return nil, err
		}
	}
	add, remove := flag, messages.Flags(0)
	if op == "remove" {
		add, remove = 0, flag
	}
	changed, err := tx.Messages().SetFlags(me.ID, ids, add, remove)
	if err != nil || len(changed) == 0 {
		return changed, err
	}
	e := UpdateMessageFlagsEvent{
		Type: "update_message_flags", Op: op, Operation: op, Flag: name, Messages: changed,
		emptyTopicLabel: w.Org().EmptyTopicDisplayName,
	}
	if flag == messages.FlagRead && op == "remove" {
		msgs, err := tx.Messages().GetMany(changed)
		if err != nil {
			return nil, err
		}
		rows, err := tx.Messages().UserRows(me.ID, changed)
		if err != nil {
			return nil, err
		}
		e.MessageDetails = unreadDetails(msgs, changed, rows, me.ID)
	}
	ev.Emit(e, []int64{int64(me.ID)})
	return changed, nil
}
